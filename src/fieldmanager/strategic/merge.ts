/**
 * The strategic merge itself, as the real server runs it for a PATCH: maps
 * merge key by key, lists merge by their `patchMergeKey` when the schema
 * says `patchStrategy: merge` (lists of scalars become sets) and are
 * replaced otherwise, null deletes, and the directives `$patch`,
 * `$retainKeys`, `$setElementOrder/<list>` and
 * `$deleteFromPrimitiveList/<list>` are honoured. Values the original lacks
 * are taken from the patch as they are. Mutates its arguments.
 */

import { isPlainObject } from '../../machinery/json';
import { goValue } from '../../machinery/go-format';
import { badArgType, badPatch, badPatchFormat, badPatchType, noMergeKey, unexpected } from './errors';
import { PatchSchema, retainKeysStrategy } from './patch-meta';
import {
  deduplicateScalars,
  findByMergeKey,
  normalizeElementOrder,
  partition,
  sliceElementKind,
  splitDeletions,
  type JsonMap,
} from './order';

const directiveMarker = '$patch';
const retainKeysDirective = '$retainKeys';
const deleteFromPrimitiveListPrefix = '$deleteFromPrimitiveList';
const setElementOrderPrefix = '$setElementOrder';

function goKind(v: unknown): string {
  if (v === null || v === undefined) return 'nil';
  if (Array.isArray(v)) return 'slice';
  if (typeof v === 'object') return 'map';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  return typeof v;
}

/** `$setElementOrder/containers` → `containers`; a malformed directive key is a 400. */
function directiveTarget(key: string, prefix: string, error: string): string {
  const slash = key.indexOf('/');
  if (slash < 0 || key.slice(0, slash) !== prefix) throw badPatch(error);
  return key.slice(slash + 1);
}

export function mergeMap(original: JsonMap | null, patch: JsonMap, schema: PatchSchema): JsonMap {
  if (Object.hasOwn(patch, directiveMarker)) {
    const directive = patch[directiveMarker];
    if (directive === 'replace') {
      delete patch[directiveMarker];
      return patch;
    }
    if (directive === 'delete') return {};
    throw badPatchType(directive, patch);
  }
  const target = original ?? {};
  applyRetainKeys(target, patch);
  mergeOrderedLists(target, patch, schema);

  for (const rawKey of Object.keys(patch)) {
    const patchV = patch[rawKey];
    let k = rawKey;
    const isDeleteList = rawKey.startsWith(deleteFromPrimitiveListPrefix);
    if (isDeleteList)
      k = directiveTarget(rawKey, deleteFromPrimitiveListPrefix, badPatchFormat.primitiveList);

    if (patchV === null) {
      delete target[k];
      continue;
    }
    if (!Object.hasOwn(target, k) || goKind(target[k]) !== goKind(patchV)) {
      if (!isDeleteList) target[k] = patchV;
      continue;
    }
    const originalV = target[k];
    if (isPlainObject(originalV) && isPlainObject(patchV)) {
      const { schema: sub, meta } = schema.forStruct(k);
      const { strategy } = retainKeysStrategy(meta.strategies);
      target[k] = strategy === 'replace' ? patchV : mergeMap(originalV, patchV, sub);
    } else if (Array.isArray(originalV) && Array.isArray(patchV)) {
      const { schema: sub, meta } = schema.forSlice(k);
      const { strategy } = retainKeysStrategy(meta.strategies);
      target[k] =
        strategy === 'merge' ? mergeSlice(originalV, patchV, sub, meta.mergeKey, isDeleteList) : patchV;
    } else {
      target[k] = patchV;
    }
  }
  return target;
}

/** `$retainKeys`: every key the patch sets must be listed; keys of the original not listed go. */
function applyRetainKeys(original: JsonMap, patch: JsonMap): void {
  if (!Object.hasOwn(patch, retainKeysDirective)) return;
  const list = patch[retainKeysDirective];
  delete patch[retainKeysDirective];
  if (!Array.isArray(list)) throw badPatch(badPatchFormat.retainKeys);
  const keep = new Set<unknown>(list);
  for (const [k, v] of Object.entries(patch)) {
    if (v === null || k.startsWith(deleteFromPrimitiveListPrefix) || k.startsWith(setElementOrderPrefix))
      continue;
    if (!keep.has(k)) throw badPatch(badPatchFormat.retainKeys);
  }
  for (const k of Object.keys(original)) if (!keep.has(k)) delete original[k];
}

