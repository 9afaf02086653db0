/**
 * Deep copies that are deep-frozen, made in one pass: how objects enter an
 * informer's cache. The copy keeps the cache apart from the change record
 * every other commit listener (watch streams) shares; the freeze makes a
 * consumer that mutates a cached object fail at once, where it would
 * otherwise corrupt what every other consumer reads.
 */

export function frozenCopy<T>(value: T): T {
  return copy(value) as T;
}

function copy(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = copy(value[i]);
    return Object.freeze(out);
  }
  const proto: unknown = Object.getPrototypeOf(value);
  // Stored objects are JSON; anything else (a Date) is copied whole and frozen only at its top.
  if (proto !== Object.prototype && proto !== null) return Object.freeze(structuredClone(value));
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[key];
    if (v !== undefined) out[key] = copy(v);
  }
  return Object.freeze(out);
}
