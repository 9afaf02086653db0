/**
 * Whether a policy's `matchConstraints` or a binding's `matchResources`
 * cover a request, as v1.27's policy matcher decides: the namespace and
 * object selectors, then `excludeResourceRules` (any hit excludes), then
 * `resourceRules` (none listed: every resource) with `resourceNames`, and
 * under `matchPolicy: Equivalent` the same resource through its other
 * served groups and versions — which also fixes the version the policy
 * sees the object in. A miss carries the reason the trace shows.
 */

import type { GroupVersionKind, GroupVersionResource, KubeObject } from '../../api/meta';
import { notFound } from '../../machinery/errors';
import type { AdmissionAttributes, AdmissionPluginDeps } from '../types';
import { ruleMatches, type RuleTarget } from '../webhook/rules';
import { isEmptySelector, objectSelectorMatches, selectorMatches } from '../webhook/selectors';
import type { MatchResources, NamedRuleWithOperations } from './types';

/** What the policy sees: the resource and kind it matched as, and the object in that version. */
export interface MatchedRequest {
  resource: GroupVersionResource;
  kind: GroupVersionKind;
  object?: KubeObject;
  oldObject?: KubeObject;
}

export type MatchResult = { matched: true; request: MatchedRequest } | { matched: false; reason: string };

type MatchDeps = Pick<AdmissionPluginDeps, 'resources' | 'namespaces'>;

export async function matchResources(
  match: MatchResources | undefined,
  a: AdmissionAttributes,
  deps: MatchDeps,
  what: 'matchConstraints' | 'matchResources',
): Promise<MatchResult> {
  const asIs: MatchedRequest = {
    resource: { group: a.group, version: a.version, resource: a.resource },
    kind: { group: a.group, version: a.version, kind: a.kind },
    object: a.object,
    oldObject: a.oldObject,
  };
  // A binding without matchResources applies wherever its policy does.
  if (match === undefined) return { matched: true, request: asIs };
  if (!(await namespaceMatches(match, a, deps)))
    return { matched: false, reason: `${what}.namespaceSelector did not match` };
  if (!objectSelectorMatches(match.objectSelector, a.object, a.oldObject))
    return { matched: false, reason: `${what}.objectSelector did not match` };
  const equivalent = (match.matchPolicy ?? 'Equivalent') === 'Equivalent';
  if (rulesMatch(match.excludeResourceRules ?? [], a, deps, equivalent) !== undefined)
    return { matched: false, reason: `${what}.excludeResourceRules matched` };
  const rules = match.resourceRules ?? [];
  if (rules.length === 0) return { matched: true, request: asIs };
  const hit = rulesMatch(rules, a, deps, equivalent);
  if (hit === undefined) return { matched: false, reason: `no ${what}.resourceRules matched` };
  if (hit.group === a.group && hit.version === a.version && hit.resource === a.resource)
    return { matched: true, request: asIs };
  const served = deps.resources.lookup(hit.group, hit.version, hit.resource);
  const apiVersion = hit.group === '' ? hit.version : `${hit.group}/${hit.version}`;
  const convert = (o: KubeObject | undefined) =>
    o === undefined ? undefined : (deps.resources.convert(o, apiVersion) ?? o);
  return {
    matched: true,
    request: {
      resource: hit,
      kind: { group: hit.group, version: hit.version, kind: served?.kind ?? a.kind },
      object: convert(a.object),
      oldObject: convert(a.oldObject),
    },
  };
}

/** The resource a rule list matched the request as (itself first, then its equivalents); undefined: none. */
function rulesMatch(
  rules: readonly NamedRuleWithOperations[],
  a: AdmissionAttributes,
  deps: MatchDeps,
  equivalent: boolean,
): GroupVersionResource | undefined {
  const target: RuleTarget = {
    operation: a.operation,
    group: a.group,
    version: a.version,
    resource: a.resource,
    subresource: a.subresource,
    namespace: a.namespace,
  };
  for (const r of rules)
    if (ruleMatches(r, target) && nameMatches(r, a))
      return { group: a.group, version: a.version, resource: a.resource };
  if (!equivalent) return undefined;
  const others = deps.resources
    .equivalents(a.group, a.version, a.resource)
    .filter((e) => !(e.group === a.group && e.version === a.version && e.resource === a.resource));
  for (const r of rules)
    for (const e of others)
      if (
        ruleMatches(r, { ...target, group: e.group, version: e.version, resource: e.resource }) &&
        nameMatches(r, a)
      )
        return e;
  return undefined;
}

/** An empty `resourceNames` covers every name; the request's name is compared (empty while a name is generated). */
function nameMatches(rule: NamedRuleWithOperations, a: AdmissionAttributes): boolean {
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(a.name);
}

async function namespaceMatches(
  match: MatchResources,
  a: AdmissionAttributes,
  deps: MatchDeps,
): Promise<boolean> {
  const isNamespace = a.group === '' && a.resource === 'namespaces';
  // Other cluster-scoped resources are never excluded by a namespace selector.
  if (a.namespace === '' && !isNamespace) return true;
  if (isEmptySelector(match.namespaceSelector)) return true;
  let labels: Record<string, string>;
  if (isNamespace && a.subresource === '' && (a.operation === 'CREATE' || a.operation === 'UPDATE'))
    labels = a.object?.metadata?.labels ?? {};
  else {
    const name = isNamespace ? a.name : a.namespace;
    const ns = await deps.namespaces.get(name);
    if (ns === undefined) throw notFound({ group: '', resource: 'namespaces' }, name);
    labels = ns.metadata?.labels ?? {};
  }
  return selectorMatches(match.namespaceSelector, labels);
}
