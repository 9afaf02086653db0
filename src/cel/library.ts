/**
 * Registers the function libraries of our environments on an engine
 * environment: what the CEL standard library lacks in the engine (timestamp
 * and duration conversions, bytes ordering, the global `matches`), the
 * strings extension, and the Kubernetes list, regex and URL libraries; and
 * returns the overrides that replace engine functions whose behaviour
 * differs from CEL's (JavaScript regular expressions, UTF-16 string indices,
 * millisecond timestamps, unchecked numeric conversions).
 */

import { celError } from './errors';
import { isDuration, newUnsignedInt, type Duration, type Environment, type UnsignedInt } from './engine';
import type { CallOverride } from './instrument';
import { extreme, indexOfElement, isSorted, lastIndexOfElement, sum, type SumKind } from './lists';
import { MAX_INT, MIN_INT, PASS } from './operators';
import { find, findAll, matches } from './regex';
import * as str from './strings';
import {
  durationNanos,
  formatDuration,
  formatTimestamp,
  parseDuration,
  parseTimestamp,
  timestampFromNanos,
  timestampParts,
  wallClock,
  type WallClock,
} from './time';
import { CelURL, isURL, parseURL } from './url';
import { celCompare } from './values';

const TS = 'google.protobuf.Timestamp';
const DUR = 'google.protobuf.Duration';
const SYNC = { async: false };

// The engine's handlers are untyped; ours take CEL values.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Handler = (...args: any[]) => unknown;

function register(env: Environment, signature: string, handler: Handler): void {
  env.registerFunction(signature, handler, SYNC);
}

export function registerStandardFixes(env: Environment): void {
  register(env, 'int(uint): int', (v: UnsignedInt) => {
    if (v.value > MAX_INT) throw celError('integer overflow');
    return v.value;
  });
  register(env, `int(${TS}): int`, (d: Date) => timestampParts(d).seconds);
  register(env, `string(${TS}): string`, formatTimestamp);
  register(env, `string(${DUR}): string`, formatDuration);
  register(env, `duration(${DUR}): ${DUR}`, (d: Duration) => d);
  register(env, `timestamp(${TS}): ${TS}`, (d: Date) => d);
  register(env, 'matches(string, string): bool', matches);
  for (const op of ['<', '<=', '>', '>=']) {
    env.registerOperator(`bytes ${op} bytes`, (a: Uint8Array, b: Uint8Array) => {
      const c = celCompare(a, b)!;
      return op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : c >= 0;
    });
  }
}

export function registerStringsExtension(env: Environment): void {
  register(env, 'string.charAt(int): string', str.charAt);
  register(env, 'string.replace(string, string): string', str.replace);
  register(env, 'string.replace(string, string, int): string', str.replace);
}

const COMPARABLE = ['int', 'uint', 'double', 'bool', 'string', 'bytes', DUR, TS];
const SUMMABLE: [string, SumKind][] = [
  ['int', 'int'],
  ['uint', 'uint'],
  ['double', 'double'],
  [DUR, 'duration'],
];

export function registerKubernetesLibraries(env: Environment): void {
  for (const t of COMPARABLE) {
    register(env, `list<${t}>.isSorted(): bool`, isSorted);
    register(env, `list<${t}>.min(): ${t}`, (l: unknown[]) => extreme(l, 'min'));
    register(env, `list<${t}>.max(): ${t}`, (l: unknown[]) => extreme(l, 'max'));
  }
  for (const [t, kind] of SUMMABLE) register(env, `list<${t}>.sum(): ${t}`, (l: unknown[]) => sum(l, kind));
  register(env, 'list<A>.indexOf(A): int', indexOfElement);
  register(env, 'list<A>.lastIndexOf(A): int', lastIndexOfElement);

  register(env, 'string.find(string): string', find);
  register(env, 'string.findAll(string): list<string>', (s: string, re: string) => findAll(s, re));
  register(env, 'string.findAll(string, int): list<string>', findAll);

  env.registerType('kubernetes.URL', { ctor: CelURL, fields: {} });
  env.registerOperator('kubernetes.URL == kubernetes.URL', (a: CelURL, b: CelURL) => a.raw === b.raw);
  register(env, 'url(string): kubernetes.URL', parseURL);
  register(env, 'isURL(string): bool', isURL);
  register(env, 'kubernetes.URL.getScheme(): string', (u: CelURL) => u.scheme);
  register(env, 'kubernetes.URL.getHost(): string', (u: CelURL) => u.host);
  register(env, 'kubernetes.URL.getHostname(): string', (u: CelURL) => u.hostname());
  register(env, 'kubernetes.URL.getPort(): string', (u: CelURL) => u.port());
  register(env, 'kubernetes.URL.getEscapedPath(): string', (u: CelURL) => u.escapedPath());
  register(env, 'kubernetes.URL.getQuery(): map<string, list<string>>', (u: CelURL) => u.query());
}

