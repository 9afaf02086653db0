import { describe, expect, it } from 'vitest';
import { CronParseError, nextActivation, parseCron } from './cron';

const at = (iso: string) => Date.parse(iso);
const next = (spec: string, after: string, tz?: string) => {
  const t = nextActivation(parseCron(spec), at(after), tz);
  return t === undefined ? undefined : new Date(t).toISOString();
};

describe('cron schedules', () => {
  it.each([
    ['*/5 * * * *', '2024-01-01T00:03:10Z', '2024-01-01T00:05:00.000Z'],
    ['*/1 * * * *', '2024-01-01T00:05:00Z', '2024-01-01T00:06:00.000Z'],
    ['0 3 * * *', '2024-01-01T04:00:00Z', '2024-01-02T03:00:00.000Z'],
    ['30 9 * * MON-FRI', '2024-01-06T00:00:00Z', '2024-01-08T09:30:00.000Z'],
    ['0 0 1 JAN *', '2024-03-01T00:00:00Z', '2025-01-01T00:00:00.000Z'],
    // Both day fields restricted: either matches (the 13th, or a Friday).
    ['0 0 13 * 5', '2024-09-01T00:00:00Z', '2024-09-06T00:00:00.000Z'],
    ['@hourly', '2024-01-01T00:59:59Z', '2024-01-01T01:00:00.000Z'],
    ['@weekly', '2024-01-01T00:00:00Z', '2024-01-07T00:00:00.000Z'],
  ])('%s after %s is %s', (spec, after, want) => {
    expect(next(spec, after)).toBe(want);
  });

  it('finds the wall-clock time in a time zone', () => {
    // 09:00 in New York (UTC-5 in January) is 14:00 UTC.
    expect(next('0 9 * * *', '2024-01-01T00:00:00Z', 'America/New_York')).toBe('2024-01-01T14:00:00.000Z');
  });

  it('has no activation for a day that never comes', () => {
    expect(next('0 0 30 2 *', '2024-01-01T00:00:00Z')).toBeUndefined();
  });

  it.each([
    ['bad', 'expected exactly 5 fields, found 1: [bad]'],
    ['* * * *', 'expected exactly 5 fields, found 4: [* * * *]'],
    ['61 * * * *', 'End of range (61) above maximum (59): 61'],
    ['x * * * *', 'Failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax'],
    ['*/0 * * * *', 'Step of range should be a positive number: */0'],
    ['1-2-3 * * * *', 'Too many hyphens: 1-2-3'],
    // Sunday is 0 only, as robfig/cron's standard parser has it.
    ['0 0 * * 7', 'End of range (7) above maximum (6): 7'],
    ['@fortnightly', 'unrecognized descriptor: @fortnightly'],
  ])('refuses %s: %s', (spec, message) => {
    expect(() => parseCron(spec)).toThrow(CronParseError);
    expect(() => parseCron(spec)).toThrow(message);
  });
});
