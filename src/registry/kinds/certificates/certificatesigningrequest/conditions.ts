/**
 * The conditions of a certificate request: their rules (a type and status
 * each; Approved, Denied and Failed only `True` and only once; Approved and
 * Denied never together), what an update may do to them (never remove
 * Approved, Denied or Failed; add or change Approved and Denied only through
 * `approval`), and the timestamps the server fills in. Approved and Denied
 * are the decision the signer acts on, so they are write-once.
 */

import type { KubeObject } from '../../../../api/meta';
import { fieldError, type FieldError } from '../../../../machinery/field-errors';
import { deepEqual } from '../../../../machinery/json';
import { quoted } from './signer-name';

export type Condition = Record<string, unknown>;

/** Condition types that may only be `True`, and that no update may remove. */
const trueOnlyTypes = ['Approved', 'Denied', 'Failed'];
const approvalTypes = ['Approved', 'Denied'];
const allStatuses = ['False', 'True', 'Unknown'];

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

export function conditionsOf(obj: KubeObject | undefined): Condition[] {
  const list = (obj?.status as { conditions?: unknown } | undefined)?.conditions;
  return Array.isArray(list) ? list.filter((c): c is Condition => typeof c === 'object' && c !== null) : [];
}

export interface ConditionAllowances {
  bothApprovedAndDenied: boolean;
  duplicateTypes: boolean;
  emptyType: boolean;
}

/** What the stored object already breaks is tolerated on its updates (the real server's compatibility rule). */
export function conditionAllowances(old: KubeObject | undefined): ConditionAllowances {
  const types = conditionsOf(old).map((c) => text(c.type));
  return {
    bothApprovedAndDenied: types.includes('Approved') && types.includes('Denied'),
    duplicateTypes: new Set(types).size !== types.length,
    emptyType: types.includes(''),
  };
}

export function validateConditions(obj: KubeObject, allow: ConditionAllowances): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  let approved = false;
  let denied = false;
  conditionsOf(obj).forEach((c, i) => {
    const path = `status.conditions[${i}]`;
    const type = text(c.type);
    const status = text(c.status);
    if (!allow.emptyType && type === '') errors.push(fieldError.required(`${path}.type`, ''));
    const allowed = trueOnlyTypes.includes(type) ? ['True'] : allStatuses;
    if (status === '') errors.push(fieldError.required(`${path}.status`, ''));
    else if (!allowed.includes(status))
      errors.push(fieldError.notSupported(`${path}.status`, quoted(status), allowed));
    if (!allow.bothApprovedAndDenied) {
      const clash =
        (type === 'Approved' && denied) || (type === 'Denied' && approved)
          ? 'Approved and Denied conditions are mutually exclusive'
          : undefined;
      if (type === 'Approved') approved = true;
      if (type === 'Denied') denied = true;
      if (clash !== undefined) errors.push(fieldError.invalid(`${path}.type`, quoted(type), clash));
    }
    if (!allow.duplicateTypes) {
      if (seen.has(type)) errors.push(fieldError.duplicate(`${path}.type`, quoted(type)));
      seen.add(type);
    }
  });
  return errors;
}

function ofType(obj: KubeObject | undefined, type: string): Condition[] {
  return conditionsOf(obj).filter((c) => text(c.type) === type);
}

/** Go's `diff.StringDiff` of two JSON texts: the common prefix, then each remainder. */
function stringDiff(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return `${a.slice(0, i)}\n\nA: ${a.slice(i)}\n\nB: ${b.slice(i)}\n\n`;
}

/** What an update may not do to the conditions; Approved and Denied change only where `approval` is true. */
export function conditionUpdateErrors(obj: KubeObject, old: KubeObject, approval: boolean): FieldError[] {
  const errors: FieldError[] = [];
  for (const type of trueOnlyTypes)
    if (ofType(obj, type).length < ofType(old, type).length)
      errors.push(
        fieldError.forbidden('status.conditions', `updates may not remove a condition of type "${type}"`),
      );
  if (approval) return errors;
  for (const type of approvalTypes) {
    const before = ofType(old, type);
    const after = ofType(obj, type);
    if (after.length < before.length) continue;
    if (after.length > before.length)
      errors.push(
        fieldError.forbidden('status.conditions', `updates may not add a condition of type "${type}"`),
      );
    else if (!deepEqual(before, after))
      errors.push(
        fieldError.forbidden(
          'status.conditions',
          `updates may not modify a condition of type "${type}"\n${stringDiff(JSON.stringify(before), JSON.stringify(after))}`,
        ),
      );
  }
  return errors;
}

/**
 * A status write keeps the stored Approved and Denied conditions where the
 * request has the same number of them, so a signer writing a stale copy
 * cannot rewrite the decision; adding or removing them is left for
 * validation to refuse.
 */
export function preserveApprovalConditions(obj: KubeObject, old: KubeObject): void {
  const conditions = conditionsOf(obj);
  const stored = conditionsOf(old);
  for (const type of approvalTypes) {
    const newIndexes = conditions.flatMap((c, i) => (text(c.type) === type ? [i] : []));
    const oldIndexes = stored.flatMap((c, i) => (text(c.type) === type ? [i] : []));
    if (newIndexes.length !== oldIndexes.length) continue;
    newIndexes.forEach((at, k) => {
      const from = stored[oldIndexes[k] ?? -1];
      if (from !== undefined) conditions[at] = structuredClone(from);
    });
  }
  if (conditions.length > 0) (obj.status as { conditions: Condition[] }).conditions = conditions;
}

const unset = (v: unknown): boolean => v === undefined || v === null || v === '';

/**
 * `lastUpdateTime` defaults to now; `lastTransitionTime` to the stored
 * condition's of the same type and status, else now — what `kubectl
 * certificate approve` relies on, as it sends only `lastUpdateTime`.
 */
export function populateConditionTimestamps(obj: KubeObject, old: KubeObject, now: string): void {
  const stored = conditionsOf(old);
  for (const c of conditionsOf(obj)) {
    if (unset(c.lastUpdateTime)) c.lastUpdateTime = now;
    if (!unset(c.lastTransitionTime)) continue;
    const same = stored.find(
      (o) =>
        text(o.type) === text(c.type) && text(o.status) === text(c.status) && !unset(o.lastTransitionTime),
    );
    c.lastTransitionTime = same?.lastTransitionTime ?? now;
  }
}
