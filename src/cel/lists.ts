/**
 * The Kubernetes list library: `isSorted`, `sum`, `min`, `max`, `indexOf`,
 * `lastIndexOf`. Ordering is CEL's (numbers across types, strings by code
 * point, bytes, durations, timestamps); `sum` adds ints with overflow
 * checking, doubles, uints and durations; `min`/`max` of an empty list is an
 * error, `sum` of one is the zero of the element type.
 */

import { celError } from './errors';
import { newUnsignedInt, type Duration, type UnsignedInt } from './engine';
import { MAX_INT, MIN_INT } from './operators';
import { durationFromNanos, durationNanos } from './time';
import { celCompare, celEquals } from './values';

function compare(a: unknown, b: unknown): number {
  const c = celCompare(a, b);
  if (c === undefined) throw celError('no such overload: values are not comparable');
  return c;
}

export function isSorted(list: unknown[]): boolean {
  for (let i = 1; i < list.length; i++) if (compare(list[i - 1], list[i]) > 0) return false;
  return true;
}

export function extreme(list: unknown[], which: 'min' | 'max'): unknown {
  if (list.length === 0) throw celError(`${which} called on empty list`);
  let best = list[0];
  for (const v of list.slice(1)) {
    const c = compare(v, best);
    if (which === 'min' ? c < 0 : c > 0) best = v;
  }
  return best;
}

export type SumKind = 'int' | 'uint' | 'double' | 'duration';

export function sum(list: unknown[], kind: SumKind): unknown {
  switch (kind) {
    case 'int': {
      let total = 0n;
      for (const v of list) {
        total += v as bigint;
        if (total > MAX_INT || total < MIN_INT) throw celError('integer overflow');
      }
      return total;
    }
    case 'uint': {
      let total = 0n;
      for (const v of list) total += (v as UnsignedInt).value;
      return newUnsignedInt(total);
    }
    case 'double':
      return list.reduce((t: number, v) => t + (v as number), 0);
    case 'duration':
      return durationFromNanos(list.reduce((t: bigint, v) => t + durationNanos(v as Duration), 0n));
  }
}

export function indexOfElement(list: unknown[], value: unknown): bigint {
  return BigInt(list.findIndex((v) => celEquals(v, value)));
}

export function lastIndexOfElement(list: unknown[], value: unknown): bigint {
  for (let i = list.length - 1; i >= 0; i--) if (celEquals(list[i], value)) return BigInt(i);
  return -1n;
}
