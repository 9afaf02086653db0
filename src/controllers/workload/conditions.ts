/**
 * Conditions of workload status, set as the real controllers set them: a
 * condition whose status and reason are unchanged is left alone; one whose
 * status is unchanged keeps its `lastTransitionTime`; a changed one is
 * appended after the others (which is why a Deployment lists `Available`
 * before `Progressing`).
 */

import type { Condition } from './types';

export function findCondition(conditions: Condition[] | undefined, type: string): Condition | undefined {
  return conditions?.find((c) => c.type === type);
}

/** The conditions with `condition` set. */
export function setCondition(conditions: Condition[] | undefined, condition: Condition): Condition[] {
  const list = conditions ?? [];
  const current = findCondition(list, condition.type);
  if (current !== undefined && current.status === condition.status && current.reason === condition.reason)
    return list;
  const next = { ...condition };
  if (current !== undefined && current.status === condition.status)
    next.lastTransitionTime = current.lastTransitionTime;
  return [...list.filter((c) => c.type !== condition.type), next];
}

export function removeCondition(conditions: Condition[] | undefined, type: string): Condition[] {
  return (conditions ?? []).filter((c) => c.type !== type);
}

/** RFC 3339 with whole seconds, as conditions carry times. */
export function timestamp(now: Date): string {
  return `${now.toISOString().slice(0, 19)}Z`;
}
