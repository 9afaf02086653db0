/**
 * Timestamps and durations with nanosecond precision. The engine represents a
 * timestamp as a JS `Date` (milliseconds); we keep the sub-millisecond rest
 * on the `Date` under a symbol, so values stay what the engine recognises as
 * `google.protobuf.Timestamp` while parsing, printing, comparison and
 * arithmetic (done here) see all nine fractional digits, as RFC 3339 values in
 * custom resources carry them. Durations use the engine's `Duration`
 * (seconds + nanos). Ranges: timestamps years 0001 to 9999 (CEL), durations
 * int64 nanoseconds (Go's `time.Duration`, as in the real server).
 */

import { isDuration, newDuration, type Duration } from './engine';
import { celError } from './errors';

const SUB_MS_NANOS = Symbol('orch.cel.subMillisecondNanos');
type TimestampDate = Date & { [SUB_MS_NANOS]?: number };

const NANOS_PER_SECOND = 1_000_000_000n;
const MIN_SECONDS = -62135596800n; // 0001-01-01T00:00:00Z
const MAX_SECONDS = 253402300799n; // 9999-12-31T23:59:59Z
// Go's time.Duration (int64 nanoseconds, about ±292 years), which Kubernetes' cel-go uses.
const MAX_DURATION_NANOS = 9223372036854775807n;

export function isTimestamp(value: unknown): value is Date {
  return value instanceof Date;
}

export { isDuration };

/** Builds a timestamp; throws a CEL error outside 0001-01-01 .. 9999-12-31. */
export function timestampFromNanos(total: bigint): Date {
  const seconds = floorDiv(total, NANOS_PER_SECOND);
  if (seconds < MIN_SECONDS || seconds > MAX_SECONDS) throw celError('timestamp out of range');
  const nanos = Number(total - seconds * NANOS_PER_SECOND);
  const date: TimestampDate = new Date(Number(seconds) * 1000 + Math.floor(nanos / 1e6));
  const rest = nanos % 1e6;
  if (rest !== 0) date[SUB_MS_NANOS] = rest;
  return date;
}

export function timestampNanos(date: Date): bigint {
  const ms = date.getTime();
  return BigInt(ms) * 1_000_000n + BigInt((date as TimestampDate)[SUB_MS_NANOS] ?? 0);
}

export function timestampParts(date: Date): { seconds: bigint; nanos: number } {
  const total = timestampNanos(date);
  const seconds = floorDiv(total, NANOS_PER_SECOND);
  return { seconds, nanos: Number(total - seconds * NANOS_PER_SECOND) };
}

export function durationFromNanos(total: bigint): Duration {
  if (total > MAX_DURATION_NANOS || total < -MAX_DURATION_NANOS - 1n) throw celError('duration out of range');
  const seconds = total / NANOS_PER_SECOND; // truncates toward zero: nanos carry the sign of seconds
  return newDuration(seconds, Number(total - seconds * NANOS_PER_SECOND));
}

export function durationNanos(d: Duration): bigint {
  return d.seconds * NANOS_PER_SECOND + BigInt(d.nanos);
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** RFC 3339 date-time (`2006-01-02T15:04:05.999999999Z07:00`); `dateOnly` also accepts `2006-01-02` (OpenAPI `date`). */
export function parseTimestamp(text: string, dateOnly = false): Date {
  const date = dateOnly ? DATE_ONLY.exec(text) : null;
  const m = date ?? RFC3339.exec(text);
  if (m === null) throw celError(`cannot parse '${text}' as a timestamp (RFC 3339)`);
  const [year, month, day, hour = 0, minute = 0, second = 0] = m
    .slice(1, 7)
    .map((v) => (v === undefined ? 0 : Number(v))) as number[];
  if (
    month! < 1 ||
    month! > 12 ||
    day! < 1 ||
    day! > daysInMonth(year!, month!) ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  ) {
    throw celError(`cannot parse '${text}' as a timestamp: field out of range`);
  }
  const frac = date === null ? (m[7] ?? '') : '';
  let offsetMinutes = 0;
  if (date === null && m[8] === undefined) {
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11]));
  }
  const epochDays = daysFromCivil(year!, month!, day!);
  const seconds =
    BigInt(epochDays) * 86400n + BigInt(hour * 3600 + minute * 60 + second - offsetMinutes * 60);
  return timestampFromNanos(seconds * NANOS_PER_SECOND + BigInt(frac.padEnd(9, '0') || '0'));
}

/** RFC 3339 with as many fractional digits as needed, always UTC (`Z`), as CEL's `string(timestamp)`. */
export function formatTimestamp(date: Date): string {
  const { seconds, nanos } = timestampParts(date);
  const days = Number(floorDiv(seconds, 86400n));
  const secOfDay = Number(seconds - BigInt(days) * 86400n);
  const [y, mo, d] = civilFromDays(days);
  const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
  const frac = nanos === 0 ? '' : `.${String(nanos).padStart(9, '0').replace(/0+$/, '')}`;
  return `${pad(y, 4)}-${pad(mo)}-${pad(d)}T${pad(Math.floor(secOfDay / 3600))}:${pad(Math.floor(secOfDay / 60) % 60)}:${pad(secOfDay % 60)}${frac}Z`;
}

