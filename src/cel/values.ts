/**
 * CEL value semantics the engine leaves out and Kubernetes data needs:
 * heterogeneous numeric equality and ordering (`1 == 1.0` on dynamic values,
 * int against uint against double), deep equality of objects, maps and lists,
 * lists that carry set or map semantics from `x-orch-list-type` (equality
 * ignoring order, concatenation as union or keyed merge), and `size()` as the
 * cost model counts it. Values: int `bigint`, uint `UnsignedInt`, double
 * `number`, bytes `Uint8Array`, list `Array`, map a plain object or `Map`,
 * object an instance of a generated class (see `types.ts`), timestamp `Date`,
 * duration `Duration`, type a library `Type`.
 */

import { isDuration, isUnsignedInt } from './engine';
import { compareTime, isTimestamp } from './time';

const LIST_KIND = Symbol('orch.cel.listKind');

/** How a list compares and concatenates: `set` (unique values) or `map` (unique by `keys`). */
export type ListKind = { type: 'set' } | { type: 'map'; keys: string[] };
type KindedList = unknown[] & { [LIST_KIND]?: ListKind };

export function withListKind<T extends unknown[]>(list: T, kind: ListKind | undefined): T {
  if (kind !== undefined) Object.defineProperty(list, LIST_KIND, { value: kind, enumerable: false });
  return list;
}

export function listKind(list: unknown): ListKind | undefined {
  return Array.isArray(list) ? (list as KindedList)[LIST_KIND] : undefined;
}

/** Marks objects generated for schema object types, so equality can compare them field by field. */
export const OBJECT_TYPE = Symbol('orch.cel.objectType');

export function isObjectValue(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && OBJECT_TYPE in value;
}

export function isMapValue(value: unknown): value is Record<string, unknown> | Map<unknown, unknown> {
  if (value instanceof Map) return true;
  if (value === null || typeof value !== 'object') return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function numeric(value: unknown): number | bigint | undefined {
  if (typeof value === 'bigint' || typeof value === 'number') return value;
  if (isUnsignedInt(value)) return value.value;
  return undefined;
}

/** Total order of two numbers of any CEL numeric type; NaN compares as unordered (undefined). */
export function compareNumbers(a: number | bigint, b: number | bigint): number | undefined {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  // Like cel-go, a mixed int/double comparison converts the int to double.
  const x = Number(a);
  const y = Number(b);
  if (Number.isNaN(x) || Number.isNaN(y)) return undefined;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** CEL equality (heterogeneous: values of different types are unequal, numbers compare by value). */
export function celEquals(a: unknown, b: unknown): boolean {
  if (a === b) return typeof a !== 'number' || !Number.isNaN(a);
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined || nb !== undefined)
    return na !== undefined && nb !== undefined && compareNumbers(na, nb) === 0;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (a instanceof Uint8Array || b instanceof Uint8Array) return bytesEqual(a, b);
  if (isTimestamp(a) || isTimestamp(b)) return isTimestamp(a) && isTimestamp(b) && compareTime(a, b) === 0;
  if (isDuration(a) || isDuration(b)) return isDuration(a) && isDuration(b) && compareTime(a, b) === 0;
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && listsEqual(a, b);
  if (isObjectValue(a) || isObjectValue(b)) return isObjectValue(a) && isObjectValue(b) && objectsEqual(a, b);
  if (isMapValue(a) && isMapValue(b)) return mapsEqual(a, b);
  return typeName(a) !== undefined && typeName(a) === typeName(b);
}

function typeName(v: object): string | undefined {
  const name = (v as { name?: unknown }).name;
  return typeof name === 'string' && String(v).startsWith('Type<') ? name : undefined;
}

function bytesEqual(a: object, b: object): boolean {
  if (!(a instanceof Uint8Array && b instanceof Uint8Array) || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function listsEqual(a: unknown[], b: unknown[]): boolean {
  if (a.length !== b.length) return false;
  const kind = listKind(a) ?? listKind(b);
  if (kind === undefined) return a.every((x, i) => celEquals(x, b[i]));
  // Set and map lists hold unique elements, so equal sizes plus containment means equal.
  if (kind.type === 'set') return a.every((x) => b.some((y) => celEquals(x, y)));
  return a.every((x) => {
    const match = b.find((y) => sameMapKey(kind.keys, x, y));
    return match !== undefined && celEquals(x, match);
  });
}

function sameMapKey(keys: string[], x: unknown, y: unknown): boolean {
  return keys.every((k) => celEquals(field(x, k), field(y, k)));
}

function field(obj: unknown, name: string): unknown {
  return obj !== null && typeof obj === 'object' ? (obj as Record<string, unknown>)[name] : undefined;
}

function objectsEqual(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  if ((a as Record<symbol, unknown>)[OBJECT_TYPE] !== (b as Record<symbol, unknown>)[OBJECT_TYPE])
    return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => Object.hasOwn(b, k) && celEquals(a[k], b[k]));
}

function mapEntries(m: Record<string, unknown> | Map<unknown, unknown>): [unknown, unknown][] {
  return m instanceof Map ? [...m.entries()] : Object.entries(m);
}

function mapsEqual(
  a: Record<string, unknown> | Map<unknown, unknown>,
  b: Record<string, unknown> | Map<unknown, unknown>,
): boolean {
  const ea = mapEntries(a);
  const eb = mapEntries(b);
  if (ea.length !== eb.length) return false;
  return ea.every(([k, v]) => {
    const match = eb.find(([k2]) => celEquals(k, k2));
    return match !== undefined && celEquals(v, match[1]);
  });
}

/** CEL `<`-family comparison for the orderable types; undefined when the pair has no ordering. */
export function celCompare(a: unknown, b: unknown): number | undefined {
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined && nb !== undefined) return compareNumbers(na, nb);
  if (typeof a === 'string' && typeof b === 'string') return compareCodePoints(a, b);
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
  if (a instanceof Uint8Array && b instanceof Uint8Array) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
    return a.length - b.length === 0 ? 0 : a.length < b.length ? -1 : 1;
  }
  if ((isTimestamp(a) && isTimestamp(b)) || (isDuration(a) && isDuration(b))) return compareTime(a, b);
  return undefined;
}

