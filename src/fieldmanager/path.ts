/**
 * Field paths: the elements that name one field of an object — a struct
 * field or map key (`f:`), an associative-list item by its key fields
 * (`k:{...}`), a set item by its value (`v:`), a list index (`i:`, only
 * ever read, never produced) — with the real server's total order,
 * equality, text form (`.spec.ports[port=80,protocol="TCP"]`) and the
 * serialized form used as FieldsV1 keys.
 */

import type { JsonValue } from '../api/meta';
import { goFloat, goQuote } from '../machinery/go-format';

export interface KeyField {
  name: string;
  value: JsonValue;
}

export type PathElement =
  | { readonly kind: 'field'; readonly name: string }
  /** Key fields sorted by name. */
  | { readonly kind: 'key'; readonly fields: readonly KeyField[] }
  | { readonly kind: 'value'; readonly value: JsonValue }
  | { readonly kind: 'index'; readonly index: number };

export type Path = readonly PathElement[];

export const fieldPE = (name: string): PathElement => ({ kind: 'field', name });

/** A key element; the fields are sorted by name as the real server keeps them. */
export function keyPE(fields: KeyField[]): PathElement {
  return { kind: 'key', fields: [...fields].sort((a, b) => compareStrings(a.name, b.name)) };
}

export const valuePE = (value: JsonValue): PathElement => ({ kind: 'value', value });

/** Byte order of the UTF-8 encodings (Go's string comparison), which is code point order. */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates encode code points above every BMP character, unlike their UTF-16 unit values.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

type ValueKind = 'number' | 'string' | 'boolean' | 'list' | 'map' | 'null';

function kindRank(v: JsonValue): [ValueKind, number] {
  if (typeof v === 'number') return ['number', 0];
  if (typeof v === 'string') return ['string', 1];
  if (typeof v === 'boolean') return ['boolean', 2];
  if (Array.isArray(v)) return ['list', 3];
  if (v === null) return ['null', 5];
  return ['map', 4];
}

/** The real server's total order of values: numbers, strings, booleans, lists, maps, null. */
export function compareValues(a: JsonValue, b: JsonValue): number {
  const [ka, ra] = kindRank(a);
  const [, rb] = kindRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ka) {
    case 'number':
      return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
    case 'string':
      return compareStrings(a as string, b as string);
    case 'boolean':
      return a === b ? 0 : a === false ? -1 : 1;
    case 'list': {
      const la = a as JsonValue[];
      const lb = b as JsonValue[];
      for (let i = 0; ; i++) {
        if (i >= la.length && i >= lb.length) return 0;
        if (i >= la.length) return -1;
        if (i >= lb.length) return 1;
        const c = compareValues(la[i] as JsonValue, lb[i] as JsonValue);
        if (c !== 0) return c;
      }
    }
    case 'map': {
      const ma = a as Record<string, JsonValue>;
      const mb = b as Record<string, JsonValue>;
      const ka2 = Object.keys(ma).sort(compareStrings);
      const kb2 = Object.keys(mb).sort(compareStrings);
      for (let i = 0; ; i++) {
        if (i >= ka2.length && i >= kb2.length) return 0;
        if (i >= ka2.length) return -1;
        if (i >= kb2.length) return 1;
        const c = compareStrings(ka2[i] as string, kb2[i] as string);
        if (c !== 0) return c;
        const d = compareValues(ma[ka2[i] as string] as JsonValue, mb[kb2[i] as string] as JsonValue);
        if (d !== 0) return d;
      }
    }
    default:
      return 0;
  }
}

function compareKeys(a: readonly KeyField[], b: readonly KeyField[]): number {
  for (let i = 0; ; i++) {
    if (i >= a.length && i >= b.length) return 0;
    if (i >= a.length) return -1;
    if (i >= b.length) return 1;
    const x = a[i] as KeyField;
    const y = b[i] as KeyField;
    const c = compareStrings(x.name, y.name);
    if (c !== 0) return c;
    const d = compareValues(x.value, y.value);
    if (d !== 0) return d;
  }
}

