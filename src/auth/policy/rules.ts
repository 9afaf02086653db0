/**
 * Rule coverage as the real server computes it for reconciliation and
 * escalation checks: a set of rules covers another when every atomic
 * sub-rule of the other (one group, one resource, one verb, one resource
 * name; or one URL and one verb) is allowed by some owner rule, honouring
 * `*` for verbs, groups and resources, a `*` resource before a subresource name, and a trailing `*`
 * on non-resource URLs. What is not covered comes back as those atomic
 * sub-rules, which is what an upgraded server appends to a default role.
 */

import type { PolicyRule } from './types';

const ALL = '*';

/** Splits a rule into atomic rules, in the order upstream's BreakdownRule produces them. */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  const verbs = rule.verbs ?? [];
  for (const group of rule.apiGroups ?? [])
    for (const resource of rule.resources ?? [])
      for (const verb of verbs) {
        const names = rule.resourceNames ?? [];
        if (names.length > 0)
          for (const name of names)
            out.push({ verbs: [verb], apiGroups: [group], resources: [resource], resourceNames: [name] });
        else out.push({ verbs: [verb], apiGroups: [group], resources: [resource] });
      }
  // Non-resource URLs combine with verbs only.
  for (const url of rule.nonResourceURLs ?? [])
    for (const verb of verbs) out.push({ verbs: [verb], nonResourceURLs: [url] });
  return out;
}

function hasAll(set: readonly string[], items: readonly string[]): boolean {
  return items.every((i) => set.includes(i));
}

function resourceCoversAll(set: readonly string[], covers: readonly string[]): boolean {
  if (set.includes(ALL) || hasAll(set, covers)) return true;
  for (const path of covers) {
    if (set.includes(path)) continue;
    const slash = path.indexOf('/');
    if (slash < 0) return false;
    if (!set.includes(`*/${path.slice(slash + 1)}`)) return false;
  }
  return true;
}

function nonResourceURLCovers(owner: string, sub: string): boolean {
  if (owner === sub) return true;
  return owner.endsWith('*') && sub.startsWith(owner.replace(/\*+$/, ''));
}

/** Whether one owner rule allows everything the (atomic) sub-rule names. */
export function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const ownerVerbs = owner.verbs ?? [];
  const ownerGroups = owner.apiGroups ?? [];
  const ownerNames = owner.resourceNames ?? [];
  const subNames = sub.resourceNames ?? [];
  const verbs = ownerVerbs.includes(ALL) || hasAll(ownerVerbs, sub.verbs ?? []);
  const groups = ownerGroups.includes(ALL) || hasAll(ownerGroups, sub.apiGroups ?? []);
  const resources = resourceCoversAll(owner.resources ?? [], sub.resources ?? []);
  const urls = (sub.nonResourceURLs ?? []).every((u) =>
    (owner.nonResourceURLs ?? []).some((o) => nonResourceURLCovers(o, u)),
  );
  const names =
    subNames.length === 0 ? ownerNames.length === 0 : ownerNames.length === 0 || hasAll(ownerNames, subNames);
  return verbs && groups && resources && names && urls;
}

/** Whether `owner` covers every rule of `servant`, and the atomic sub-rules it does not cover. */
export function covers(
  owner: readonly PolicyRule[],
  servant: readonly PolicyRule[],
): { covered: boolean; uncovered: PolicyRule[] } {
  const uncovered: PolicyRule[] = [];
  for (const sub of servant.flatMap(breakdownRule))
    if (!owner.some((o) => ruleCovers(o, sub))) uncovered.push(sub);
  return { covered: uncovered.length === 0, uncovered };
}
