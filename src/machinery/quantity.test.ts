/** Quantity parsing and canonical printing, against values the real `resource.Quantity` gives. */

import { describe, expect, it } from 'vitest';
import {
  add,
  compare,
  formatQuantity,
  milliValue,
  parseQuantity,
  prettyPrint,
  count,
  zero,
} from './quantity';

describe('parseQuantity / formatQuantity', () => {
  it.each([
    ['100m', '100m'],
    ['0.1', '100m'],
    ['1', '1'],
    ['1000m', '1'],
    ['1500m', '1500m'],
    ['1.5', '1500m'],
    ['2k', '2k'],
    ['2000', '2k'],
    ['128Mi', '128Mi'],
    ['1Gi', '1Gi'],
    ['1.5Gi', '1536Mi'],
    ['1024', '1024'],
    ['0.5Ki', '512'],
    ['1e3', '1e3'],
    ['1E6', '1e6'],
    ['10n', '10n'],
    ['0', '0'],
    ['-100m', '-100m'],
    [3, '3'],
  ])('%s prints as %s', (input, printed) => {
    const q = parseQuantity(input);
    expect(q).toBeDefined();
    expect(formatQuantity(q!)).toBe(printed);
  });

  it.each(['', 'abc', '1.2.3', '1Qi', '--1', 'm'])('%s is not a quantity', (input) => {
    expect(parseQuantity(input)).toBeUndefined();
  });

  it('rounds precision below a nano-unit up', () => {
    expect(parseQuantity('0.0000000001')?.nanos).toBe(1n);
  });
});

describe('arithmetic', () => {
  it('adds keeping the first format and compares exactly', () => {
    const sum = add(parseQuantity('512Mi')!, parseQuantity('512Mi')!);
    expect(formatQuantity(sum)).toBe('1Gi');
    expect(compare(parseQuantity('1')!, parseQuantity('1000m')!)).toBe(0);
    expect(compare(parseQuantity('1Ki')!, parseQuantity('1k')!)).toBe(1);
    expect(milliValue(parseQuantity('1n')!)).toBe(1n);
  });

  it('prints resource lists in key order', () => {
    expect(
      prettyPrint(
        new Map([
          ['pods', count(2)],
          ['limits.cpu', parseQuantity('500m')!],
        ]),
      ),
    ).toBe('limits.cpu=500m,pods=2');
  });
});

describe('compare across suffixes and spellings (a missing or unparsable value as zero)', () => {
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
    it(`${String(a)} vs ${String(b)}`, () =>
      expect(compare(parseQuantity(a) ?? zero, parseQuantity(b) ?? zero)).toBe(want));
});
