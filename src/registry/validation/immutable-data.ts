/**
 * ConfigMaps and Secrets marked `immutable: true`: their data and the mark
 * itself can no longer change (delete and recreate instead), and a Secret's
 * `type` never changes — the real server's update rules and messages.
 */

import type { KubeObject } from '../../api/meta';
import { deepEqual } from '../../machinery/json';
import { fieldError, type FieldError } from '../../machinery/field-errors';

const immutableWhenSet = 'field is immutable when `immutable` is set';

export function validateImmutableData(
  obj: KubeObject,
  old: KubeObject,
  fields: readonly string[],
): FieldError[] {
  if (old.immutable !== true) return [];
  const errs: FieldError[] = [];
  if (obj.immutable !== true) errs.push(fieldError.forbidden('immutable', immutableWhenSet));
  for (const f of fields)
    if (!deepEqual(obj[f] ?? null, old[f] ?? null)) errs.push(fieldError.forbidden(f, immutableWhenSet));
  return errs;
}

export function validateSecretTypeUnchanged(obj: KubeObject, old: KubeObject): FieldError[] {
  const type = (o: KubeObject): string => (typeof o.type === 'string' && o.type !== '' ? o.type : 'Opaque');
  return type(obj) === type(old) ? [] : [fieldError.invalid('type', type(obj), 'field is immutable')];
}