/** `$setElementOrder/<list>`: merges that list now and orders it by the directive. */
function mergeOrderedLists(original: JsonMap, patch: JsonMap, schema: PatchSchema): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(setElementOrderPrefix)) continue;
    const order = patch[key];
    delete patch[key];
    if (!Array.isArray(order)) throw badArgType('list', order);
    const field = directiveTarget(key, setElementOrderPrefix, badPatchFormat.setElementOrder);
    const foundOriginal = Object.hasOwn(original, field);
    const foundPatch = Object.hasOwn(patch, field);
    const originalList = original[field];
    const patchList = patch[field];
    if (foundOriginal && !Array.isArray(originalList)) throw badArgType('list', originalList);
    if (foundPatch && !Array.isArray(patchList)) throw badArgType('list', patchList);
    const originalItems = foundOriginal ? (originalList as unknown[]) : undefined;
    const patchItems = foundPatch ? (patchList as unknown[]) : undefined;
    const { schema: sub, meta } = schema.forSlice(field);
    const { strategy } = retainKeysStrategy(meta.strategies);
    validateAgainstOrder(patchItems ?? [], order, meta.mergeKey);

    let merged: unknown[];
    if (originalItems !== undefined && patchItems === undefined) merged = originalItems;
    else if (originalItems === undefined && patchItems !== undefined) merged = patchItems;
    else if (originalItems !== undefined && patchItems !== undefined)
      merged =
        strategy === 'merge' ? mergeSlice(originalItems, patchItems, sub, meta.mergeKey, false) : patchItems;
    else continue;

    const [named, serverOnly] = partition(merged, order, meta.mergeKey);
    const kind = sliceElementKind(originalItems, patchItems);
    original[field] = normalizeElementOrder(
      named,
      serverOnly,
      order,
      originalItems ?? [],
      meta.mergeKey,
      kind,
    );
    delete patch[field];
  }
}

/** The patch list's items (deletions aside) must appear in the `$setElementOrder` list, in its order. */
function validateAgainstOrder(
  patchList: readonly unknown[],
  order: readonly unknown[],
  mergeKey: string,
): void {
  if (order.length === 0 || patchList.length === 0) return;
  const items = mergeKey === '' ? [...patchList] : splitDeletions(patchList)[0];
  const sameKey = (a: unknown, b: unknown): boolean => {
    if (mergeKey === '') return a === b;
    if (!isPlainObject(a)) throw badArgType('map', a);
    if (!isPlainObject(b)) throw badArgType('map', b);
    if (!Object.hasOwn(a, mergeKey)) throw noMergeKey(a, mergeKey);
    if (!Object.hasOwn(b, mergeKey)) throw noMergeKey(b, mergeKey);
    return a[mergeKey] === b[mergeKey];
  };
  let p = 0;
  let o = 0;
  while (p < items.length && o < order.length) {
    if (isPlainObject(items[p]) && Object.hasOwn(items[p] as JsonMap, directiveMarker)) {
      p++;
      continue;
    }
    if (sameKey(items[p], order[o])) p++;
    o++;
  }
  if (p < items.length && o >= order.length) {
    throw unexpected(
      `The order in patch list:\n${goValue(patchList)}\n doesn't match ${setElementOrderPrefix} list:\n${goValue(order)}\n`,
    );
  }
}

/** Merges a list whose strategy is `merge`. */
export function mergeSlice(
  original: unknown[],
  patch: unknown[],
  element: PatchSchema,
  mergeKey: string,
  isDeleteList: boolean,
): unknown[] {
  if (original.length === 0 && patch.length === 0) return original;
  const kind = sliceElementKind(original, patch);
  let merged: unknown[];
  let live = original;
  let wanted: unknown[] = patch;
  if (kind !== 'map') {
    if (isDeleteList) {
      const drop = new Set(patch);
      return original.filter((v) => !drop.has(v));
    }
    merged = deduplicateScalars([...original, ...patch]);
  } else {
    if (mergeKey === '') throw unexpected(`cannot merge lists without merge key for ${element.kindName()}`);
    [live, wanted] = applyListDirectives(original, patch, mergeKey);
    merged = [...live];
    for (const v of wanted as JsonMap[]) {
      if (!Object.hasOwn(v, mergeKey)) throw noMergeKey(v, mergeKey);
      const found = findByMergeKey(merged, mergeKey, v[mergeKey]);
      if (found !== undefined) merged[found.index] = mergeMap(found.item, v, element);
      else merged.push(v);
    }
  }
  const [named, serverOnly] = partition(merged, wanted, mergeKey);
  return normalizeElementOrder(named, serverOnly, wanted, live, mergeKey, kind);
}

/** List items carrying `$patch`: `delete` removes by merge key, `replace` makes the rest of the patch the list. */
function applyListDirectives(
  original: unknown[],
  patch: unknown[],
  mergeKey: string,
): [unknown[], unknown[]] {
  const plain: unknown[] = [];
  let live = original;
  let replace = false;
  for (const v of patch as JsonMap[]) {
    if (!Object.hasOwn(v, directiveMarker)) {
      plain.push(v);
      continue;
    }
    const directive = v[directiveMarker];
    if (directive === 'delete') {
      if (!Object.hasOwn(v, mergeKey)) throw noMergeKey(v, mergeKey);
      const value = v[mergeKey];
      while (findByMergeKey(live, mergeKey, value) !== undefined)
        live = live.filter((item) => !(isPlainObject(item) && item[mergeKey] === value));
    } else if (directive === 'replace') {
      replace = true;
    } else if (directive === 'merge') {
      throw unexpected('merging lists cannot yet be specified in the patch');
    } else {
      throw badPatchType(directive, v);
    }
  }
  return replace ? [plain, []] : [live, plain];
}

export { PatchSchema };
