/**
 * Copies of stored values for the in-memory backend. Stored values are JSON
 * in practice, and copying plain objects and arrays by hand is about ten
 * times faster than `structuredClone`, which dominated the cost of every read
 * and write. Anything else (Dates, Maps, class instances) goes through
 * `structuredClone`, and functions and symbols throw a `DataCloneError`, so
 * the copy is what IndexedDB would have stored. A large value is copied in
 * slices (`cloneValueSliced`), so that other requests run meanwhile.
 */

import { pauseDue, runSliced, type Work } from '../../machinery/cooperative';
import { jsonSizeAtMost, rememberWide, slicedAbove } from '../../machinery/json';

export function cloneValue<T>(value: T): T {
  return copy(value) as T;
}

/** `cloneValue`, letting other requests run while a large value is copied. */
export async function cloneValueSliced<T>(value: T): Promise<T> {
  if (jsonSizeAtMost(value, slicedAbove)) return cloneValue(value);
  return (await runSliced(copyWork(value))) as T;
}

function* copyWork(value: unknown): Work<unknown> {
  if (typeof value === 'function' || typeof value === 'symbol') {
    throw new DOMException(`${String(value)} could not be cloned.`, 'DataCloneError');
  }
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      out[i] = typeof v === 'object' && v !== null ? yield* copyWork(v) : copy(v);
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
    out[key] = typeof v === 'object' && v !== null ? yield* copyWork(v) : copy(v);
    if (pauseDue()) yield;
  }
  if (keys.length > slicedAbove) rememberWide(out);
  return out;
}

function copy(value: unknown): unknown {
  if (typeof value === 'function' || typeof value === 'symbol') {
    throw new DOMException(`${String(value)} could not be cloned.`, 'DataCloneError');
  }
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = copy(value[i]);
    return out;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return structuredClone(value);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) out[key] = copy((value as Record<string, unknown>)[key]);
  return out;
}