/** Strings order by code point (UTF-16 order differs only for astral characters). */
function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length < b.length ? -1 : 1;
}

/** `left + right` for lists: plain concatenation, or union / keyed merge when `left` is a set or map list. */
export function concatLists(left: unknown[], right: unknown[]): unknown[] {
  const kind = listKind(left);
  if (kind === undefined) return [...left, ...right];
  if (kind.type === 'set')
    return withListKind([...left, ...right.filter((r) => !left.some((l) => celEquals(l, r)))], kind);
  const merged = left.map((l) => right.find((r) => sameMapKey(kind.keys, l, r)) ?? l);
  for (const r of right) if (!left.some((l) => sameMapKey(kind.keys, l, r))) merged.push(r);
  return withListKind(merged, kind);
}

/** `x in list` with CEL equality. */
export function listContains(list: unknown[], value: unknown): boolean {
  return list.some((item) => celEquals(item, value));
}

/** `key in map`: keys compare with CEL equality, so `1 in {1u: ..}` holds. */
export function mapHasKey(map: Record<string, unknown> | Map<unknown, unknown>, key: unknown): boolean {
  if (map instanceof Map) {
    if (map.has(key)) return true;
    return numeric(key) !== undefined && [...map.keys()].some((k) => celEquals(k, key));
  }
  return typeof key === 'string' && Object.hasOwn(map, key);
}

/** Size as CEL's `size()` and the cost model count it: code points, bytes, entries; 1 for anything else. */
export function sizeOf(value: unknown): number {
  if (typeof value === 'string') return codePointLength(value);
  if (value instanceof Uint8Array || Array.isArray(value)) return value.length;
  if (value instanceof Map) return value.size;
  if (isObjectValue(value) || isMapValue(value)) return Object.keys(value).length;
  return 1;
}

export function codePointLength(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}
