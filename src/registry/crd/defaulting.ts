/**
 * Defaulting of custom resource data from the schema's `default`s, as the
 * real server applies them (on create, update, patch and apply, and again
 * when reading from storage): an absent property gets its default, a
 * non-nullable `null` that has a default gets it too, and defaults nest (a
 * defaulted object is then defaulted inside). Items and map values are
 * defaulted through their schema.
 */

import { deepClone, isPlainObject } from '../../machinery/json';
import type { SchemaNode } from '../../machinery/schema';

function isNonNullableNull(v: unknown, s: SchemaNode | undefined): boolean {
  return v === null && s !== undefined && s.default !== undefined && s.nullable !== true;
}

export function applySchemaDefaults(value: unknown, s: SchemaNode | undefined): void {
  if (s === undefined) return;
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      if (isNonNullableNull(item, s.items)) value[i] = deepClone(s.items?.default);
      applySchemaDefaults(value[i], s.items);
    });
    return;
  }
  if (!isPlainObject(value)) return;
  for (const [k, prop] of Object.entries(s.properties ?? {})) {
    if (prop.default === undefined) continue;
    if (value[k] === undefined || isNonNullableNull(value[k], prop)) value[k] = deepClone(prop.default);
  }
  const extra = typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
  for (const k of Object.keys(value)) {
    const prop = s.properties?.[k];
    if (prop !== undefined) applySchemaDefaults(value[k], prop);
    else if (extra !== undefined) {
      if (isNonNullableNull(value[k], extra)) value[k] = deepClone(extra.default);
      applySchemaDefaults(value[k], extra);
    }
  }
}

/** Whether any node of the schema has a default (reads skip defaulting otherwise). */
export function hasDefaults(s: SchemaNode | undefined): boolean {
  if (s === undefined) return false;
  if (s.default !== undefined) return true;
  if (Object.values(s.properties ?? {}).some(hasDefaults)) return true;
  if (hasDefaults(s.items)) return true;
  return typeof s.additionalProperties === 'object' && hasDefaults(s.additionalProperties);
}
