/**
 * The sliced structural comparison (`deepEqualWork`, used on wide objects)
 * agrees with `deepEqual` on every pair, wide ones included: members set
 * to undefined do not count, scalars, nested maps and lists are compared
 * by value.
 */

import { describe, expect, it } from 'vitest';
import { runNow } from './cooperative';
import { deepEqual, deepEqualWork, dropNulls, dropNullsSliced } from './json';

const wide = (n: number, change?: (o: Record<string, unknown>) => void): Record<string, unknown> => {
  const o: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) o[`k${i}`] = i % 2 === 0 ? 'v' : { [`f:k${i}`]: {} };
  change?.(o);
  return o;
};

describe('deepEqualWork', () => {
  const n = 5000;
  const cases: [string, unknown, unknown, boolean][] = [
    ['the same wide map', wide(n), wide(n), true],
    ['one scalar differs', wide(n), wide(n, (o) => (o['k4000'] = 'w')), false],
    ['one nested map differs', wide(n), wide(n, (o) => (o['k4001'] = { 'f:k4001': { '.': {} } })), false],
    ['an extra member', wide(n), wide(n, (o) => (o['extra'] = 'v')), false],
    ['a member missing', wide(n), wide(n, (o) => delete o['k10']), false],
    ['an undefined member on one side', wide(n), wide(n, (o) => (o['extra'] = undefined)), true],
    [
      'undefined for a missing member',
      wide(n, (o) => delete o['k10']),
      wide(n, (o) => (o['k10'] = undefined)),
      true,
    ],
    ['a wide list', Array.from({ length: n }, (_, i) => i), Array.from({ length: n }, (_, i) => i), true],
    [
      'a wide list with a change',
      Array.from({ length: n }, (_, i) => ({ i })),
      Array.from({ length: n }, (_, i) => ({ i: i === 7 ? 8 : i })),
      false,
    ],
    ['a list and a map', Array.from({ length: n }, () => 1), wide(n), false],
  ];
  for (const [name, a, b, equal] of cases)
    it(`${name}: ${equal ? 'equal' : 'not equal'}, as deepEqual says`, () => {
      expect(deepEqual(a, b)).toBe(equal);
      expect(runNow(deepEqualWork(a, b))).toBe(equal);
      expect(runNow(deepEqualWork(b, a))).toBe(equal);
    });
});

describe('dropNulls', () => {
  const value = (): unknown => ({
    a: null,
    b: { c: null, d: [null, { e: null, f: 1 }, [{ g: null }]], h: '' },
    i: [null],
    j: { k: { l: null } },
  });
  const dropped = { b: { d: [null, { f: 1 }, [{}]], h: '' }, i: [null], j: { k: {} } };

  it('removes null fields at every depth and keeps null list items, at once or in slices', async () => {
    const once = value();
    dropNulls(once);
    expect(once).toEqual(dropped);
    const sliced = value();
    await dropNullsSliced(sliced);
    expect(sliced).toEqual(dropped);
    const wideOne = wide(5000, (o) => (o['k7'] = null));
    const wideTwo = wide(5000, (o) => (o['k7'] = null));
    dropNulls(wideOne);
    await dropNullsSliced(wideTwo);
    expect(wideOne).toEqual(wideTwo);
    expect('k7' in wideOne).toBe(false);
  });
});
