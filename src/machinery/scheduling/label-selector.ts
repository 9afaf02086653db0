/**
 * A LabelSelector object (`matchLabels`, `matchExpressions` with In, NotIn,
 * Exists, DoesNotExist) against a set of labels, as
 * `metav1.LabelSelectorAsSelector` evaluates it — for the scheduler's
 * affinity terms and the workload controllers alike: a missing (null)
 * selector selects nothing, an empty one everything; an expression with an
 * unknown operator, or In/NotIn without values, makes the selector invalid
 * (controllers report it and skip; a filter treats it as matching nothing).
 */

import type { LabelSelector } from '../../api/pod';

export type Matcher = (labels: Record<string, string> | undefined) => boolean;

const nothing: Matcher = () => false;

/** A matcher for `selector`, or an Error saying why it is not a valid selector. */
export function labelSelectorMatcher(selector: LabelSelector | undefined | null): Matcher | Error {
  if (selector === undefined || selector === null) return nothing;
  const matchLabels = Object.entries(selector.matchLabels ?? {});
  const exprs = selector.matchExpressions ?? [];
  for (const e of exprs) {
    if (!['In', 'NotIn', 'Exists', 'DoesNotExist'].includes(e.operator))
      return new Error(`"${e.operator}" is not a valid label selector operator`);
    if ((e.operator === 'In' || e.operator === 'NotIn') && (e.values ?? []).length === 0)
      return new Error(`for 'in', 'notin' operators, values set can't be empty`);
  }
  return (labels) => {
    const l = labels ?? {};
    for (const [k, v] of matchLabels) if (l[k] !== v) return false;
    for (const e of exprs) {
      const has = Object.prototype.hasOwnProperty.call(l, e.key);
      const values = e.values ?? [];
      switch (e.operator) {
        case 'In':
          if (!has || !values.includes(l[e.key] ?? '')) return false;
          break;
        case 'NotIn':
          if (has && values.includes(l[e.key] ?? '')) return false;
          break;
        case 'Exists':
          if (!has) return false;
          break;
        case 'DoesNotExist':
          if (has) return false;
          break;
      }
    }
    return true;
  };
}

/** Whether `labels` match `selector`; an invalid selector matches nothing. */
export function matchesLabelSelector(
  selector: LabelSelector | null | undefined,
  labels: Record<string, string> | undefined,
): boolean {
  const matcher = labelSelectorMatcher(selector);
  return !(matcher instanceof Error) && matcher(labels);
}
