/**
 * Whether a webhook is called for a request, and with what: its rules
 * against the request's resource (and, under matchPolicy Equivalent, the
 * same resource through its other served groups and versions, the object
 * converted to the version the rule names), its namespace and object
 * selectors. A miss carries the reason the trace shows.
 */

import type { AdmissionAttributes, AdmissionPluginDeps } from '../types';
import { describeRule, findRule, viewAs } from '../matching/rules';
import { namespaceSelectorMatches, objectSelectorMatches } from '../matching/selectors';
import type { VersionedRequest } from './review';
import type { WebhookSpec } from './types';

export type MatchOutcome =
  { matched: true; request: VersionedRequest; rule: string } | { matched: false; reason: string };

export async function matchWebhook(
  spec: WebhookSpec,
  a: AdmissionAttributes,
  deps: Pick<AdmissionPluginDeps, 'resources' | 'namespaces'>,
): Promise<MatchOutcome> {
  const hit = findRule(spec.rules ?? [], a, deps, (spec.matchPolicy ?? 'Equivalent') === 'Equivalent');
  if (hit === undefined) return { matched: false, reason: 'no rule matched' };
  const view = viewAs(hit.resource, a, deps);
  const request: VersionedRequest = {
    attributes: a,
    group: view.resource.group,
    version: view.resource.version,
    kind: view.kind.kind,
    resource: view.resource.resource,
    object: view.object,
    oldObject: view.oldObject,
  };
  if (!(await namespaceSelectorMatches(spec.namespaceSelector, a, deps)))
    return { matched: false, reason: 'namespaceSelector did not match' };
  if (!objectSelectorMatches(spec.objectSelector, a.object, a.oldObject))
    return { matched: false, reason: 'objectSelector did not match' };
  return { matched: true, request, rule: describeRule(hit.rule) };
}
