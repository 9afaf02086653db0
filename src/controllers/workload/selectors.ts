/**
 * Label selectors as controllers use them (`metav1.LabelSelectorAsSelector`,
 * the one evaluation in `machinery/scheduling/label-selector.ts` the
 * scheduler uses too): a missing selector selects nothing, an empty one
 * everything; an invalid one is reported and skipped. The map selectors of
 * ReplicationControllers and Services select by equality, and an empty map
 * selects nothing there.
 */

import { labelSelectorMatcher, type Matcher } from '../../machinery/scheduling/label-selector';
import type { LabelSelector } from './types';

export { labelSelectorMatcher, type Matcher };

const nothing: Matcher = () => false;

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
