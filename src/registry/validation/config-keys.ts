/**
 * Keys of a ConfigMap's or Secret's data maps: at most 253 characters of
 * alphanumerics, `-`, `_` and `.`, each present once across the maps — the
 * real server's IsConfigMapKey rule and its messages.
 */

import type { KubeObject } from '../../api/meta';
import { fieldError, type FieldError } from '../../machinery/field-errors';

const configKeyRe = /^[-._a-zA-Z0-9]+$/;

export function validateConfigKeys(obj: KubeObject, fields: readonly string[]): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  for (const field of fields) {
    const data = obj[field];
    if (typeof data !== 'object' || data === null || Array.isArray(data)) continue;
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
      if (seen.has(key))
        errs.push(fieldError.invalid(`${field}[${key}]`, key, 'duplicate of key present in data'));
      seen.add(key);
    }
  }
  return errs;
}
