/**
 * `JSON.parse` of a long text in slices: a body of 100,000 keys is one
 * native pass of ~20 ms on an idle core (many times that on a loaded one),
 * during which no other client is answered. This steps over the text's
 * structure (strings by `indexOf`, nothing decoded) and hands each run of
 * up to `chunkChars` characters of an object's members or an array's
 * items to `JSON.parse` wrapped in braces or brackets, descending into a
 * member only when it is longer than that; the work may pause between
 * runs (machinery/cooperative.ts). The value is the one `JSON.parse`
 * gives (key order, the last of repeated keys, `__proto__` as an own
 * field). Any text it cannot step over throws; the caller then runs
 * `JSON.parse` on the whole text, whose error is the one reported.
 */

import { pauseDue, type Work } from '../cooperative';
import { rememberWide, slicedAbove } from '../json';

/** Characters parsed by one native call. */
const chunkChars = 32 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

class NotSteppable extends Error {}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

export function* parseJsonWork(text: string): Work<unknown> {
  const p = new Stepper(text);
  const start = p.space(0);
  const [value, end] = yield* p.value(start);
  if (p.space(end) !== text.length) throw new NotSteppable('text after the value');
  return value;
}

class Stepper {
  constructor(private readonly text: string) {}

  space(i: number): number {
    const t = this.text;
    while (i < t.length && isSpace(t.charCodeAt(i))) i++;
    return i;
  }

  /** The offset just past the string whose opening quote is at `i`. */
  private string(i: number): number {
    const t = this.text;
    let j = i + 1;
    for (;;) {
      const q = t.indexOf('"', j);
      if (q < 0) throw new NotSteppable('unterminated string');
      let backslashes = 0;
      while (t.charCodeAt(q - 1 - backslashes) === BACKSLASH) backslashes++;
      if (backslashes % 2 === 0) return q + 1;
      j = q + 1;
    }
  }

  /**
   * The offset just past the value starting at `i` (not decoded); for an object or array not closed within
   * `chunkChars` characters, -1 (it is descended into instead of being stepped over whole).
   */
  private skip(i: number): number {
    const t = this.text;
    const c = t.charCodeAt(i);
    if (c === QUOTE) return this.string(i);
    if (c === 0x7b || c === 0x5b) {
      let depth = 0;
      let j = i;
      const stop = Math.min(t.length, i + chunkChars);
      while (j < stop) {
        const d = t.charCodeAt(j);
        if (d === QUOTE) {
          j = this.string(j);
          continue;
        }
        if (d === 0x7b || d === 0x5b) depth++;
        else if (d === 0x7d || d === 0x5d) {
          depth--;
          if (depth === 0) return j + 1;
        }
        j++;
      }
      if (stop < t.length) return -1;
      throw new NotSteppable('unterminated container');
    }
    let j = i;
    while (j < t.length) {
      const d = t.charCodeAt(j);
      if (d === 0x2c || d === 0x7d || d === 0x5d || isSpace(d)) break;
      j++;
    }
    if (j === i) throw new NotSteppable('no value');
    return j;
  }

  /** The value at `i` and the offset just past it. */
  *value(i: number): Work<[unknown, number]> {
    const t = this.text;
    const c = t.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) return yield* this.container(i, c === 0x7b);
    const end = this.skip(i);
    if (end < 0) throw new NotSteppable('unreachable: containers are descended into');
    return [JSON.parse(t.slice(i, end)) as unknown, end];
  }

  /**
   * An object's members or an array's items: runs of short ones parsed together (wrapped in the container's
   * own braces or brackets), long ones descended into. An object's member has a key step before its value.
   */
  private *container(open: number, isObject: boolean): Work<[unknown, number]> {
    const t = this.text;
    const close = isObject ? 0x7d : 0x5d;
    const obj: Record<string, unknown> = {};
    const arr: unknown[] = [];
    let members = 0;
    const put = (key: string, v: unknown): void => {
      members++;
      if (key === '__proto__')
        Object.defineProperty(obj, key, { value: v, enumerable: true, writable: true, configurable: true });
      else obj[key] = v;
    };
    let runStart = -1;
    let runEnd = -1;
    const flush = (): void => {
      if (runStart < 0) return;
      const run = t.slice(runStart, runEnd);
      if (isObject) {
        const part = JSON.parse(`{${run}}`) as Record<string, unknown>;
        for (const key of Object.keys(part)) put(key, part[key]);
      } else for (const v of JSON.parse(`[${run}]`) as unknown[]) arr.push(v);
      runStart = -1;
    };
    const out = isObject ? obj : arr;
    // A wide container is recorded as such (machinery/json.ts), so that the size probes before the write's
    // passes over the body stop at it instead of listing its keys again.
    const done = (end: number): [unknown, number] => {
      if ((isObject ? members : arr.length) > slicedAbove) rememberWide(out);
      return [out, end];
    };
    let i = this.space(open + 1);
    if (t.charCodeAt(i) === close) return [out, i + 1];
    for (;;) {
      const memberStart = i;
      let keyEnd = i;
      if (isObject) {
        if (t.charCodeAt(i) !== QUOTE) throw new NotSteppable('expected a key');
        keyEnd = this.string(i);
        i = this.space(keyEnd);
        if (t.charCodeAt(i) !== 0x3a) throw new NotSteppable('expected a colon');
        i = this.space(i + 1);
      }
      let valueEnd = this.skip(i);
      if (valueEnd < 0) {
        flush();
        const [v, end] = yield* this.value(i);
        if (isObject) put(JSON.parse(t.slice(memberStart, keyEnd)) as string, v);
        else arr.push(v);
        valueEnd = end;
      } else {
        if (runStart < 0) runStart = memberStart;
        runEnd = valueEnd;
        if (runEnd - runStart > chunkChars) flush();
      }
      i = this.space(valueEnd);
      const sep = t.charCodeAt(i);
      if (pauseDue()) {
        flush();
        yield;
      }
      if (sep === close) {
        flush();
        return done(i + 1);
      }
      if (sep !== 0x2c) throw new NotSteppable('expected a comma');
      i = this.space(i + 1);
    }
  }
}
