/**
 * Whether a webhook rule covers a request: operation, group, version,
 * resource (with the real wildcard forms `*`, `*\/*`, `<resource>/*`,
 * `*\/status`) and scope (a Namespace object counts as cluster-scoped).
 */

import type { RuleWithOperations } from './types';

export interface RuleTarget {
  operation: string;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  namespace: string;
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

/** The rule (as text) that covers the request, for the trace; undefined when none does. */
export function matchingRule(rules: readonly RuleWithOperations[], t: RuleTarget): string | undefined {
  for (const r of rules)
    if (ruleMatches(r, t))
      return `operations=[${(r.operations ?? []).join(',')}] apiGroups=[${(r.apiGroups ?? []).join(',')}] apiVersions=[${(r.apiVersions ?? []).join(',')}] resources=[${(r.resources ?? []).join(',')}] scope=${r.scope ?? '*'}`;
  return undefined;
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
