/**
 * The JSON a Go struct's zero value marshals to, read from the schema: a
 * field the schema gives a scalar default is a plain (non-`omitempty`)
 * scalar and appears as that zero; a field defaulted to `{}` is a plain
 * struct and appears as its own zero value; everything else (pointers,
 * `omitempty` fields, lists, maps) is absent. The real registry resets a
 * kind's status to its Go zero value on create, so this is what a new
 * object's `status` holds before the kind adds its own values.
 */

import { resolveSchema, type DefinitionSet, type SchemaNode } from './schema';
import type { JsonObject } from '../api/meta';
import { deepClone, isPlainObject } from './json';

const maxDepth = 16;

export function goZeroValue(defs: DefinitionSet, node: SchemaNode | undefined, depth = 0): JsonObject {
  const out: JsonObject = {};
  const schema = resolveSchema(defs, node);
  if (schema?.properties === undefined || depth > maxDepth) return out;
  for (const [name, prop] of Object.entries(schema.properties)) {
    const value = prop.default;
    if (value === undefined) continue;
    if (isPlainObject(value) && Object.keys(value).length === 0 && prop.ref !== undefined)
      out[name] = goZeroValue(defs, prop, depth + 1);
    else if (!isPlainObject(value) && !Array.isArray(value)) out[name] = deepClone(value);
  }
  return out;
}