const UNIT_NANOS: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n,
  μs: 1_000n,
  ms: 1_000_000n,
  s: NANOS_PER_SECOND,
  m: 60n * NANOS_PER_SECOND,
  h: 3600n * NANOS_PER_SECOND,
};
const DURATION_PART = /^(\d*)(?:\.(\d*))?(ns|us|µs|μs|ms|s|m|h)/;

/** Go duration syntax (`300ms`, `-1.5h`, `2h45m`, `0`), as CEL's `duration(string)` and OpenAPI `duration`. */
export function parseDuration(text: string): Duration {
  let rest = text;
  let sign = 1n;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    sign = rest.startsWith('-') ? -1n : 1n;
    rest = rest.slice(1);
  }
  if (rest === '0') return durationFromNanos(0n);
  if (rest === '') throw celError(`invalid duration '${text}'`);
  let total = 0n;
  while (rest !== '') {
    const m = DURATION_PART.exec(rest);
    if (m === null || (m[1] === '' && (m[2] ?? '') === '')) throw celError(`invalid duration '${text}'`);
    const unit = UNIT_NANOS[m[3]!]!;
    const frac = (m[2] ?? '').slice(0, 18);
    total +=
      BigInt(m[1] || '0') * unit + (frac === '' ? 0n : (BigInt(frac) * unit) / 10n ** BigInt(frac.length));
    rest = rest.slice(m[0].length);
  }
  return durationFromNanos(sign * total);
}

/** CEL's `string(duration)`: seconds with the fraction needed, e.g. `1.5s`, `-0.000000001s`. */
export function formatDuration(d: Duration): string {
  const total = durationNanos(d);
  const neg = total < 0n;
  const abs = neg ? -total : total;
  const whole = abs / NANOS_PER_SECOND;
  const frac = abs % NANOS_PER_SECOND;
  const fracText = frac === 0n ? '' : `.${frac.toString().padStart(9, '0').replace(/0+$/, '')}`;
  return `${neg ? '-' : ''}${whole}${fracText}s`;
}

export function addDurationToTimestamp(ts: Date, d: Duration, sign: 1n | -1n = 1n): Date {
  return timestampFromNanos(timestampNanos(ts) + sign * durationNanos(d));
}

export function subtractTimestamps(a: Date, b: Date): Duration {
  return durationFromNanos(timestampNanos(a) - timestampNanos(b));
}

export function compareTime(a: Date | Duration, b: Date | Duration): number {
  const x = a instanceof Date ? timestampNanos(a) : durationNanos(a);
  const y = b instanceof Date ? timestampNanos(b) : durationNanos(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Wall-clock fields of a timestamp in a time zone (IANA name, or a fixed offset `[+-]HH:MM`; default UTC). */
export interface WallClock {
  year: number;
  month: number; // 0-11
  day: number; // 1-31
  weekday: number; // 0 = Sunday
  dayOfYear: number; // 0-365
  hours: number;
  minutes: number;
  seconds: number;
  milliseconds: number;
}

const OFFSET = /^([+-])?(\d{2}):(\d{2})$/;
const formatters = new Map<string, Intl.DateTimeFormat>();

export function wallClock(ts: Date, timeZone?: string): WallClock {
  const ms = ts.getTime();
  let shifted = ms;
  const offset = timeZone === undefined ? null : OFFSET.exec(timeZone);
  if (timeZone !== undefined && timeZone !== 'UTC' && offset === null) {
    shifted = ms + zoneOffsetMs(ms, timeZone);
  } else if (offset !== null) {
    shifted = ms + (offset[1] === '-' ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3])) * 60_000;
  }
  const days = Math.floor(shifted / 86_400_000);
  const msOfDay = shifted - days * 86_400_000;
  const [year, month, day] = civilFromDays(days);
  return {
    year,
    month: month - 1,
    day,
    weekday: (((days + 4) % 7) + 7) % 7,
    dayOfYear: days - daysFromCivil(year, 1, 1),
    hours: Math.floor(msOfDay / 3_600_000),
    minutes: Math.floor(msOfDay / 60_000) % 60,
    seconds: Math.floor(msOfDay / 1000) % 60,
    milliseconds: msOfDay % 1000,
  };
}

function zoneOffsetMs(ms: number, timeZone: string): number {
  let fmt = formatters.get(timeZone);
  if (fmt === undefined) {
    try {
      fmt = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
        era: 'short',
      });
    } catch {
      throw celError(`invalid time zone '${timeZone}'`);
    }
    formatters.set(timeZone, fmt);
  }
  const parts: Record<string, string> = {};
  for (const p of fmt.formatToParts(new Date(ms))) parts[p.type] = p.value;
  const year = parts.era === 'BC' || parts.era === 'B' ? 1 - Number(parts.year) : Number(parts.year);
  const local = new Date(0);
  local.setUTCFullYear(year, Number(parts.month) - 1, Number(parts.day));
  local.setUTCHours(Number(parts.hour), Number(parts.minute), Number(parts.second), 0);
  return local.getTime() - (ms - (((ms % 1000) + 1000) % 1000));
}

function daysInMonth(year: number, month: number): number {
  return [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm). */
function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function civilFromDays(z0: number): [number, number, number] {
  const z = z0 + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp + (mp < 10 ? 3 : -9);
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}
