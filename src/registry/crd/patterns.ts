/**
 * Schema `pattern`s with RE2 semantics (Go's regexp, as the real server
 * compiles them): matched through `re2js` in linear time, never through
 * JavaScript's backtracking engine, so a user's pattern cannot stall the
 * server. Compiled patterns are cached; CRDs reuse the same few. RE2 is part
 * of the lazy CEL library: the CRD and custom resource strategies load it
 * before validating a schema that has a pattern.
 */

import { celLibrary, type RE2, type RE2JS } from '../../cel/engine';

const cache = new Map<string, RE2JS>();
const CACHE_LIMIT = 1000;

function compile(engine: RE2, pattern: string): RE2JS {
  let re = cache.get(pattern);
  if (re === undefined) {
    re = engine.compile(pattern);
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
    cache.set(pattern, re);
  }
  return re;
}

/** Go's `regexp.Compile` error text (`error parsing regexp: ...`), or undefined for a valid pattern. */
export function patternError(pattern: string): string | undefined {
  // Outside the `try`: a library used before it was loaded is our bug, not the pattern's error.
  const engine = celLibrary.get().RE2JS;
  try {
    compile(engine, pattern);
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/** Unanchored match, as JSON Schema's `pattern` is defined. Invalid patterns never match. */
export function matchesPattern(pattern: string, value: string): boolean {
  const engine = celLibrary.get().RE2JS;
  try {
    return compile(engine, pattern).test(value);
  } catch {
    return false;
  }
}
