/**
 * Type mismatches as the real server meets them when it turns a strategic
 * merge patch's result — a generic map — into a built-in kind's Go struct
 * (`runtime.DefaultUnstructuredConverter.FromUnstructured`): a label map
 * patched to a string is `cannot restore map from string`, a list patched
 * to a number `cannot restore slice from int64`, a string field given a
 * number `cannot convert int64 to string`. Struct fields are visited in
 * their Go order and the first mismatch wins, as the converter returns at
 * the first error; map keys in sorted order. Types with their own JSON
 * decoding (times, quantities, int-or-string, raw JSON) are left to the
 * JSON decoder's check (`decode-types.ts`).
 */

import type { DefinitionSet, SchemaNode } from '../../machinery/schema';
import { goFieldOrder } from '../go-field-order';

class Mismatch {
  constructor(readonly message: string) {}
}

/** Go's reflect kind of a value decoded from JSON (integers as int64). */
function kindOf(value: unknown): string {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int64' : 'float64';
  if (Array.isArray(value)) return 'slice';
  return 'map';
}

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The Go type of a scalar schema node. */
function scalarType(node: SchemaNode): string | undefined {
  switch (node.type) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'integer':
      return node.format === 'int32' ? 'int32' : 'int64';
    case 'number':
      return 'float64';
    default:
      return undefined;
  }
}

/** The converter's rule for simple types: JSON's four groups (bool, integers, floats, string) do not mix. */
function scalar(dt: string, value: unknown): void {
  const st = kindOf(value);
  if (st === dt) return;
  const integer = (t: string) => t === 'int32' || t === 'int64';
  if (st === 'int64' && (integer(dt) || dt === 'float64')) return;
  if (st === 'float64' && integer(dt)) {
    if (Number.isInteger(value)) return;
    throw new Mismatch(`cannot convert float64 to ${dt}`);
  }
  // Go converts an integer to a string (a rune), so the converter sees a conversion it refuses.
  if (st === 'int64' && dt === 'string') throw new Mismatch('cannot convert int64 to string');
  throw new Mismatch(`unrecognized type: ${dt}`);
}

function visit(defs: DefinitionSet, node: SchemaNode, value: unknown, depth: number): void {
  if (value === null || value === undefined || depth > 200) return;
  if (node.ref !== undefined) {
    const def = defs[node.ref];
    const props = def?.properties;
    // A type of its own JSON form (no fields in the facts): decoded as JSON, checked elsewhere.
    if (props === undefined || Object.keys(props).length === 0) return;
    if (!isMap(value)) throw new Mismatch(`cannot restore struct from: ${kindOf(value)}`);
    const order = goFieldOrder(node.ref) ?? Object.keys(props);
    for (const name of order) {
      const child = props[name];
      if (child !== undefined && value[name] !== undefined) visit(defs, child, value[name], depth + 1);
    }
    return;
  }
  if (node.type === 'array') {
    // A []byte field holds base64 text in its generic form.
    if (typeof value === 'string' && node.format === 'byte') return;
    if (!Array.isArray(value)) throw new Mismatch(`cannot restore slice from ${kindOf(value)}`);
    const items = node.items;
    if (items !== undefined) for (const item of value) visit(defs, items, item, depth + 1);
    return;
  }
  if (node.type === 'object' && node.additionalProperties !== undefined) {
    if (!isMap(value)) throw new Mismatch(`cannot restore map from ${kindOf(value)}`);
    const values = node.additionalProperties;
    if (typeof values === 'object')
      for (const key of Object.keys(value).sort()) visit(defs, values, value[key], depth + 1);
    return;
  }
  const dt = node.format === 'byte' ? undefined : scalarType(node);
  if (dt !== undefined) scalar(dt, value);
}

/** The converter's error for the first value of `obj` that does not fit the kind at `root`, or undefined. */
export function fromUnstructuredError(
  defs: DefinitionSet,
  root: SchemaNode,
  obj: unknown,
): string | undefined {
  try {
    visit(defs, root, obj, 0);
    return undefined;
  } catch (e) {
    if (e instanceof Mismatch) return e.message;
    throw e;
  }
}
