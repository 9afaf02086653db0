/**
 * A structure-only JSON scanner that finds duplicate object keys, which
 * `JSON.parse` silently collapses. It builds no values: keys are sliced only
 * to be compared, everything else is stepped over, and the path of a
 * duplicate is spelled only when one is found. It is lenient about what it
 * does not need (number and literal spelling, control characters):
 * `JSON.parse` runs after it and owns syntax errors.
 */

import { pauseDue, runNow, type Work } from '../cooperative';

/** One path step: an object key or an array index. */
export type PathSegment = string | number;

export interface DuplicateKey {
  /** Path of the repeated field, e.g. `['spec', 'containers', 0, 'name']`. */
  segments: PathSegment[];
  /** Distinct keys the object had when the repeat was read: where it falls among its siblings. */
  keysBefore: number;
  /** Offset of the repeated key's opening quote. */
  offset: number;
  /** Start offsets of the previous occurrence's value and of this one's. */
  previousValue: number;
  value: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
const SPACE = 0x20;

/** Past this many keys an object's keys go into a Map instead of being compared one by one. */
const linearKeyLimit = 12;

class ScanError extends Error {}

/** One open container. Objects own rows [keyStart, keyStart + keyCount) of the key table. */
interface Frame {
  isObject: boolean;
  keyStart: number;
  keyCount: number;
  /** Objects: raw text range of the key whose value is being read. */
  keyAt: number;
  keyEnd: number;
  /** Arrays: the next index. */
  index: number;
  /** Objects with many keys: decoded key to value offset. */
  map: Map<string, number> | undefined;
}

/** Set by `skipString`: whether the string it stepped over has an escape. */
let sawEscape = false;

/** The offset just past the string whose opening quote is at `start`. */
function skipString(text: string, start: number, n: number): number {
  let i = start + 1;
  sawEscape = false;
  for (;;) {
    if (i >= n) throw new ScanError('unterminated string');
    const c = text.charCodeAt(i);
    if (c === QUOTE) return i + 1;
    if (c === BACKSLASH) {
      sawEscape = true;
      i += 2;
    } else i++;
  }
}

/** Growable Int32 columns for the keys of every open object: raw text range and value offset. */
class KeyTable {
  start = new Int32Array(256);
  end = new Int32Array(256);
  value = new Int32Array(256);
  escaped = new Uint8Array(256);
  top = 0;

