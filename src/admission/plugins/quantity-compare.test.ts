/** Quantity ordering across suffixes and spellings. */

import { describe, expect, it } from 'vitest';
import { compareQuantities } from './quantity-compare';

describe('compareQuantities', () => {
  const cases: [unknown, unknown, number][] = [
    ['1Gi', '1073741824', 0],
    ['1Gi', '1024Mi', 0],
    ['1500Mi', '1Gi', 1],
    ['1G', '1Gi', -1],
    ['0.5Gi', '512Mi', 0],
    ['1e3', '1k', 0],
    ['100m', '0.1', 0],
    ['2', 1, 1],
    [undefined, '1', -1],
    ['garbage', '0', 0],
  ];
  for (const [a, b, want] of cases)
    it(`${String(a)} vs ${String(b)}`, () => expect(compareQuantities(a, b)).toBe(want));
});
