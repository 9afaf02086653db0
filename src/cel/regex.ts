/**
 * Regular expressions with RE2 semantics through `re2js` (part of the lazy
 * CEL library, see engine.ts): linear-time
 * matching (no backtracking, so `(a+)+$` on a long input cannot hang the
 * server) and RE2 syntax, as CEL and Kubernetes define `matches`, `find` and
 * `findAll`. Compiled patterns are cached, since rules reuse the same few.
 */

import { library, type RE2JS } from './engine';
import { celError } from './errors';

const cache = new Map<string, RE2JS>();
const CACHE_LIMIT = 500;

/** Compiles (cached) or throws a CEL error worded like Go's regexp package. */
export function compileRegex(pattern: string): RE2JS {
  let re = cache.get(pattern);
  if (re === undefined) {
    // Outside the `try`: a library used before it was loaded is our bug, not the pattern's error.
    const { RE2JS: engine } = library();
    try {
      re = engine.compile(pattern);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      throw celError(
        message.startsWith('error parsing regexp') ? message : `error parsing regexp: ${message}`,
      );
    }
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
    cache.set(pattern, re);
  }
  return re;
}

/** The compile error of a pattern, or undefined when it is valid (for checking constant patterns at compile time). */
export function regexError(pattern: string): string | undefined {
  try {
    compileRegex(pattern);
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/** `s.matches(re)`: true when the pattern matches any substring (RE2 partial match). */
export function matches(s: string, pattern: string): boolean {
  return compileRegex(pattern).test(s);
}

/** `s.find(re)`: the first match, or the empty string. */
export function find(s: string, pattern: string): string {
  const m = compileRegex(pattern).matcher(s);
  return m.find() ? (m.group(0) ?? '') : '';
}

/** `s.findAll(re[, limit])`: all non-overlapping matches; a negative limit means all. */
export function findAll(s: string, pattern: string, limit = -1n): string[] {
  const out: string[] = [];
  if (limit === 0n) return out;
  const m = compileRegex(pattern).matcher(s);
  while (m.find()) {
    out.push(m.group(0) ?? '');
    if (limit > 0n && BigInt(out.length) >= limit) break;
  }
  return out;
}
