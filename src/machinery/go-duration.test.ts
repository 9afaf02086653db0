import { describe, expect, it } from 'vitest';
import { formatGoDuration, parseGoDuration } from './go-duration';

describe('Go durations', () => {
  it.each([
    ['8760h', 8760 * 3_600_000],
    ['8760h0m0s', 8760 * 3_600_000],
    ['1h30m', 90 * 60_000],
    ['1.5h', 90 * 60_000],
    ['.5s', 500],
    ['2.s', 2000],
    ['-2m', -120_000],
    ['+10s', 10_000],
    ['0', 0],
    ['-0', 0],
    ['300ms', 300],
    ['1500us', 1.5],
    ['1500µs', 1.5],
    ['2000000ns', 2],
  ])('%s', (text, ms) => {
    expect(parseGoDuration(text)).toBe(ms);
  });

  it.each([
    ['', 'time: invalid duration ""'],
    ['x', 'time: invalid duration "x"'],
    ['.h', 'time: invalid duration ".h"'],
    ['-', 'time: invalid duration "-"'],
    ['5', 'time: missing unit in duration "5"'],
    ['1h5', 'time: missing unit in duration "1h5"'],
    ['5d', 'time: unknown unit "d" in duration "5d"'],
    ['1 h', 'time: unknown unit " h" in duration "1 h"'],
    ['9999999999h', 'time: invalid duration "9999999999h"'],
  ])('refuses %j', (text, message) => {
    expect(() => parseGoDuration(text)).toThrow(message);
  });

  it('prints as Go does', () => {
    expect(formatGoDuration(8760 * 3_600_000)).toBe('8760h0m0s');
    expect(formatGoDuration(90_000)).toBe('1m30s');
    expect(formatGoDuration(1500)).toBe('1.5s');
    expect(formatGoDuration(500)).toBe('500ms');
    expect(formatGoDuration(0)).toBe('0s');
  });
});
