/**
 * Go's `time.ParseDuration` and `Duration.String`, for flags the real
 * components declare as durations (`--cluster-signing-duration=8760h`):
 * a signed sequence of decimal numbers with units `ns`, `us`/`µs`, `ms`,
 * `s`, `m`, `h` (`1h30m`, `1.5h`, `-2m`, a bare `0`), with Go's error texts
 * (`time: invalid duration "x"`, `time: missing unit in duration "5"`,
 * `time: unknown unit "d" in duration "5d"`). Values are milliseconds,
 * fractions kept.
 */

import { goQuote } from './go-format';

const unitMs: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3, // U+00B5
  μs: 1e-3, // U+03BC
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** Go's largest duration, in milliseconds (about 292 years). */
const maxMs = 9_223_372_036_854.775;

export function parseGoDuration(text: string): number {
  const invalid = () => new Error(`time: invalid duration ${goQuote(text)}`);
  let s = text;
  let negative = false;
  if (s !== '' && (s[0] === '-' || s[0] === '+')) {
    negative = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') throw invalid();
  let total = 0;
  while (s !== '') {
    const number = /^(\d*)(?:\.(\d*))?/.exec(s);
    const whole = number?.[1] ?? '';
    const fraction = number?.[2];
    if (whole === '' && (fraction === undefined || fraction === '')) throw invalid();
    s = s.slice(number?.[0].length ?? 0);
    const unitMatch = /^[^0-9.]*/.exec(s)?.[0] ?? '';
    if (unitMatch === '') throw new Error(`time: missing unit in duration ${goQuote(text)}`);
    const scale = unitMs[unitMatch];
    if (scale === undefined)
      throw new Error(`time: unknown unit ${goQuote(unitMatch)} in duration ${goQuote(text)}`);
    s = s.slice(unitMatch.length);
    total += Number(`${whole === '' ? '0' : whole}.${fraction ?? '0'}`) * scale;
    if (total > maxMs) throw invalid();
  }
  return negative ? -total : total;
}

/** Go's `Duration.String` for whole milliseconds and up (`8760h0m0s`, `1m30s`, `500ms`, `0s`). */
export function formatGoDuration(ms: number): string {
  if (ms === 0) return '0s';
  const sign = ms < 0 ? '-' : '';
  const abs = Math.abs(ms);
  if (abs < 1000) return `${sign}${abs}ms`;
  const h = Math.floor(abs / 3_600_000);
  const m = Math.floor((abs % 3_600_000) / 60_000);
  const seconds = (abs % 60_000) / 1000;
  const sec = `${seconds}s`;
  if (h > 0) return `${sign}${h}h${m}m${sec}`;
  if (m > 0) return `${sign}${m}m${sec}`;
  return `${sign}${sec}`;
}
