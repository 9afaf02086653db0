/**
 * Per-kind size limits of the real server's validation, as exported checks
 * that the kinds' strategies call with the object being written: the data
 * of a ConfigMap and of a Secret may hold at most 1 MiB (`MaxSecretSize`,
 * so that one object stays well under etcd's request limit), and an
 * events.k8s.io Event's note at most 1 KiB. Each returns the 422 causes in
 * the real server's words, empty when the object fits.
 */

import type { KubeObject } from '../../api/meta';
import { pauseDue, runNow, type Work } from '../../machinery/cooperative';
import { fieldError, type FieldError } from '../../machinery/field-errors';
import { isPlainObject } from '../../machinery/json';

/** `core.MaxSecretSize`: what a ConfigMap's or a Secret's data may total, in bytes. */
export const maxSecretSize = 1024 * 1024;

/** `NoteLengthLimit` of events.k8s.io Events. */
export const eventNoteLengthLimit = 1024;

/** UTF-8 length without encoding: one byte per ASCII unit, more above; a lone surrogate is U+FFFD (3). */
function utf8Length(value: string): number {
  let n = value.length;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < value.length) {
      const d = value.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 2; // a pair: 4 bytes for 2 units
        i++;
      } else n += 2;
    } else n += 2;
  }
  return n;
}

/** Bytes a base64 string decodes to (the server holds `[]byte`; the wire holds base64). */
function base64DecodedLength(value: string): number {
  const clean = value.replace(/\s/g, '');
  let padding = 0;
  if (clean.endsWith('==')) padding = 2;
  else if (clean.endsWith('=')) padding = 1;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}

/** The string values of a map, without building its entries (a ConfigMap may hold 100,000 keys). */
function* stringEntries(value: unknown): Generator<[string, string]> {
  if (!isPlainObject(value)) return;
  const map = value as Record<string, unknown>;
  for (const k in map) {
    const v = map[k];
    if (typeof v === 'string') yield [k, v];
  }
}

/** The sum of `size` over a map's string values, a pass that may pause between them (a map may be wide). */
function* sumOfStrings(value: unknown, size: (v: string) => number): Work<number> {
  if (!isPlainObject(value)) return 0;
  const map = value as Record<string, unknown>;
  let total = 0;
  // Object.keys, not for…in: for…in lists every key (and the prototype's) before the first, in one step.
  for (const k of Object.keys(map)) {
    const v = map[k];
    if (typeof v === 'string') total += size(v);
    if (pauseDue()) yield;
  }
  return total;
}

/**
 * `ValidateConfigMap`'s size rule: `data` (UTF-8 bytes) and `binaryData`
 * (decoded bytes) together at most 1 MiB, reported on the whole object
 * (`[]: Too long: must have at most 1048576 bytes`).
 */
export function validateConfigMapSize(obj: KubeObject): FieldError[] {
  return runNow(configMapSizeWork(obj));
}

/** `validateConfigMapSize` as a pass that may pause between values (a wide ConfigMap's, in slices). */
export function* configMapSizeWork(obj: KubeObject): Work<FieldError[]> {
  const total =
    (yield* sumOfStrings(obj.data, utf8Length)) + (yield* sumOfStrings(obj.binaryData, base64DecodedLength));
  return total > maxSecretSize ? [fieldError.tooLong('[]', maxSecretSize)] : [];
}

/**
 * `ValidateSecret`'s size rule: the decoded `data`, with `stringData`
 * merged over it as the conversion to the internal type merges it, at most
 * 1 MiB (`data: Too long: must have at most 1048576 bytes`).
 */
export function validateSecretSize(obj: KubeObject): FieldError[] {
  const sizes = new Map<string, number>();
  for (const [k, v] of stringEntries(obj.data)) sizes.set(k, base64DecodedLength(v));
  for (const [k, v] of stringEntries(obj.stringData)) sizes.set(k, utf8Length(v));
  let total = 0;
  for (const size of sizes.values()) total += size;
  return total > maxSecretSize ? [fieldError.tooLong('data', maxSecretSize)] : [];
}

/** events.k8s.io/v1 Event: `note: Too long: must have at most 1024 bytes`. */
export function validateEventNoteSize(obj: KubeObject): FieldError[] {
  const note = obj.note;
  if (typeof note !== 'string') return [];
  return utf8Length(note) > eventNoteLengthLimit ? [fieldError.tooLong('note', eventNoteLengthLimit)] : [];
}
