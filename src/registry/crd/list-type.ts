/**
 * The guarantees of `x-orch-list-type` on custom resource data, as the
 * real server checks them: items of a `set` are unique, items of a `map`
 * are objects whose key fields are present, scalar and unique together.
 * Duplicates are reported at each later occurrence.
 */

import { fieldError, GoValueText, type FieldError } from '../../machinery/field-errors';
import { goQuote } from '../../machinery/go-format';
import { deepEqual, isPlainObject } from '../../machinery/json';
import type { SchemaNode } from '../../machinery/schema';
import { child, index } from './paths';

/** Go's `%#v` of a key map, as a Duplicate error shows it. */
function goKeyMap(keys: Record<string, unknown>): GoValueText {
  const entries = Object.keys(keys)
    .sort()
    .map((k) => `${goQuote(k)}:${goScalar(keys[k])}`);
  return new GoValueText(`map[string]interface {}{${entries.join(', ')}}`);
}

function goScalar(v: unknown): string {
  if (typeof v === 'string') return goQuote(v);
  return String(v);
}

function isScalar(v: unknown): boolean {
  return v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
}

function validateList(path: string, s: SchemaNode, list: unknown[]): FieldError[] {
  const errs: FieldError[] = [];
  if (s.listType === 'set') {
    list.forEach((item, i) => {
      if (list.findIndex((other) => deepEqual(other, item)) < i)
        errs.push(fieldError.duplicate(index(path, i), item));
    });
  } else if (s.listType === 'map') {
    const keys = s.listMapKeys ?? [];
    const seen: Record<string, unknown>[] = [];
    list.forEach((item, i) => {
      if (!isPlainObject(item)) {
        errs.push(
          fieldError.invalid(index(path, i), item, 'must be an object for an array of list-type map'),
        );
        return;
      }
      const keyValues: Record<string, unknown> = {};
      let complete = true;
      for (const k of keys) {
        const v = item[k] ?? s.items?.properties?.[k]?.default;
        if (v === undefined) {
          errs.push(fieldError.required(child(index(path, i), k), ''));
          complete = false;
        } else if (!isScalar(v)) {
          errs.push(fieldError.invalid(child(index(path, i), k), v, 'must be a scalar'));
          complete = false;
        } else keyValues[k] = v;
      }
      if (!complete) return;
      if (seen.some((other) => deepEqual(other, keyValues)))
        errs.push(fieldError.duplicate(index(path, i), goKeyMap(keyValues)));
      else seen.push(keyValues);
    });
  }
  return errs;
}

export function validateListSetsAndMaps(s: SchemaNode | undefined, value: unknown, path = ''): FieldError[] {
  if (s === undefined) return [];
  if (Array.isArray(value)) {
    const errs = validateList(path, s, value);
    value.forEach((item, i) => errs.push(...validateListSetsAndMaps(s.items, item, index(path, i))));
    return errs;
  }
  if (!isPlainObject(value)) return [];
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(value)) {
    const prop = s.properties?.[k];
    if (prop !== undefined) errs.push(...validateListSetsAndMaps(prop, v, child(path, k)));
    else if (typeof s.additionalProperties === 'object')
      errs.push(...validateListSetsAndMaps(s.additionalProperties, v, `${path}[${k}]`));
  }
  return errs;
}
