/**
 * JSON value helpers the server uses on every request: structural equality,
 * deep copies, and removal of null-valued fields (the real server drops them
 * when it decodes into its types). Copies and comparisons of large values
 * also come in a sliced form (`deepCloneSliced`), which lets other requests
 * run while a wide object is copied (machinery/cooperative.ts).
 */

import { pauseDue, runSliced, sliceSpent, type Work } from './cooperative';

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], bb[i])) return false;
    return true;
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao).filter((k) => ao[k] !== undefined);
  const bk = Object.keys(bo).filter((k) => bo[k] !== undefined);
  if (ak.length !== bk.length) return false;
  for (const k of ak) if (!deepEqual(ao[k], bo[k])) return false;
  return true;
}

/**
 * `deepEqual` as a pass that may pause between the members of a wide value (100,000 keys); values up to
 * `slicedAbove` members are compared by `deepEqual` at once.
 */
export function* deepEqualWork(a: unknown, b: unknown): Work<boolean> {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (jsonSizeAtMost(a, slicedAbove)) return deepEqual(a, b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) return false;
    for (let i = 0; i < a.length; i++) {
      const x: unknown = a[i];
      const y: unknown = bb[i];
      if (x !== y && !(yield* memberEqualWork(x, y))) return false;
      if (pauseDue()) yield;
    }
    return true;
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  // Listing a wide object's keys is one native step each (tens of ms for 100,000): a pause may come between.
  const ak = Object.keys(ao);
  if (sliceSpent()) yield;
  const bk = Object.keys(bo);
  if (sliceSpent()) yield;
  // Members set to undefined do not count (as in `deepEqual`): every defined member of `a` equal in `b`, and
  // as many defined members in `b`, means the same members.
  let defined = 0;
  for (const k of ak) {
    const x = ao[k];
    if (x !== undefined) {
      defined++;
      const y = bo[k];
      if (x !== y && !(yield* memberEqualWork(x, y))) return false;
    }
    if (pauseDue()) yield;
  }
  for (const k of bk) {
    if (bo[k] !== undefined) defined--;
    if (pauseDue()) yield;
  }
  return defined === 0;
}

/**
 * Two members that are not the same value: scalars differ, small values are compared at once; a generator
 * per member of a wide value (100,000 of them for a ConfigMap's FieldsV1) was most of the pass's allocation.
 */
function* memberEqualWork(x: unknown, y: unknown): Work<boolean> {
  if (typeof x !== 'object' || x === null) return false;
  if (jsonSizeAtMost(x, slicedAbove)) return deepEqual(x, y);
  return yield* deepEqualWork(x, y);
}

/** `deepEqual`, letting other requests run while wide values are compared. */
export async function deepEqualSliced(a: unknown, b: unknown): Promise<boolean> {
  if (jsonSizeAtMost(a, slicedAbove)) return deepEqual(a, b);
  return runSliced(deepEqualWork(a, b));
}

/**
 * A copy of a JSON value. Copying plain objects and arrays by hand is about
 * ten times faster than `structuredClone` and several times faster than a
 * JSON round trip, and every write copies objects a few times; anything
 * that is not plain JSON (Dates, class instances) goes through
 * `structuredClone`.
 */
export function deepClone<T>(value: T): T {
  return copyJson(value) as T;
}

function copyJson(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = copyJson(value[i]);
    return out;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return structuredClone(value);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[key];
    // A JSON round trip drops undefined members; keep that behaviour.
    if (v !== undefined) out[key] = copyJson(v);
  }
  return out;
}

/**
 * Objects and lists known to have more than `slicedAbove` members of their own. Listing a wide object's
 * keys is one native pass over all of them (~ms for 100,000, many times that on a loaded core), which
 * the size checks before each copy, walk and encoding of a write would otherwise repeat; a value seen
 * wide once is taken as wide after. Should it shrink later, it is merely handled in slices, which is
 * correct for any size.
 */
const knownWide = new WeakSet<object>();

/** Records a value built with more than `slicedAbove` members (a sliced copy of a wide one). */
export function rememberWide(value: object): void {
  knownWide.add(value);
}

/** Whether a value was seen or built with more than `slicedAbove` members of its own. */
export function knownToBeWide(value: object): boolean {
  return knownWide.has(value);
}

/**
 * Whether a JSON value has at most `limit` members (object fields and list items, counted through every
 * level): a bounded look, so that deciding whether a value is worth slicing costs little either way.
 */
export function jsonSizeAtMost(value: unknown, limit: number): boolean {
  let left = limit;
  const visit = (v: unknown): boolean => {
    if (typeof v !== 'object' || v === null) return true;
    if (knownWide.has(v)) return false;
    if (Array.isArray(v)) {
      if (v.length > slicedAbove) knownWide.add(v);
      left -= v.length;
      if (left < 0) return false;
      for (const item of v) if (!visit(item)) return false;
      return true;
    }
    const o = v as Record<string, unknown>;
    // Object.keys, not for…in: for…in lists a wide object's every key (and its prototype's) before the first.
    const keys = Object.keys(o);
    if (keys.length > slicedAbove) knownWide.add(o);
    left -= keys.length;
    if (left < 0) return false;
    for (const k of keys) if (!visit(o[k])) return false;
    return true;
  };
  return visit(value);
}

/** Values up to this many members are copied at once; larger ones in slices. */
export const slicedAbove = 4096;

function* copyJsonWork(value: unknown): Work<unknown> {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      out[i] = typeof v === 'object' && v !== null ? yield* copyJsonWork(v) : v;
      if (pauseDue()) yield;
    }
    return out;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return structuredClone(value);
  const out: Record<string, unknown> = {};
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj);
  for (const key of keys) {
    const v = obj[key];
    if (v === undefined) continue;
    out[key] = typeof v === 'object' && v !== null ? yield* copyJsonWork(v) : v;
    if (pauseDue()) yield;
  }
  if (keys.length > slicedAbove) rememberWide(out);
  return out;
}

/** `deepClone`, letting other requests run while a large value is copied. */
export async function deepCloneSliced<T>(value: T): Promise<T> {
  if (jsonSizeAtMost(value, slicedAbove)) return deepClone(value);
  return (await runSliced(copyJsonWork(value))) as T;
}

/**
 * Removes fields whose value is null, recursively (list items are kept). Plain recursion, the same walk as
 * `dropNullsWork` without its generator per object (every create's body is walked).
 */
export function dropNulls(value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) if (typeof item === 'object' && item !== null) dropNulls(item);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  const obj = value as Record<string, unknown>;
  for (const k of Object.keys(obj)) {
    const v = obj[k];
    if (v === null) delete obj[k];
    else if (typeof v === 'object') dropNulls(v);
  }
}

/** `dropNulls`, letting other requests run while a wide value is walked. */
export async function dropNullsSliced(value: unknown): Promise<void> {
  if (jsonSizeAtMost(value, slicedAbove)) dropNulls(value);
  else await runSliced(dropNullsWork(value));
}

function* dropNullsWork(value: unknown): Work<void> {
  if (Array.isArray(value)) {
    for (const item of value) if (typeof item === 'object' && item !== null) yield* dropNullsWork(item);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  const obj = value as Record<string, unknown>;
  for (const k of Object.keys(obj)) {
    const v = obj[k];
    if (v === null) delete obj[k];
    else if (typeof v === 'object') yield* dropNullsWork(v);
    if (pauseDue()) yield;
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
