/**
 * Per-kind size limits of the real server's validation, as exported checks
 * that the kinds' strategies call with the object being written: the data
 * of a ConfigMap and of a Secret may hold at most 1 MiB (`MaxSecretSize`,
 * so that one object stays well under etcd's request limit), and an
 * events.k8s.io Event's note at most 1 KiB. Each returns the 422 causes in
 * the real server's words, empty when the object fits.
 */

import type { KubeObject } from '../../api/meta';
import { fieldError, type FieldError } from '../../machinery/field-errors';
import { isPlainObject } from '../../machinery/json';

/** `core.MaxSecretSize`: what a ConfigMap's or a Secret's data may total, in bytes. */
export const maxSecretSize = 1024 * 1024;

/** `NoteLengthLimit` of events.k8s.io Events. */
export const eventNoteLengthLimit = 1024;

const utf8 = new TextEncoder();

function utf8Length(value: string): number {
  return utf8.encode(value).length;
}

/** Bytes a base64 string decodes to (the server holds `[]byte`; the wire holds base64). */
function base64DecodedLength(value: string): number {
  const clean = value.replace(/\s/g, '');
  let padding = 0;
  if (clean.endsWith('==')) padding = 2;
  else if (clean.endsWith('=')) padding = 1;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}

function stringEntries(value: unknown): [string, string][] {
  if (!isPlainObject(value)) return [];
  return Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string');
}

/**
 * `ValidateConfigMap`'s size rule: `data` (UTF-8 bytes) and `binaryData`
 * (decoded bytes) together at most 1 MiB, reported on the whole object
 * (`[]: Too long: must have at most 1048576 bytes`).
 */
export function validateConfigMapSize(obj: KubeObject): FieldError[] {
  let total = 0;
  for (const [, v] of stringEntries(obj.data)) total += utf8Length(v);
  for (const [, v] of stringEntries(obj.binaryData)) total += base64DecodedLength(v);
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
