/**
 * Label selectors as controllers use them (`metav1.LabelSelectorAsSelector`):
 * a missing selector selects nothing, an empty one everything; an
 * expression with an unknown operator makes the selector invalid, which the
 * controllers report and skip. The map selectors of ReplicationControllers
 * and Services select by equality, and an empty map selects nothing there.
 */

import type { LabelSelector } from './types';

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

/** Whether the selector names nothing to match (`{}`), which selects every object. */
export function isEmptySelector(selector: LabelSelector | undefined | null): boolean {
  return (
    selector !== undefined &&
    selector !== null &&
    Object.keys(selector.matchLabels ?? {}).length === 0 &&
    (selector.matchExpressions ?? []).length === 0
  );
}

/** A map selector (ReplicationController, Service): every pair must match; an empty map selects nothing. */
export function mapSelectorMatcher(selector: Record<string, string> | undefined | null): Matcher {
  const entries = Object.entries(selector ?? {});
  if (entries.length === 0) return nothing;
  return (labels) => entries.every(([k, v]) => labels?.[k] === v);
}
