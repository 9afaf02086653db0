/**
 * A LabelSelector object (`matchLabels`, `matchExpressions` with In, NotIn,
 * Exists, DoesNotExist) against a set of labels, as `metav1.LabelSelector`
 * is evaluated: an empty selector matches everything, a missing (null) one
 * nothing.
 */

import type { LabelSelector } from '../../api/pod';

export function matchesLabelSelector(
  selector: LabelSelector | null | undefined,
  labels: Record<string, string> | undefined,
): boolean {
  if (selector === undefined || selector === null) return false;
  const l = labels ?? {};
  const has = (k: string) => Object.prototype.hasOwnProperty.call(l, k);
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (l[k] !== v) return false;
  for (const r of selector.matchExpressions ?? []) {
    const values = r.values ?? [];
    switch (r.operator) {
      case 'In':
        if (!has(r.key) || !values.includes(l[r.key] ?? '')) return false;
        break;
      case 'NotIn':
        if (has(r.key) && values.includes(l[r.key] ?? '')) return false;
        break;
      case 'Exists':
        if (!has(r.key)) return false;
        break;
      case 'DoesNotExist':
        if (has(r.key)) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}
