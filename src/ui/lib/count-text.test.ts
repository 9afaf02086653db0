// The explorer's object count, printed without Intl: the same text as toLocaleString('en') for whole numbers.
import { describe, expect, it } from 'vitest';
import { countText } from './count-text';

describe('countText', () => {
  it('prints whole numbers as toLocaleString("en") does', () => {
    for (const n of [
      0, 1, 12, 999, 1000, 1234, 10_000, 999_999, 1_000_000, 1_234_567_890, -1, -1234, -999_999,
    ])
      expect(countText(n)).toBe(n.toLocaleString('en'));
  });

  it('leaves other numbers as String prints them', () => {
    expect(countText(1.5)).toBe('1.5');
    expect(countText(Number.NaN)).toBe('NaN');
  });
});
