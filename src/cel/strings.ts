/**
 * The CEL strings extension as Kubernetes v1.27 offers it (cel-go
 * `ext.Strings`, version 0): `charAt`, `indexOf`, `lastIndexOf`,
 * `lowerAscii`, `upperAscii`, `replace`, `split`, `substring`, `trim`,
 * `join`. Indices count code points, as in Go, not UTF-16 units; the ASCII
 * case functions leave other letters alone; `trim` removes Unicode white
 * space as Go's `strings.TrimSpace` does.
 */

import { celError } from './errors';

function codePoints(s: string): string[] {
  return Array.from(s);
}

/** Fast path: strings without surrogates index the same in code points and UTF-16 units. */
function isBmp(s: string): boolean {
  return !/[\ud800-\udfff]/.test(s);
}

function index(i: bigint, length: number): number {
  const n = Number(i);
  if (n < 0 || n > length) throw celError(`index out of range: ${i}`);
  return n;
}

export function charAt(s: string, i: bigint): string {
  const chars = codePoints(s);
  return chars[index(i, chars.length)] ?? '';
}

export function indexOf(s: string, sub: string, offset = 0n): bigint {
  if (isBmp(s) && isBmp(sub)) {
    const start = index(offset, s.length);
    return BigInt(s.indexOf(sub, start));
  }
  const chars = codePoints(s);
  const needle = codePoints(sub);
  const start = index(offset, chars.length);
  for (let i = start; i + needle.length <= chars.length; i++) {
    if (needle.every((c, j) => chars[i + j] === c)) return BigInt(i);
  }
  return -1n;
}

export function lastIndexOf(s: string, sub: string, offset?: bigint): bigint {
  const chars = codePoints(s);
  const needle = codePoints(sub);
  const start = offset === undefined ? chars.length : index(offset, chars.length);
  if (needle.length === 0) return BigInt(start);
  for (let i = Math.min(start, chars.length - needle.length); i >= 0; i--) {
    if (needle.every((c, j) => chars[i + j] === c)) return BigInt(i);
  }
  return -1n;
}

export function substring(s: string, start: bigint, end?: bigint): string {
  const chars = isBmp(s) ? null : codePoints(s);
  const length = chars?.length ?? s.length;
  const from = index(start, length);
  const to = end === undefined ? length : index(end, length);
  if (to < from) throw celError(`invalid substring range. start: ${start}, end: ${end}`);
  return chars === null ? s.slice(from, to) : chars.slice(from, to).join('');
}

export function lowerAscii(s: string): string {
  return s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

export function upperAscii(s: string): string {
  return s.replace(/[a-z]+/g, (m) => m.toUpperCase());
}

const SPACE = '[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const TRIM = new RegExp(`^${SPACE}+|${SPACE}+$`, 'g');

export function trim(s: string): string {
  return s.replace(TRIM, '');
}

/** Go's `strings.Replace`: at most `n` replacements, all when `n` is negative. */
export function replace(s: string, from: string, to: string, n = -1n): string {
  if (n === 0n || from === to) return s;
  if (n < 0n && from !== '') return s.split(from).join(to);
  const chars = codePoints(s);
  let out = '';
  let done = 0n;
  if (from === '') {
    // An empty pattern matches before every code point and at the end.
    for (let i = 0; i <= chars.length; i++) {
      if (n < 0n || done < n) {
        out += to;
        done++;
      }
      out += chars[i] ?? '';
    }
    return out;
  }
  let rest = s;
  while (n < 0n || done < n) {
    const at = rest.indexOf(from);
    if (at < 0) break;
    out += rest.slice(0, at) + to;
    rest = rest.slice(at + from.length);
    done++;
  }
  return out + rest;
}

/** Go's `strings.SplitN`: `n` < 0 all parts, 0 none, > 0 at most n (the last holds the rest). */
export function split(s: string, sep: string, n = -1n): string[] {
  if (n === 0n) return [];
  const parts = sep === '' ? codePoints(s) : s.split(sep);
  if (n < 0n || BigInt(parts.length) <= n) return parts;
  const head = parts.slice(0, Number(n) - 1);
  head.push(parts.slice(Number(n) - 1).join(sep));
  return head;
}

export function join(list: unknown[], sep = ''): string {
  return list.map((v) => (typeof v === 'string' ? v : String(v))).join(sep);
}
