/** Base64, Long and timestamp conversions of the protobuf codec. */

import { describe, expect, it } from 'vitest';
import {
  base64ToBytes,
  bytesToBase64,
  formatMicroTime,
  formatTime,
  parseTimestamp,
  toNumber,
} from './wire-values';

describe('wire values', () => {
  it('base64 round-trips every length and rejects non-base64', () => {
    for (const text of ['', 'a', 'ab', 'abc', 'abcd', 'hello world']) {
      const bytes = new TextEncoder().encode(text);
      const b64 = bytesToBase64(bytes);
      expect(b64).toBe(btoa(text));
      expect(base64ToBytes(b64)).toEqual(bytes);
    }
    expect(base64ToBytes('not base64!')).toBeUndefined();
  });

  it('reads Long-like integers', () => {
    expect(toNumber(7)).toBe(7);
    expect(toNumber({ toNumber: () => 42 })).toBe(42);
  });

  it('parses RFC 3339 with offsets and fractions, formats in UTC', () => {
    expect(parseTimestamp('2024-01-02T05:04:05.25+02:00')).toEqual({
      seconds: Date.UTC(2024, 0, 2, 3, 4, 5) / 1000,
      nanos: 250_000_000,
    });
    expect(parseTimestamp('yesterday')).toBeUndefined();
    const t = Date.UTC(2024, 0, 2, 3, 4, 5) / 1000;
    expect(formatTime(t)).toBe('2024-01-02T03:04:05Z');
    expect(formatMicroTime(t, 1_500)).toBe('2024-01-02T03:04:05.000001Z');
  });
});
