/**
 * Whether a policy's `matchConstraints` or a binding's `matchResources`
 * cover a request, as v1.27's policy matcher decides: the namespace and
 * object selectors, then `excludeResourceRules` (any hit excludes), then
 * `resourceRules` (none listed: every resource) with `resourceNames`, and
 * under `matchPolicy: Equivalent` the same resource through its other
 * served groups and versions — which also fixes the version the policy
 * sees the object in. A miss carries the reason the trace shows.
 */

import type { AdmissionAttributes, AdmissionPluginDeps } from '../types';
import { findRule, viewAs, type RequestView } from '../matching/rules';
import { namespaceSelectorMatches, objectSelectorMatches } from '../matching/selectors';
import type { MatchResources, NamedRuleWithOperations } from './types';

/** What the policy sees: the resource and kind it matched as, and the object in that version. */
export type MatchedRequest = RequestView;

export type MatchResult = { matched: true; request: MatchedRequest } | { matched: false; reason: string };

type MatchDeps = Pick<AdmissionPluginDeps, 'resources' | 'namespaces'>;

export async function matchResources(
  match: MatchResources | undefined,
  a: AdmissionAttributes,
  deps: MatchDeps,
  what: 'matchConstraints' | 'matchResources',
): Promise<MatchResult> {
  const asIs = viewAs({ group: a.group, version: a.version, resource: a.resource }, a, deps);
  // A binding without matchResources applies wherever its policy does.
  if (match === undefined) return { matched: true, request: asIs };
  if (!(await namespaceSelectorMatches(match.namespaceSelector, a, deps)))
    return { matched: false, reason: `${what}.namespaceSelector did not match` };
  if (!objectSelectorMatches(match.objectSelector, a.object, a.oldObject))
    return { matched: false, reason: `${what}.objectSelector did not match` };
  const equivalent = (match.matchPolicy ?? 'Equivalent') === 'Equivalent';
  const named = (rule: NamedRuleWithOperations) => nameMatches(rule, a);
  if (findRule(match.excludeResourceRules ?? [], a, deps, equivalent, named) !== undefined)
    return { matched: false, reason: `${what}.excludeResourceRules matched` };
  const rules = match.resourceRules ?? [];
  if (rules.length === 0) return { matched: true, request: asIs };
  const hit = findRule(rules, a, deps, equivalent, named);
  if (hit === undefined) return { matched: false, reason: `no ${what}.resourceRules matched` };
  return { matched: true, request: viewAs(hit.resource, a, deps) };
}

/** An empty `resourceNames` covers every name; the request's name is compared (empty while a name is generated). */
function nameMatches(rule: NamedRuleWithOperations, a: AdmissionAttributes): boolean {
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(a.name);
}
