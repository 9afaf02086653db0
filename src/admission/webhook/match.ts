/**
 * Whether a webhook is called for a request, and with what: its rules
 * against the request's resource (and, under matchPolicy Equivalent, the
 * same resource through its other served groups and versions, the object
 * converted to the version the rule names), its namespace and object
 * selectors. A miss carries the reason the trace shows.
 */

import type { KubeObject } from '../../api/meta';
import { notFound } from '../../machinery/errors';
import type { AdmissionAttributes, AdmissionPluginDeps } from '../types';
import type { VersionedRequest } from './review';
import { matchingRule, type RuleTarget } from './rules';
import { isEmptySelector, objectSelectorMatches, selectorMatches } from './selectors';
import type { WebhookSpec } from './types';

export type MatchOutcome =
  { matched: true; request: VersionedRequest; rule: string } | { matched: false; reason: string };

export async function matchWebhook(
  spec: WebhookSpec,
  a: AdmissionAttributes,
  deps: Pick<AdmissionPluginDeps, 'resources' | 'namespaces'>,
): Promise<MatchOutcome> {
  const target: RuleTarget = {
    operation: a.operation,
    group: a.group,
    version: a.version,
    resource: a.resource,
    subresource: a.subresource,
    namespace: a.namespace,
  };
  const rules = spec.rules ?? [];
  let request: VersionedRequest | undefined;
  let rule = matchingRule(rules, target);
  if (rule !== undefined)
    request = {
      attributes: a,
      group: a.group,
      version: a.version,
      kind: a.kind,
      resource: a.resource,
      object: a.object,
      oldObject: a.oldObject,
    };
  else if ((spec.matchPolicy ?? 'Equivalent') === 'Equivalent') {
    const equivalents = deps.resources
      .equivalents(a.group, a.version, a.resource)
      .filter((e) => !(e.group === a.group && e.version === a.version && e.resource === a.resource));
    outer: for (const r of rules)
      for (const e of equivalents) {
        const found = matchingRule([r], { ...target, group: e.group, version: e.version });
        if (found === undefined) continue;
        const served = deps.resources.lookup(e.group, e.version, e.resource);
        if (served === undefined) continue;
        const apiVersion = e.group === '' ? e.version : `${e.group}/${e.version}`;
        const convert = (o: KubeObject | undefined) =>
          o === undefined ? undefined : (deps.resources.convert(o, apiVersion) ?? o);
        rule = found;
        request = {
          attributes: a,
          group: e.group,
          version: e.version,
          kind: served.kind,
          resource: e.resource,
          object: convert(a.object),
          oldObject: convert(a.oldObject),
        };
        break outer;
      }
  }
  if (request === undefined || rule === undefined) return { matched: false, reason: 'no rule matched' };
  if (!(await namespaceMatches(spec, a, deps)))
    return { matched: false, reason: 'namespaceSelector did not match' };
  if (!objectSelectorMatches(spec.objectSelector, a.object, a.oldObject))
    return { matched: false, reason: 'objectSelector did not match' };
  return { matched: true, request, rule };
}

async function namespaceMatches(
  spec: WebhookSpec,
  a: AdmissionAttributes,
  deps: Pick<AdmissionPluginDeps, 'namespaces'>,
): Promise<boolean> {
  const isNamespace = a.group === '' && a.resource === 'namespaces';
  // Other cluster-scoped resources are never exempted by a namespace selector.
  if (a.namespace === '' && !isNamespace) return true;
  if (isEmptySelector(spec.namespaceSelector)) return true;
  let labels: Record<string, string> | undefined;
  if (isNamespace && a.subresource === '' && (a.operation === 'CREATE' || a.operation === 'UPDATE'))
    labels = a.object?.metadata?.labels ?? {};
  else {
    const name = isNamespace ? a.name : a.namespace;
    const ns = await deps.namespaces.get(name);
    if (ns === undefined) throw notFound({ group: '', resource: 'namespaces' }, name);
    labels = ns.metadata?.labels ?? {};
  }
  return selectorMatches(spec.namespaceSelector, labels);
}