function intFromDouble(v: number): bigint {
  // Doubles at or beyond ±2^63 do not fit (2^63 - 1 is not representable, it rounds up).
  if (!Number.isFinite(v) || v >= 2 ** 63 || v <= -(2 ** 63)) throw celError('integer overflow');
  return BigInt(Math.trunc(v));
}

function uintFromDouble(v: number): UnsignedInt {
  if (!Number.isFinite(v) || v < 0 || v >= 2 ** 64) throw celError('unsigned integer overflow');
  return newUnsignedInt(BigInt(Math.trunc(v)));
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

const TIME_FIELDS: Record<string, keyof WallClock> = {
  getFullYear: 'year',
  getMonth: 'month',
  getDate: 'day',
  getDayOfMonth: 'day',
  getDayOfWeek: 'weekday',
  getDayOfYear: 'dayOfYear',
  getHours: 'hours',
  getMinutes: 'minutes',
  getSeconds: 'seconds',
  getMilliseconds: 'milliseconds',
};

const DURATION_UNITS: Record<string, bigint> = {
  getHours: 3_600_000_000_000n,
  getMinutes: 60_000_000_000n,
  getSeconds: 1_000_000_000n,
};

function timeAccessor(name: string): CallOverride {
  const field = TIME_FIELDS[name]!;
  return ([receiver, zone]) => {
    if (receiver instanceof Date) {
      if (zone !== undefined && typeof zone !== 'string') return PASS;
      const value = wallClock(receiver, zone);
      return BigInt(value[field] - (name === 'getDayOfMonth' ? 1 : 0));
    }
    if (isDuration(receiver)) {
      const total = durationNanos(receiver);
      if (name === 'getMilliseconds') return (total / 1_000_000n) % 1000n;
      const unit = DURATION_UNITS[name];
      return unit === undefined ? PASS : total / unit;
    }
    return PASS;
  };
}

type ArgKind = 'string' | 'bigint';
type StringFn = (s: string, ...rest: never[]) => unknown;

/** Applies `fn` when the receiver is a string and the arguments have the kinds given (checked again: `dyn` skips the checker). */
const onString =
  (fn: (s: string, ...rest: never[]) => unknown, ...kinds: ArgKind[]): CallOverride =>
  ([receiver, ...rest]) =>
    typeof receiver === 'string' && rest.every((a, i) => typeof a === kinds[i])
      ? fn(receiver, ...(rest as never[]))
      : PASS;

/** Replacements for engine functions, by name; each passes on argument types it does not fix. */
export function overrides(): Map<string, CallOverride> {
  const table = new Map<string, CallOverride>([
    ['matches', onString(matches as StringFn, 'string')],
    ['lowerAscii', onString(str.lowerAscii)],
    ['upperAscii', onString(str.upperAscii)],
    ['trim', onString(str.trim)],
    ['split', onString(str.split as StringFn, 'string', 'bigint')],
    ['indexOf', onString(str.indexOf as StringFn, 'string', 'bigint')],
    ['lastIndexOf', onString(str.lastIndexOf as StringFn, 'string', 'bigint')],
    ['substring', onString(str.substring as StringFn, 'bigint', 'bigint')],
    ['int', ([v]) => (typeof v === 'number' ? intFromDouble(v) : PASS)],
    ['uint', ([v]) => (typeof v === 'number' ? uintFromDouble(v) : PASS)],
    [
      'string',
      ([v]) => {
        if (!(v instanceof Uint8Array)) return PASS;
        try {
          return strictUtf8.decode(v);
        } catch {
          throw celError('invalid UTF-8 in bytes, cannot convert to string');
        }
      },
    ],
    [
      'timestamp',
      ([v]) =>
        typeof v === 'string' ? parseTimestamp(v) : typeof v === 'bigint' ? timestampFromSeconds(v) : PASS,
    ],
    ['duration', ([v]) => (typeof v === 'string' ? parseDuration(v) : PASS)],
  ]);
  for (const name of Object.keys(TIME_FIELDS)) table.set(name, timeAccessor(name));
  return table;
}

function timestampFromSeconds(seconds: bigint): Date {
  if (seconds > MAX_INT || seconds < MIN_INT) throw celError('timestamp out of range');
  return timestampFromNanos(seconds * 1_000_000_000n);
}
