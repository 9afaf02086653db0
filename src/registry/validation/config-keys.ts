/**
 * Keys of a ConfigMap's or Secret's data maps: at most 253 characters of
 * alphanumerics, `-`, `_` and `.`, each present once across the maps — the
 * real server's IsConfigMapKey rule and its messages.
 */

import type { KubeObject } from '../../api/meta';
import { pauseDue, runNow, type Work } from '../../machinery/cooperative';
import { fieldError, type FieldError } from '../../machinery/field-errors';

const configKeyRe = /^[-._a-zA-Z0-9]+$/;

export function validateConfigKeys(obj: KubeObject, fields: readonly string[]): FieldError[] {
  return runNow(configKeysWork(obj, fields));
}

/** `validateConfigKeys` as a pass that may pause between keys (a wide ConfigMap's, in slices). */
export function* configKeysWork(obj: KubeObject, fields: readonly string[]): Work<FieldError[]> {
  const errs: FieldError[] = [];
  // The maps read so far: a key is a duplicate when an earlier map has it (no set of every key: a ConfigMap
  // may hold 100,000 of them).
  const earlier: Record<string, unknown>[] = [];
  for (const field of fields) {
    const data = obj[field];
    if (typeof data !== 'object' || data === null || Array.isArray(data)) continue;
    // Object.keys, not for…in: for…in lists every key (and the prototype's) before the first, in one step.
    for (const key of Object.keys(data)) {
      if (key.length > 253)
        errs.push(fieldError.invalid(`${field}[${key}]`, key, 'must be no more than 253 characters'));
      if (!configKeyRe.test(key))
        errs.push(
          fieldError.invalid(
            `${field}[${key}]`,
            key,
            "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
          ),
        );
      if (earlier.some((m) => Object.hasOwn(m, key)))
        errs.push(fieldError.invalid(`${field}[${key}]`, key, 'duplicate of key present in data'));
      if (pauseDue()) yield;
    }
    earlier.push(data as Record<string, unknown>);
  }
  return errs;
}
