/**
 * The blocked key set answers as one flat sorted array would: ranks, ranges
 * and content after random inserts and removes that split and empty blocks.
 */

import { describe, expect, it } from 'vitest';
import { lowerBound } from '../keys';
import { SortedKeys } from './sorted-keys';

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

describe('SortedKeys', () => {
  it('matches a flat sorted array through inserts, removes, ranks and ranges', () => {
    const next = random(7);
    const keys = new SortedKeys();
    const model: string[] = [];
    for (let step = 0; step < 6000; step++) {
      const key = `/k/${Math.floor(next() * 3000)
        .toString()
        .padStart(4, '0')}`;
      const at = lowerBound(model, key);
      if (model[at] === key) {
        if (next() < 0.4) {
          keys.remove(key);
          model.splice(at, 1);
        }
      } else {
        keys.insert(key);
        model.splice(at, 0, key);
      }
      if (step % 500 === 0) {
        const probe = `/k/${Math.floor(next() * 3000)
          .toString()
          .padStart(4, '0')}`;
        expect(keys.rank(probe)).toBe(lowerBound(model, probe));
        expect(keys.rank(probe, true)).toBe(lowerBound(model, probe, true));
        const start = Math.floor(next() * model.length);
        const end = start + Math.floor(next() * 900);
        expect([...keys.range(start, end)]).toEqual(model.slice(start, end));
      }
    }
    expect(keys.size).toBe(model.length);
    expect(keys.all()).toEqual(model);
    expect(keys.rank('/a')).toBe(0);
    expect(keys.rank('/z')).toBe(model.length);
  });

  it('starts from a sorted list, and empties', () => {
    const keys = new SortedKeys();
    const sorted = Array.from({ length: 1500 }, (_, i) => `/k/${String(i).padStart(5, '0')}`);
    keys.reset(sorted);
    expect(keys.size).toBe(1500);
    expect([...keys.range(510, 515)]).toEqual(sorted.slice(510, 515));
    for (const key of sorted) keys.remove(key);
    expect(keys.size).toBe(0);
    expect(keys.all()).toEqual([]);
    expect([...keys.range(0, 10)]).toEqual([]);
    keys.insert('/k/x');
    expect(keys.all()).toEqual(['/k/x']);
  });
});
