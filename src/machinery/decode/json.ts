/**
 * Duplicate-aware JSON decoding: the value as `JSON.parse` builds it (the
 * last of repeated keys wins), plus every repeated field with its path in
 * the real server's spelling (`metadata.labels.a`, `spec.containers[0].name`).
 * Typed decoding (built-in kinds) can instead merge a repeated object or
 * list into the earlier one, as Go decodes a repeated struct field into the
 * same struct. Malformed input throws a `JsonSyntaxError` in Go's words.
 */

import { scanDuplicateKeys, scanDuplicateKeysWork, valueEnd, type PathSegment } from './json-scan';
import { breathe, runSliced } from '../cooperative';
import { parseJsonWork } from './json-parse-sliced';
import { findSyntaxError, lineColumn, quoteChar } from './json-syntax';

export type { PathSegment } from './json-scan';

export interface DuplicateField {
  /** The strict-decoding path, e.g. `spec.template.spec.containers[0].name`. */
  path: string;
  segments: PathSegment[];
  /** Distinct keys the enclosing object had when the repeat was read. */
  keysBefore: number;
  offset: number;
  line: number;
}

export interface DecodedJson {
  value: unknown;
  duplicates: DuplicateField[];
}

export interface JsonDecodeOptions {
  /**
   * Merge a repeated object (or list) into the earlier occurrence instead of
   * replacing it, as decoding into a typed struct does. Scalars are replaced
   * either way.
   */
  mergeDuplicates?: boolean;
}

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
    readonly line: number,
    readonly column: number,
  ) {
    super(message);
    this.name = 'JsonSyntaxError';
  }
}