  add(start: number, end: number, value: number, escaped: boolean): void {
    if (this.top === this.start.length) {
      const grow = <T extends Int32Array | Uint8Array>(a: T, make: (size: number) => T): T => {
        const b = make(a.length * 2);
        b.set(a);
        return b;
      };
      this.start = grow(this.start, (k) => new Int32Array(k));
      this.end = grow(this.end, (k) => new Int32Array(k));
      this.value = grow(this.value, (k) => new Int32Array(k));
      this.escaped = grow(this.escaped, (k) => new Uint8Array(k));
    }
    this.start[this.top] = start;
    this.end[this.top] = end;
    this.value[this.top] = value;
    this.escaped[this.top] = escaped ? 1 : 0;
    this.top++;
  }
}

/**
 * One table kept for the next scan: every create's body is scanned, and four new columns per scan were a few
 * kilobytes of garbage each time. A scan takes it (a concurrent one, paused between slices, makes its own) and
 * gives it back when done, unless it grew past what a usual body needs. Rows at or past `top` are never read,
 * so a table taken back starts with `top` at 0 and nothing cleared.
 */
let spareKeys: KeyTable | undefined;
const keptKeyRows = 1024;

function takeKeyTable(): KeyTable {
  const keys = spareKeys;
  if (keys === undefined) return new KeyTable();
  spareKeys = undefined;
  keys.top = 0;
  return keys;
}

function giveBack(keys: KeyTable): void {
  if (keys.start.length <= keptKeyRows) spareKeys = keys;
}

/** Decoded text of the key whose raw (quoted) text spans [start, end). */
function keyText(text: string, start: number, end: number): string {
  const raw = text.slice(start + 1, end - 1);
  return raw.indexOf('\\') < 0 ? raw : (JSON.parse(text.slice(start, end)) as string);
}

/** Whether two raw keys are the same; keys with escapes compare by their decoded text. */
function sameKey(
  text: string,
  aStart: number,
  aEnd: number,
  bStart: number,
  bEnd: number,
  escaped: boolean,
): boolean {
  if (escaped) return keyText(text, aStart, aEnd) === keyText(text, bStart, bEnd);
  const len = aEnd - aStart;
  if (len !== bEnd - bStart) return false;
  let k = 1;
  while (k < len && text.charCodeAt(aStart + k) === text.charCodeAt(bStart + k)) k++;
  return k === len;
}

/**
 * Scans `text` and returns every repeated key with its path. Throws when the
 * text is not JSON in a way the scanner notices; callers then let a full
 * parse explain why.
 */
export function scanDuplicateKeys(text: string): DuplicateKey[] {
  return runNow(scanDuplicateKeysWork(text));
}

/** `scanDuplicateKeys` as work that may pause between values of a long text (machinery/cooperative.ts). */
export function* scanDuplicateKeysWork(text: string): Work<DuplicateKey[]> {
  const n = text.length;
  const duplicates: DuplicateKey[] = [];
  // A scan that throws (not JSON) or is abandoned leaves its table to the collector.
  const keys = takeKeyTable();
  const frames: Frame[] = [];
  let depth = 0;
  let i = 0;
  // Offset of the next backslash at or after the scan position: a string that ends before it has no
  // escapes, so its closing quote is simply the next quote.
  let nextBackslash = text.indexOf('\\');
  if (nextBackslash < 0) nextBackslash = n;

  const stringEnd = (start: number): number => {
    const q = text.indexOf('"', start + 1);
    if (q >= 0 && q < nextBackslash) {
      sawEscape = false;
      return q + 1;
    }
    const end = skipString(text, start, n);
    const b = text.indexOf('\\', end);
    nextBackslash = b < 0 ? n : b;
    return end;
  };

  const pathTo = (key: string): PathSegment[] => {
    const segments: PathSegment[] = [];
    for (let d = 0; d < depth - 1; d++) {
      const f = frames[d] as Frame;
      segments.push(f.isObject ? keyText(text, f.keyAt, f.keyEnd) : f.index - 1);
    }
    segments.push(key);
    return segments;
  };

  const report = (f: Frame, keyStart: number, keyEnd: number, previous: number, value: number): void => {
    duplicates.push({
      segments: pathTo(keyText(text, keyStart, keyEnd)),
      keysBefore: f.keyCount,
      offset: keyStart,
      previousValue: previous,
      value,
    });
  };

  const addKey = (f: Frame, keyStart: number, keyEnd: number, value: number, escaped: boolean): void => {
    if (f.map === undefined) {
      const end = f.keyStart + f.keyCount;
      for (let k = f.keyStart; k < end; k++) {
        if (
          sameKey(
            text,
            keys.start[k] ?? 0,
            keys.end[k] ?? 0,
            keyStart,
            keyEnd,
            escaped || keys.escaped[k] === 1,
          )
        ) {
          report(f, keyStart, keyEnd, keys.value[k] ?? 0, value);
          keys.value[k] = value;
          return;
        }
      }
      keys.add(keyStart, keyEnd, value, escaped);
      f.keyCount++;
      if (f.keyCount > linearKeyLimit) {
        f.map = new Map();
        for (let k = f.keyStart; k < f.keyStart + f.keyCount; k++)
          f.map.set(keyText(text, keys.start[k] ?? 0, keys.end[k] ?? 0), keys.value[k] ?? 0);
      }
      return;
    }
    const key = keyText(text, keyStart, keyEnd);
    const previous = f.map.get(key);
    if (previous !== undefined) report(f, keyStart, keyEnd, previous, value);
    else f.keyCount++;
    f.map.set(key, value);
  };

  const open = (isObject: boolean): void => {
    let f = frames[depth];
    if (f === undefined) {
      f = { isObject, keyStart: 0, keyCount: 0, keyAt: 0, keyEnd: 0, index: 0, map: undefined };
      frames.push(f);
    }
    f.isObject = isObject;
    f.keyStart = keys.top;
    f.keyCount = 0;
    f.index = 0;
    f.map = undefined;
    depth++;
  };

  // Each turn of the loop reads one value (opening a container, or stepping over a scalar),
  // then closes what ends after it and moves to the next key or element.
  for (;;) {
    if (pauseDue()) yield;
    let c = text.charCodeAt(i);
    while (c <= SPACE && i < n) c = text.charCodeAt(++i);
    if (i >= n) throw new ScanError('unexpected end');
    if (c === LBRACE || c === LBRACKET) {
      open(c === LBRACE);
      i++;
    } else if (c === QUOTE) {
      i = stringEnd(i);
    } else {
      const start = i;
      while (i < n) {
        c = text.charCodeAt(i);
        if (c === COMMA || c === RBRACE || c === RBRACKET || c <= SPACE) break;
        i++;
      }
      if (i === start) throw new ScanError('unexpected character');
    }
    if (depth === 0) break;

    // Next key or element of the innermost container, closing containers that end here.
    for (;;) {
      const f = frames[depth - 1] as Frame;
      c = text.charCodeAt(i);
      while (c <= SPACE && i < n) c = text.charCodeAt(++i);
      if (i >= n) throw new ScanError('unexpected end');
      if (c === (f.isObject ? RBRACE : RBRACKET)) {
        i++;
        if (f.isObject) keys.top = f.keyStart;
        depth--;
        if (depth === 0) break;
        continue;
      }
      if (f.isObject ? f.keyCount > 0 : f.index > 0) {
        if (c !== COMMA) throw new ScanError('expected comma');
        c = text.charCodeAt(++i);
        while (c <= SPACE && i < n) c = text.charCodeAt(++i);
      }
      if (!f.isObject) {
        f.index++;
        break;
      }
      if (c !== QUOTE) throw new ScanError('expected key');
      const keyStart = i;
      i = stringEnd(i);
      const keyEnd = i;
      const escaped = sawEscape;
      c = text.charCodeAt(i);
      while (c <= SPACE && i < n) c = text.charCodeAt(++i);
      if (c !== COLON) throw new ScanError('expected colon');
      c = text.charCodeAt(++i);
      while (c <= SPACE && i < n) c = text.charCodeAt(++i);
      f.keyAt = keyStart;
      f.keyEnd = keyEnd;
      addKey(f, keyStart, keyEnd, i, escaped);
      break;
    }
    if (depth === 0) break;
  }

  // Nothing but whitespace may follow the top-level value.
  while (i < n && text.charCodeAt(i) <= SPACE) i++;
  if (i < n) throw new ScanError('trailing data');
  giveBack(keys);
  return duplicates;
}

/** The offset just past the JSON value that starts at `start` (which must be well formed). */
export function valueEnd(text: string, start: number): number {
  let depth = 0;
  let i = start;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = skipString(text, i, n);
      if (depth === 0) return i;
      continue;
    }
    if (c === LBRACE || c === LBRACKET) depth++;
    else if (c === RBRACE || c === RBRACKET) {
      depth--;
      if (depth === 0) return i + 1;
    } else if (depth === 0 && (c === COMMA || c <= SPACE)) return i;
    i++;
  }
  return i;
}
