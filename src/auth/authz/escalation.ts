/**
 * Escalation checks for RBAC writes: whether the rules a user holds cover
 * the rules a Role grants (each rule broken into single verb × group ×
 * resource × name pieces, every piece covered by one held rule — the real
 * `Covers`), and the Forbidden text naming what is missing (pieces of one
 * group and resource merged back by verb, printed in `CompactString` form
 * and sorted), worded as the real `ConfirmNoEscalation`.
 */

import type { UserInfo } from '../../api/authn';
import { goQuote } from '../../machinery/go-format';
import type { PolicyRule } from './rules';
import { covers } from '../policy/rules';

/** Merges pieces that differ only by verb (one group, one resource, at most one name). */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const out: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const r of rules) {
    const names = r.resourceNames ?? [];
    const isSimple =
      names.length <= 1 &&
      (r.nonResourceURLs ?? []).length === 0 &&
      (r.apiGroups ?? []).length === 1 &&
      (r.resources ?? []).length === 1;
    if (!isSimple) {
      out.push(r);
      continue;
    }
    const key = JSON.stringify([r.apiGroups, r.resources, names.length > 0, names[0] ?? '']);
    const existing = simple.get(key);
    if (existing !== undefined) existing.verbs = [...existing.verbs, ...r.verbs];
    else simple.set(key, { ...r, verbs: [...r.verbs] });
  }
  return [...out, ...simple.values()];
}

const goList = (values: readonly string[]) => `[${values.map(goQuote).join(' ')}]`;

/** `{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}` — the real `CompactString`. */
export function compactString(r: PolicyRule): string {
  const parts: string[] = [];
  const put = (label: string, v: readonly string[] | undefined) => {
    if (v !== undefined && v.length > 0) parts.push(`${label}:${goList(v)}`);
  };
  put('APIGroups', r.apiGroups);
  put('Resources', r.resources);
  put('NonResourceURLs', r.nonResourceURLs);
  put('ResourceNames', r.resourceNames);
  put('Verbs', r.verbs);
  return `{${parts.join(', ')}}`;
}

/**
 * The escalation error text, or undefined when `held` covers `wanted`.
 * `resolutionErrors` are the errors met while resolving the user's rules
 * (missing roles); the real server appends them as `; resolution errors: [...]`.
 */
export function escalationError(
  user: UserInfo,
  held: readonly PolicyRule[],
  wanted: readonly PolicyRule[],
  resolutionErrors: readonly string[],
): string | undefined {
  const { covered, uncovered: missing } = covers(held, wanted);
  if (covered) return undefined;
  const lines = [...new Set(compactRules(missing).map(compactString))].sort(compareGo);
  let msg = `user ${goQuote(user.username)} (groups=${goList(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${lines.join('\n')}`;
  if (resolutionErrors.length > 0) msg += `; resolution errors: [${aggregateText(resolutionErrors)}]`;
  return msg;
}

/** The rules of `cluster-admin`: what setting an aggregationRule requires. */
export const fullAuthority: readonly PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

/** Go sorts strings by bytes; JavaScript's default sort compares UTF-16 units, equal for the ASCII of rules. */
function compareGo(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function aggregateText(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? (unique[0] ?? '') : `[${unique.join(', ')}]`;
}
