/**
 * Cron schedules as CronJobs write them, with the grammar and error texts
 * of the parser the real server and controller use (robfig/cron's
 * `ParseStandard`): five fields (minute, hour, day of month, month, day of
 * week) of `*`, `?`, numbers, names (JAN–DEC, SUN–SAT), ranges, lists and
 * steps, or a descriptor (`@yearly`, `@annually`, `@monthly`, `@weekly`,
 * `@daily`, `@midnight`, `@hourly`, `@every <duration>`). As in cron, when
 * both day fields are restricted a day matching either one matches; when
 * one is `*` the other decides. `next` finds the first matching minute
 * after a time, in UTC or in an IANA time zone (wall-clock minutes that do
 * not exist in a DST gap are skipped).
 */

import { parseGoDuration } from './go-duration';

export class CronParseError extends Error {}

interface Bounds {
  min: number;
  max: number;
  names?: Record<string, number>;
}

const months: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};
const days: Record<string, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };

const fieldBounds: Bounds[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: months },
  { min: 0, max: 6, names: days },
];

export interface CronSchedule {
  /** Sets of allowed values per field; `star` marks a day field written as `*` or `?`. */
  minute: Set<number>;
  hour: Set<number>;
  dom: Set<number>;
  month: Set<number>;
  dow: Set<number>;
  domStar: boolean;
  dowStar: boolean;
  /** `@every <duration>`: a fixed period in milliseconds instead of fields. */
  everyMs?: number;
}

function parseIntStrict(text: string): number {
  if (!/^[+-]?\d+$/.test(text))
    throw new CronParseError(
      `Failed to parse int from ${text}: strconv.Atoi: parsing "${text}": invalid syntax`,
    );
  return Number(text);
}

function value(text: string, bounds: Bounds): number {
  const named = bounds.names?.[text.toLowerCase()];
  return named ?? parseIntStrict(text);
}