const peRank = { field: 0, key: 1, value: 2, index: 3 } as const;

/** Field names first, then keys, values, indexes; each ordered within its kind. */
export function comparePE(a: PathElement, b: PathElement): number {
  if (a.kind !== b.kind) return peRank[a.kind] < peRank[b.kind] ? -1 : 1;
  switch (a.kind) {
    case 'field':
      return compareStrings(a.name, (b as typeof a).name);
    case 'key':
      return compareKeys(a.fields, (b as typeof a).fields);
    case 'value':
      return compareValues(a.value, (b as typeof a).value);
    case 'index': {
      const bi = (b as typeof a).index;
      return a.index < bi ? -1 : a.index > bi ? 1 : 0;
    }
  }
}

export function equalPE(a: PathElement, b: PathElement): boolean {
  return comparePE(a, b) === 0;
}

/** Go's `%v` of a value inside a path's text form. */
function valueText(v: JsonValue): string {
  if (v === null) return 'null';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : goFloat(v);
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(valueText).join(',')}]`;
  return Object.entries(v)
    .map(([k, x]) => `${k}=${valueText(x)}`)
    .join('');
}

/** One element as the real server prints it: `.name`, `[k=v,...]`, `[=v]`, `[3]`. */
export function peString(pe: PathElement): string {
  switch (pe.kind) {
    case 'field':
      return `.${pe.name}`;
    case 'key':
      return `[${pe.fields.map((f) => `${f.name}=${valueText(f.value)}`).join(',')}]`;
    case 'value':
      return `[=${valueText(pe.value)}]`;
    case 'index':
      return `[${pe.index}]`;
  }
}

export function pathString(path: Path): string {
  return path.map(peString).join('');
}

/** JSON as Go's encoder writes it (`<`, `>`, `&` and the line separators escaped). */
export function goJson(value: JsonValue): string {
  const json = JSON.stringify(value);
  return htmlUnsafe.test(json)
    ? json.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    : json;
}

const htmlUnsafe = /[<>&\u2028\u2029]/;

/** The FieldsV1 key of an element: `f:name`, `k:{"name":"a"}`, `v:"x"`, `i:0`. */
export function serializePE(pe: PathElement): string {
  switch (pe.kind) {
    case 'field':
      return `f:${pe.name}`;
    case 'key':
      return `k:{${pe.fields.map((f) => `${goJson(f.name)}:${goJson(f.value)}`).join(',')}}`;
    case 'value':
      return `v:${goJson(pe.value)}`;
    case 'index':
      return `i:${pe.index}`;
  }
}

export class PathElementSyntaxError extends Error {}

/** Parses a FieldsV1 key; undefined for a prefix this version does not know (ignored, as the real server does). */
export function deserializePE(s: string): PathElement | undefined {
  if (s.length < 2) throw new PathElementSyntaxError('key must be 2 characters long:');
  if (s[1] !== ':') throw new PathElementSyntaxError(`missing colon: ${s}`);
  const body = s.slice(2);
  switch (s[0]) {
    case 'f':
      return fieldPE(body);
    case 'v':
      return valuePE(parseJson(body));
    case 'k': {
      const obj = parseJson(body);
      if (typeof obj !== 'object' || obj === null || Array.isArray(obj))
        throw new PathElementSyntaxError(`invalid key: ${s}`);
      return keyPE(Object.entries(obj).map(([name, value]) => ({ name, value })));
    }
    case 'i': {
      if (!/^-?[0-9]+$/.test(body)) throw new PathElementSyntaxError(`invalid index: ${s}`);
      return { kind: 'index', index: Number(body) };
    }
    default:
      return undefined;
  }
}

function parseJson(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch (e) {
    throw new PathElementSyntaxError(e instanceof Error ? e.message : String(e));
  }
}
