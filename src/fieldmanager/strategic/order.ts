/**
 * List helpers of the strategic merge: element types, the real server's
 * in-place deduplication of scalars, partitioning merged items into those
 * the patch names and those only the server has, and the ordering rule
 * that puts them back together — `$setElementOrder` first, then the order
 * in the patch, then the order of the live list — so that results match
 * the real server element for element.
 */

import { goValue } from '../../machinery/go-format';
import { isPlainObject } from '../../machinery/json';
import { badArgType, noListOfLists, noMergeKey, unexpected } from './errors';

export type JsonMap = Record<string, unknown>;
export type ElementKind = 'map' | 'scalar';

/** Go's dynamic type of a decoded JSON value, to compare element types. */
function goType(v: unknown): string {
  if (v === null || v === undefined) return 'nil';
  if (Array.isArray(v)) return 'slice';
  if (typeof v === 'object') return 'map';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  return typeof v;
}

/** The one element type of the given lists: all elements alike, and not lists. */
export function sliceElementKind(...lists: (readonly unknown[] | undefined)[]): ElementKind {
  let prev: string | undefined;
  for (const list of lists) {
    for (const v of list ?? []) {
      const t = goType(v);
      if (prev === undefined) {
        prev = t;
        if (t === 'slice') throw noListOfLists();
      } else if (prev !== t) {
        throw unexpected(`list element types are not identical: ${goValue(lists.map((l) => l ?? []))}`);
      }
    }
  }
  if (prev === undefined) throw unexpected('no elements in any of the given slices');
  return prev === 'map' ? 'map' : 'scalar';
}

/** Go's in-place deduplication: a repeat is overwritten by the last element, which reorders. */
export function deduplicateScalars(input: readonly unknown[]): unknown[] {
  const s = [...input];
  let length = s.length - 1;
  for (let i = 0; i < length; i++) {
    for (let j = i + 1; j <= length; j++) {
      if (s[i] === s[j]) {
        s[j] = s[length];
        s.length = length;
        length--;
        j--;
      }
    }
  }
  return s;
}

/** The item of `list` whose merge key equals `value`, with its index. */
export function findByMergeKey(
  list: readonly unknown[],
  mergeKey: string,
  value: unknown,
): { item: JsonMap; index: number } | undefined {
  for (let k = 0; k < list.length; k++) {
    const v = list[k];
    if (!isPlainObject(v)) throw unexpected(`value for key ${k} is not a map`);
    if (Object.hasOwn(v, mergeKey) && v[mergeKey] === value) return { item: v, index: k };
  }
  return undefined;
}

/** Splits `merged` into items present in `by` (by value, or by merge key) and the rest. */
export function partition(
  merged: readonly unknown[],
  by: readonly unknown[],
  mergeKey: string,
): [unknown[], unknown[]] {
  const named: unknown[] = [];
  const rest: unknown[] = [];
  if (mergeKey === '') {
    const present = new Set(by);
    for (const v of merged) (present.has(v) ? named : rest).push(v);
    return [named, rest];
  }
  for (const v of merged) {
    if (!isPlainObject(v)) throw badArgType('map', v);
    if (!Object.hasOwn(v, mergeKey)) throw noMergeKey(v, mergeKey);
    (findByMergeKey(by, mergeKey, v[mergeKey]) !== undefined ? named : rest).push(v);
  }
  return [named, rest];
}

function keyOf(item: unknown, mergeKey: string, kind: ElementKind): unknown {
  if (kind !== 'map') return item;
  return isPlainObject(item) ? (item[mergeKey] ?? null) : null;
}

/** Position of `item` in `list` (by merge key for maps), or -1. */
export function indexIn(
  list: readonly unknown[],
  item: unknown,
  mergeKey: string,
  kind: ElementKind,
): number {
  const wanted = keyOf(item, mergeKey, kind);
  for (let i = 0; i < list.length; i++) if (keyOf(list[i], mergeKey, kind) === wanted) return i;
  return -1;
}

function validateMergeKeys(mergeKey: string, ...lists: readonly unknown[][]): void {
  for (const list of lists) {
    for (const item of list) {
      if (!isPlainObject(item)) throw badArgType('map', item);
      if (!Object.hasOwn(item, mergeKey)) throw noMergeKey(item, mergeKey);
    }
  }
}

/** Items carrying `$patch: delete` move to the end (they are deletions the patch still lists). */
export function splitDeletions(list: readonly unknown[]): [unknown[], unknown[]] {
  const keep: unknown[] = [];
  const drop: unknown[] = [];
  for (const v of list) {
    if (!isPlainObject(v)) throw badArgType('map', v);
    (v.$patch === 'delete' ? drop : keep).push(v);
  }
  return [keep, drop];
}

/** Sorts `toSort` stably by position in `order`; items `order` lacks go last. */
function sortByOrder(
  toSort: readonly unknown[],
  order: readonly unknown[],
  mergeKey: string,
  kind: ElementKind,
): unknown[] {
  let items = [...toSort];
  let deletions: unknown[] = [];
  if (kind === 'map') {
    validateMergeKeys(mergeKey, items, [...order]);
    [items, deletions] = splitDeletions(items);
  }
  const rank = (v: unknown): number => {
    const i = indexIn(order, v, mergeKey, kind);
    return i < 0 ? Number.POSITIVE_INFINITY : i;
  };
  const ranked = items.map((v, i) => ({ v, r: rank(v), i }));
  ranked.sort((a, b) => (a.r === b.r ? a.i - b.i : a.r < b.r ? -1 : 1));
  return [...ranked.map((x) => x.v), ...deletions];
}

/**
 * Orders a merged list: patch items by `patchOrder`, server-only items by
 * `serverOrder`, then interleaved so a server-only item goes before a patch
 * item only when the live list had it before that item.
 */
export function normalizeElementOrder(
  patchItems: readonly unknown[],
  serverOnly: readonly unknown[],
  patchOrder: readonly unknown[],
  serverOrder: readonly unknown[],
  mergeKey: string,
  kind: ElementKind,
): unknown[] {
  const right = sortByOrder(patchItems, patchOrder, mergeKey, kind);
  const left = sortByOrder(serverOnly, serverOrder, mergeKey, kind);
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i >= left.length) out.push(right[j++]);
    else if (j >= right.length) out.push(left[i++]);
    else {
      const li = indexIn(serverOrder, left[i], mergeKey, kind);
      const ri = indexIn(serverOrder, right[j], mergeKey, kind);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]);
      else out.push(right[j++]);
    }
  }
  return out;
}