/** One comma-separated part of a field (`a`, `a-b`, `*`, with an optional `/step`). */
function parseRange(expr: string, bounds: Bounds): { values: number[]; star: boolean } {
  const [rangePart = '', stepPart, extra] = expr.split('/');
  if (extra !== undefined) throw new CronParseError(`Too many slashes: ${expr}`);
  const lowHigh = rangePart.split('-');
  let start: number;
  let end: number;
  let star = false;
  if (lowHigh[0] === '*' || lowHigh[0] === '?') {
    start = bounds.min;
    end = bounds.max;
    star = true;
  } else {
    start = value(lowHigh[0] ?? '', bounds);
    if (lowHigh.length === 1) end = start;
    else if (lowHigh.length === 2) end = value(lowHigh[1] ?? '', bounds);
    else throw new CronParseError(`Too many hyphens: ${expr}`);
  }
  let step = 1;
  if (stepPart !== undefined) {
    step = parseIntStrict(stepPart);
    // `N/step` means N through the maximum.
    if (!star && lowHigh.length === 1) end = bounds.max;
    if (step > 1) star = false;
  }
  if (start < bounds.min)
    throw new CronParseError(`Beginning of range (${start}) below minimum (${bounds.min}): ${expr}`);
  if (end > bounds.max)
    throw new CronParseError(`End of range (${end}) above maximum (${bounds.max}): ${expr}`);
  if (start > end)
    throw new CronParseError(`Beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new CronParseError(`Step of range should be a positive number: ${expr}`);
  const values: number[] = [];
  for (let v = start; v <= end; v += step) values.push(v);
  return { values, star };
}

function parseField(text: string, bounds: Bounds): { set: Set<number>; star: boolean } {
  const set = new Set<number>();
  let star = false;
  for (const part of text.split(',')) {
    const r = parseRange(part, bounds);
    for (const v of r.values) set.add(v);
    if (r.star) star = true;
  }
  return { set, star };
}

function fromFields(f: string[]): CronSchedule {
  const [minute, hour, dom, month, dow] = f.map((text, i) => parseField(text, fieldBounds[i] as Bounds));
  if (
    minute === undefined ||
    hour === undefined ||
    dom === undefined ||
    month === undefined ||
    dow === undefined
  )
    throw new CronParseError('Expected exactly 5 fields');
  return {
    minute: minute.set,
    hour: hour.set,
    dom: dom.set,
    month: month.set,
    dow: dow.set,
    domStar: dom.star,
    dowStar: dow.star,
  };
}

const descriptors: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

/** Parses a schedule as `cron.ParseStandard` does; throws CronParseError with its message. */
export function parseCron(spec: string): CronSchedule {
  const text = spec.trim();
  if (text === '') throw new CronParseError('empty spec string');
  if (text.startsWith('TZ=') || text.startsWith('CRON_TZ=')) {
    const rest = text.slice(text.indexOf(' ') + 1);
    return parseCron(rest);
  }
  if (text.startsWith('@')) {
    if (text.startsWith('@every ')) {
      let ms: number;
      try {
        ms = parseGoDuration(text.slice('@every '.length).trim());
      } catch (e) {
        throw new CronParseError(
          `failed to parse duration ${text}: ${e instanceof Error ? e.message : String(e)}`,
        );
      }
      return {
        ...fromFields(['*', '*', '*', '*', '*']),
        everyMs: Math.max(1000, Math.round(ms / 1000) * 1000),
      };
    }
    const fields = descriptors[text];
    if (fields === undefined) throw new CronParseError(`unrecognized descriptor: ${text}`);
    return fromFields(fields.split(' '));
  }
  const fields = text.split(/\s+/);
  if (fields.length !== 5)
    throw new CronParseError(`expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`);
  return fromFields(fields);
}

interface Wall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

function wallIn(timeZone: string | undefined, t: number): Wall {
  const d = new Date(t);
  if (timeZone === undefined || timeZone === 'UTC' || timeZone === 'Etc/UTC')
    return {
      year: d.getUTCFullYear(),
      month: d.getUTCMonth() + 1,
      day: d.getUTCDate(),
      hour: d.getUTCHours(),
      minute: d.getUTCMinutes(),
    };
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  }).formatToParts(d);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return {
    year: get('year'),
    month: get('month'),
    day: get('day'),
    hour: get('hour'),
    minute: get('minute'),
  };
}

function dayMatches(s: CronSchedule, w: Wall): boolean {
  const dow = new Date(Date.UTC(w.year, w.month - 1, w.day)).getUTCDay();
  const domOk = s.dom.has(w.day);
  const dowOk = s.dow.has(dow);
  if (s.domStar || s.dowStar) return domOk && dowOk;
  return domOk || dowOk;
}

function matches(s: CronSchedule, w: Wall): boolean {
  return s.month.has(w.month) && dayMatches(s, w) && s.hour.has(w.hour) && s.minute.has(w.minute);
}

/**
 * The first activation strictly after `after` (ms since the epoch), or undefined when none comes within
 * five years (a schedule such as `0 0 30 2 *`). Steps by minutes, skipping whole hours and days that
 * cannot match, so a yearly schedule costs a few thousand checks.
 */
export function nextActivation(s: CronSchedule, after: number, timeZone?: string): number | undefined {
  if (s.everyMs !== undefined) return Math.floor(after / 1000) * 1000 + s.everyMs;
  const minute = 60_000;
  let t = Math.floor(after / minute) * minute + minute;
  const limit = after + 5 * 366 * 24 * 60 * minute;
  while (t <= limit) {
    const w = wallIn(timeZone, t);
    if (!s.month.has(w.month) || !dayMatches(s, w)) {
      // To the next wall-clock midnight (an hour at a time across DST changes).
      t += (60 - w.minute) * minute + Math.max(0, 23 - w.hour) * 60 * minute;
      continue;
    }
    if (!s.hour.has(w.hour)) {
      t += (60 - w.minute) * minute;
      continue;
    }
    if (matches(s, w)) return t;
    t += minute;
  }
  return undefined;
}

/** Whether `zone` is an IANA time zone name this runtime knows. */
export function isKnownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
