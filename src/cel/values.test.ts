import { describe, expect, it } from 'vitest';
import { UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { celLibrary } from './engine';
import { parseDuration, parseTimestamp } from './time';
import { celCompare, celEquals, concatLists, listContains, mapHasKey, sizeOf, withListKind } from './values';

// The unit tests call the synchronous core directly; the server loads the library at its entry points.
await celLibrary.load();

describe('CEL equality', () => {
  it('compares numbers across int, uint and double', () => {
    expect(celEquals(1n, 1)).toBe(true);
    expect(celEquals(new UnsignedInt(2n), 2n)).toBe(true);
    expect(celEquals(2.5, 2n)).toBe(false);
    expect(celEquals(Number.NaN, Number.NaN)).toBe(false);
    expect(celEquals('1', 1n)).toBe(false);
  });

  it('compares lists in order, maps by entries, bytes and time by value', () => {
    expect(celEquals([1n, 2.0], [1, 2n])).toBe(true);
    expect(celEquals([1n, 2n], [2n, 1n])).toBe(false);
    expect(celEquals({ a: 1n }, new Map([['a', 1]]))).toBe(true);
    expect(celEquals(new Uint8Array([1, 2]), new Uint8Array([1, 2]))).toBe(true);
    expect(
      celEquals(parseTimestamp('2024-01-01T00:00:00.000000001Z'), parseTimestamp('2024-01-01T00:00:00Z')),
    ).toBe(false);
    expect(celEquals(parseDuration('60s'), parseDuration('1m'))).toBe(true);
  });

  it('treats set and map lists as unordered', () => {
    const set = (xs: unknown[]): unknown[] => withListKind(xs, { type: 'set' });
    expect(celEquals(set(['a', 'b']), ['b', 'a'])).toBe(true);
    const map = (xs: unknown[]): unknown[] => withListKind(xs, { type: 'map', keys: ['k'] });
    expect(
      celEquals(
        map([
          { k: 'a', v: 1n },
          { k: 'b', v: 2n },
        ]),
        [
          { k: 'b', v: 2n },
          { k: 'a', v: 1n },
        ],
      ),
    ).toBe(true);
    expect(celEquals(map([{ k: 'a', v: 1n }]), [{ k: 'a', v: 2n }])).toBe(false);
  });
});

describe('list concatenation', () => {
  it('is a union for set lists, keeping the left order', () => {
    const left = withListKind(['b', 'a'], { type: 'set' });
    expect(concatLists(left, ['a', 'z'])).toEqual(['b', 'a', 'z']);
  });

  it('is a keyed merge for map lists, right values winning', () => {
    const left = withListKind(
      [
        { k: 'a', v: 1n },
        { k: 'b', v: 2n },
      ],
      { type: 'map', keys: ['k'] },
    );
    expect(
      concatLists(left, [
        { k: 'b', v: 9n },
        { k: 'c', v: 3n },
      ]),
    ).toEqual([
      { k: 'a', v: 1n },
      { k: 'b', v: 9n },
      { k: 'c', v: 3n },
    ]);
  });

  it('appends for atomic lists', () => {
    expect(concatLists(['a'], ['a'])).toEqual(['a', 'a']);
  });
});

describe('ordering, membership, size', () => {
  it('orders numbers across types, strings by code point, bytes', () => {
    expect(celCompare(1n, 1.5)).toBe(-1);
    expect(celCompare('\u{10000}', '\uffff')).toBe(1);
    expect(celCompare(new Uint8Array([1]), new Uint8Array([1, 0]))).toBe(-1);
    expect(celCompare('a', 1n)).toBeUndefined();
  });

  it('finds numeric keys and elements by value', () => {
    expect(listContains([1n, 2n], 2.0)).toBe(true);
    expect(mapHasKey(new Map([[new UnsignedInt(1n), 'x']]), 1n)).toBe(true);
    expect(mapHasKey({ a: 1 }, 'b')).toBe(false);
  });

  it('measures strings in code points', () => {
    expect(sizeOf('a😀')).toBe(2);
    expect(sizeOf([1, 2, 3])).toBe(3);
    expect(sizeOf(5n)).toBe(1);
  });
});
