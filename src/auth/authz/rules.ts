/**
 * RBAC policy rules and how one request matches one rule, as the real
 * server's `RuleAllows` decides it: verbs and API groups match exactly or
 * by `*`; resources match exactly, by `*` (subresources included) or by
 * `*`-slash-subresource (one subresource of every resource); a rule with
 * resourceNames matches only requests that carry one of those names (so
 * never a list without a name); non-resource URLs match exactly, by `*`,
 * or by a prefix ending in `*`.
 */

import type { AuthorizationAttributes } from '../authorizer';

/** A rule of a Role or ClusterRole, in its stored (JSON) shape. */
export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

/** The resource as rules name it: `pods`, or `pods/log` for a subresource. */
export function combinedResource(a: Pick<AuthorizationAttributes, 'resource' | 'subresource'>): string {
  return a.subresource === '' ? a.resource : `${a.resource}/${a.subresource}`;
}

export function verbMatches(rule: PolicyRule, verb: string): boolean {
  return rule.verbs.some((v) => v === '*' || v === verb);
}

export function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  return (rule.apiGroups ?? []).some((g) => g === '*' || g === group);
}

export function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  for (const r of rule.resources ?? []) {
    if (r === '*' || r === combined) return true;
    // `*/<sub>` grants one subresource of every resource; nothing else is a wildcard form.
    if (subresource !== '' && r === `*/${subresource}`) return true;
  }
  return false;
}

export function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(name);
}

export function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  for (const url of rule.nonResourceURLs ?? []) {
    if (url === '*' || url === path) return true;
    if (url.endsWith('*') && path.startsWith(url.replace(/\*+$/, ''))) return true;
  }
  return false;
}

/** Whether `rule` allows the request described by `a`. */
export function ruleAllows(a: AuthorizationAttributes, rule: PolicyRule): boolean {
  if (!a.resourceRequest) return verbMatches(rule, a.verb) && nonResourceURLMatches(rule, a.path);
  return (
    verbMatches(rule, a.verb) &&
    apiGroupMatches(rule, a.apiGroup) &&
    resourceMatches(rule, combinedResource(a), a.subresource) &&
    resourceNameMatches(rule, a.name)
  );
}

export function rulesAllow(a: AuthorizationAttributes, rules: readonly PolicyRule[]): boolean {
  return rules.some((r) => ruleAllows(a, r));
}

/** Reads a stored rule list defensively (objects come from storage and may be partial). */
export function readRules(value: unknown): PolicyRule[] {
  if (!Array.isArray(value)) return [];
  const out: PolicyRule[] = [];
  for (const item of value as unknown[]) {
    if (item === null || typeof item !== 'object') continue;
    const r = item as Record<string, unknown>;
    const rule: PolicyRule = { verbs: strings(r.verbs) };
    for (const key of ['apiGroups', 'resources', 'resourceNames', 'nonResourceURLs'] as const) {
      const v = strings(r[key]);
      if (v.length > 0) rule[key] = v;
    }
    out.push(rule);
  }
  return out;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? (value as unknown[]).filter((s): s is string => typeof s === 'string') : [];
}