/** Spells a path as strict decoding errors do: keys joined by dots, indexes in brackets. */
export function formatPath(segments: readonly PathSegment[]): string {
  let out = '';
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`;
    else out += out === '' ? s : `.${s}`;
  }
  return out;
}

/**
 * How deeply objects and arrays may nest in a body. Go's decoder stops at
 * 10000 (`invalid character '{' exceeded max depth`); this server stops
 * sooner, with the same words, because a JavaScript stack does not reach
 * that far: `structuredClone` (IndexedDB's copy of every stored object)
 * overflows near 2000 levels and `JSON.stringify` near 4000, and a body the
 * server accepts must also be one it can store, answer and watch.
 */
export const maxNestingDepth = 1000;

/** The offset of the first `{` or `[` nested deeper than `max` (outside strings), or -1. */
export function tooDeepAt(text: string, max = maxNestingDepth): number {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Skip the string; an unterminated one is the syntax check's to report.
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return i;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return -1;
}

export function decodeJson(text: string, options: JsonDecodeOptions = {}): DecodedJson {
  return finishDecode(
    text,
    options,
    scanOrNone(text, () => scanDuplicateKeys(text)),
  );
}

/** Texts longer than this are scanned in slices (`decodeJsonSliced`). */
const slicedTextLength = 64 * 1024;

/**
 * `decodeJson` for a request body: a long text is scanned for duplicates in slices, letting other requests run
 * between them (machinery/cooperative.ts), and parsed in slices too (json-parse-sliced.ts).
 */
export async function decodeJsonSliced(text: string, options: JsonDecodeOptions = {}): Promise<DecodedJson> {
  if (text.length <= slicedTextLength) return decodeJson(text, options);
  checkDepth(text);
  let found: ReturnType<typeof scanDuplicateKeys> = [];
  try {
    found = await runSliced(scanDuplicateKeysWork(text));
  } catch {
    // Not JSON as far as the scanner can tell: JSON.parse (or the syntax finder) says why.
  }
  await breathe();
  let parsed: { value: unknown } | undefined;
  try {
    parsed = { value: await runSliced(parseJsonWork(text)) };
  } catch {
    // Not steppable: JSON.parse of the whole text says why (or parses what the stepper refused).
  }
  return finishDecode(text, options, found, parsed);
}

function checkDepth(text: string): void {
  const deep = tooDeepAt(text);
  if (deep >= 0) {
    const { line, column } = lineColumn(text, deep);
    throw new JsonSyntaxError(
      `invalid character ${quoteChar(text.charAt(deep))} exceeded max depth`,
      deep,
      line,
      column,
    );
  }
}

/** The duplicates the scan finds, after the depth check; none when the scanner cannot read the text. */
function scanOrNone(
  text: string,
  scan: () => ReturnType<typeof scanDuplicateKeys>,
): ReturnType<typeof scanDuplicateKeys> {
  checkDepth(text);
  try {
    return scan();
  } catch {
    // Not JSON as far as the scanner can tell: JSON.parse (or the syntax finder) says why.
    return [];
  }
}

function finishDecode(
  text: string,
  options: JsonDecodeOptions,
  found: ReturnType<typeof scanDuplicateKeys>,
  parsed?: { value: unknown },
): DecodedJson {
  let value: unknown;
  try {
    value = parsed !== undefined ? parsed.value : (JSON.parse(text) as unknown);
  } catch {
    const problem = findSyntaxError(text) ?? { message: 'invalid JSON', offset: 0, line: 1, column: 1 };
    throw new JsonSyntaxError(problem.message, problem.offset, problem.line, problem.column);
  }
  if (found.length === 0) return { value, duplicates: [] };
  if (options.mergeDuplicates === true) value = mergeRepeated(text, value, found);
  const lines = lineNumbers(
    text,
    found.map((d) => d.offset),
  );
  const duplicates = found.map((d, k) => ({
    path: formatPath(d.segments),
    segments: d.segments,
    keysBefore: d.keysBefore,
    offset: d.offset,
    line: lines[k] ?? 1,
  }));
  return { value, duplicates };
}

type Container = Record<string, unknown> | unknown[];

function isContainer(v: unknown): v is Container {
  return typeof v === 'object' && v !== null;
}

/**
 * Typed decoding reuses what an earlier occurrence filled in: objects keep
 * fields the repeat does not set, lists keep merging element by element up
 * to the repeat's length.
 */
export function mergeTyped(earlier: unknown, later: unknown): unknown {
  if (Array.isArray(earlier) && Array.isArray(later))
    return later.map((item, i) => (i < earlier.length ? mergeTyped(earlier[i], item) : item));
  if (isContainer(earlier) && isContainer(later) && !Array.isArray(earlier) && !Array.isArray(later)) {
    const out: Record<string, unknown> = { ...earlier };
    for (const [k, v] of Object.entries(later))
      out[k] = Object.hasOwn(earlier, k) ? mergeTyped(earlier[k], v) : v;
    return out;
  }
  return later;
}

function mergeRepeated(text: string, root: unknown, found: ReturnType<typeof scanDuplicateKeys>): unknown {
  // Fold every run of repeats of one field in document order, then write the results back, outer fields first.
  const folded = new Map<string, { segments: PathSegment[]; value: unknown }>();
  for (const d of found) {
    const open = text.charCodeAt(d.value);
    if (open !== 0x7b && open !== 0x5b) continue;
    const key = JSON.stringify(d.segments);
    const earlier = folded.get(key)?.value ?? parseAt(text, d.previousValue);
    folded.set(key, { segments: d.segments, value: mergeTyped(earlier, parseAt(text, d.value)) });
  }
  const writes = [...folded.values()].sort((a, b) => a.segments.length - b.segments.length);
  for (const w of writes) {
    let parent: unknown = root;
    for (const s of w.segments.slice(0, -1))
      parent = isContainer(parent) ? (parent as Record<string | number, unknown>)[s] : undefined;
    const last = w.segments[w.segments.length - 1];
    if (isContainer(parent) && last !== undefined)
      (parent as Record<string | number, unknown>)[last] = w.value;
  }
  return root;
}

/** 1-based line numbers of ascending offsets, in one pass. */
function lineNumbers(text: string, offsets: readonly number[]): number[] {
  const out: number[] = [];
  let line = 1;
  let from = 0;
  for (const offset of offsets) {
    for (let k = text.indexOf('\n', from); k >= 0 && k < offset; k = text.indexOf('\n', k + 1)) {
      line++;
      from = k + 1;
    }
    out.push(line);
  }
  return out;
}

function parseAt(text: string, start: number): unknown {
  return JSON.parse(text.slice(start, valueEnd(text, start))) as unknown;
}
