/**
 * Whether an admission rule covers a request — shared by webhooks and
 * ValidatingAdmissionPolicy, which match rules the same way: operation,
 * group, version, resource (with the real wildcard forms `*`, `*\/*`,
 * `<resource>/*`, `*\/status`) and scope (a Namespace object counts as
 * cluster-scoped); under `matchPolicy: Equivalent` the same resource through
 * its other served groups and versions, and the request as seen in the
 * version that matched.
 */

import type { GroupVersionKind, GroupVersionResource, KubeObject } from '../../api/meta';
import type { AdmissionAttributes, AdmissionPluginDeps } from '../types';
import type { RuleWithOperations } from '../webhook/types';

export interface RuleTarget {
  operation: string;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  namespace: string;
}

export function ruleTarget(a: AdmissionAttributes): RuleTarget {
  return {
    operation: a.operation,
    group: a.group,
    version: a.version,
    resource: a.resource,
    subresource: a.subresource,
    namespace: a.namespace,
  };
}

export function ruleMatches(rule: RuleWithOperations, t: RuleTarget): boolean {
  return (
    listMatches(rule.operations, t.operation) &&
    listMatches(rule.apiGroups, t.group) &&
    listMatches(rule.apiVersions, t.version) &&
    resourceMatches(rule.resources ?? [], t.resource, t.subresource) &&
    scopeMatches(rule.scope, t)
  );
}

/** A rule as text, for the trace. */
export function describeRule(r: RuleWithOperations): string {
  return `operations=[${(r.operations ?? []).join(',')}] apiGroups=[${(r.apiGroups ?? []).join(',')}] apiVersions=[${(r.apiVersions ?? []).join(',')}] resources=[${(r.resources ?? []).join(',')}] scope=${r.scope ?? '*'}`;
}

type ResourceDeps = Pick<AdmissionPluginDeps, 'resources'>;

/** A rule that covers the request and the resource it covered it as. */
export interface RuleHit<R> {
  rule: R;
  resource: GroupVersionResource;
}

/**
 * The first rule covering the request as itself; failing that, under
 * Equivalent, the first rule covering one of its equivalents (rules in
 * order, each against every equivalent). `covers` adds a caller's own test
 * (a policy's `resourceNames`).
 */
export function findRule<R extends RuleWithOperations>(
  rules: readonly R[],
  a: AdmissionAttributes,
  deps: ResourceDeps,
  equivalent: boolean,
  covers: (rule: R) => boolean = () => true,
): RuleHit<R> | undefined {
  const target = ruleTarget(a);
  for (const rule of rules)
    if (ruleMatches(rule, target) && covers(rule))
      return { rule, resource: { group: a.group, version: a.version, resource: a.resource } };
  if (!equivalent) return undefined;
  const others = deps.resources
    .equivalents(a.group, a.version, a.resource)
    .filter((e) => !(e.group === a.group && e.version === a.version && e.resource === a.resource));
  for (const rule of rules)
    for (const e of others)
      if (
        ruleMatches(rule, { ...target, group: e.group, version: e.version, resource: e.resource }) &&
        covers(rule)
      )
        return { rule, resource: e };
  return undefined;
}

/** The request as seen through `resource`: its kind there and the objects converted to that version. */
export interface RequestView {
  resource: GroupVersionResource;
  kind: GroupVersionKind;
  object?: KubeObject;
  oldObject?: KubeObject;
}

export function viewAs(
  resource: GroupVersionResource,
  a: AdmissionAttributes,
  deps: ResourceDeps,
): RequestView {
  if (resource.group === a.group && resource.version === a.version && resource.resource === a.resource)
    return {
      resource,
      kind: { group: a.group, version: a.version, kind: a.kind },
      object: a.object,
      oldObject: a.oldObject,
    };
  const served = deps.resources.lookup(resource.group, resource.version, resource.resource);
  const apiVersion = resource.group === '' ? resource.version : `${resource.group}/${resource.version}`;
  const convert = (o: KubeObject | undefined) =>
    o === undefined ? undefined : (deps.resources.convert(o, apiVersion) ?? o);
  return {
    resource,
    kind: { group: resource.group, version: resource.version, kind: served?.kind ?? a.kind },
    object: convert(a.object),
    oldObject: convert(a.oldObject),
  };
}

function listMatches(list: readonly string[] | undefined, value: string): boolean {
  return (list ?? []).some((x) => x === '*' || x === value);
}

function resourceMatches(resources: readonly string[], resource: string, subresource: string): boolean {
  const accepted =
    subresource === ''
      ? ['*/*', '*', resource]
      : ['*/*', `*/${subresource}`, `${resource}/*`, `${resource}/${subresource}`];
  return resources.some((r) => accepted.includes(r));
}

function scopeMatches(scope: string | undefined, t: RuleTarget): boolean {
  // The real server sets a Namespace request's namespace to the namespace's own name: it is cluster-scoped all the same.
  const isNamespace = t.group === '' && t.resource === 'namespaces';
  switch (scope ?? '*') {
    case 'Namespaced':
      return !isNamespace && t.namespace !== '';
    case 'Cluster':
      return isNamespace || t.namespace === '';
    default:
      return true;
  }
}
