import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Duration } from '@marcbachmann/cel-js/evaluator';
import { celLibrary } from './engine';
import {
  addDurationToTimestamp,
  durationNanos,
  formatDuration,
  formatTimestamp,
  parseDuration,
  parseTimestamp,
  subtractTimestamps,
  timestampFromNanos,
  timestampNanos,
  wallClock,
} from './time';

// The unit tests call the synchronous core directly; the server loads the library at its entry points.
await celLibrary.load();

describe('timestamps', () => {
  it('keep all nine fractional digits through parse, arithmetic and print', () => {
    const t = parseTimestamp('2024-01-01T00:00:00.123456789Z');
    expect(formatTimestamp(t)).toBe('2024-01-01T00:00:00.123456789Z');
    expect(formatTimestamp(addDurationToTimestamp(t, parseDuration('1ns')))).toBe(
      '2024-01-01T00:00:00.12345679Z',
    );
    expect(durationNanos(subtractTimestamps(parseTimestamp('2024-01-01T00:00:01Z'), t))).toBe(876543211n);
  });

  it('apply the offset and accept dates', () => {
    expect(formatTimestamp(parseTimestamp('2024-05-01T08:00:00+02:00'))).toBe('2024-05-01T06:00:00Z');
    expect(formatTimestamp(parseTimestamp('2024-05-01', true))).toBe('2024-05-01T00:00:00Z');
    expect(() => parseTimestamp('2024-02-30T00:00:00Z')).toThrow(/out of range/);
    expect(() => parseTimestamp('yesterday')).toThrow(/RFC 3339/);
  });

  it('stay within years 0001 to 9999', () => {
    expect(() =>
      addDurationToTimestamp(parseTimestamp('9999-12-31T23:59:59.999999999Z'), parseDuration('1ns')),
    ).toThrow(/range/);
    expect(formatTimestamp(parseTimestamp('0001-01-01T00:00:00Z'))).toBe('0001-01-01T00:00:00Z');
  });

  it('round-trip any instant in range (property)', () => {
    const min = -62135596800n * 1_000_000_000n;
    const max = 253402300799n * 1_000_000_000n + 999_999_999n;
    fc.assert(
      fc.property(fc.bigInt({ min, max }), (nanos) => {
        const t = timestampFromNanos(nanos);
        expect(timestampNanos(t)).toBe(nanos);
        expect(timestampNanos(parseTimestamp(formatTimestamp(t)))).toBe(nanos);
      }),
    );
  });

  it('give wall-clock fields in UTC, fixed offsets and IANA zones', () => {
    const t = parseTimestamp('2009-02-13T23:31:30.123Z');
    expect(wallClock(t)).toMatchObject({
      year: 2009,
      month: 1,
      day: 13,
      weekday: 5,
      dayOfYear: 43,
      hours: 23,
      minutes: 31,
      seconds: 30,
      milliseconds: 123,
    });
    expect(wallClock(t, '+11:00')).toMatchObject({ day: 14, hours: 10 });
    expect(wallClock(t, '-02:30').hours).toBe(21);
    expect(wallClock(t, 'America/New_York').hours).toBe(18);
    expect(() => wallClock(t, 'Mars/Olympus')).toThrow(/time zone/);
  });
});

describe('durations', () => {
  it('parse Go syntax and print as seconds', () => {
    expect(formatDuration(parseDuration('1h30m'))).toBe('5400s');
    expect(formatDuration(parseDuration('-1.5s'))).toBe('-1.5s');
    expect(formatDuration(parseDuration('1ms2us3ns'))).toBe('0.001002003s');
    expect(formatDuration(parseDuration('0'))).toBe('0s');
    expect(() => parseDuration('1d')).toThrow(/invalid duration/);
    expect(() => parseDuration('')).toThrow(/invalid duration/);
  });

  it('are limited to int64 nanoseconds like Go', () => {
    expect(() => parseDuration('320000000000s')).toThrow(/range/);
    expect(parseDuration('2562047h')).toBeInstanceOf(Duration);
  });
});
