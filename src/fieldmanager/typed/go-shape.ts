/**
 * Built-in objects as the real server holds them while it tracks fields:
 * as Go structs, where a struct field that is not a pointer is always
 * present (`{}` when unset), a timestamp is `null` when unset, and a field
 * without `omitempty` (a required one) is present with its zero value.
 * Comparing shaped objects reproduces which containers the real server
 * sees appear — the `".": {}` entries of an updater's managedFields — e.g.
 * `spec.strategy` of a Deployment always exists, `metadata.labels` does
 * not. The schema facts mark non-pointer structs with `default: {}`.
 */

import type { JsonValue } from '../../api/meta';
import { isPlainObject, knownToBeWide } from '../../machinery/json';
import { resolveSchemaOnce, type DefinitionSet, type SchemaNode } from '../../machinery/schema';

/**
 * `value` as the Go struct holds it, with the fields a Go struct always has filled in: a copy where
 * anything is filled in; a list or map of scalars is the value itself (nothing in it changes), which
 * keeps a wide map (a ConfigMap's 100,000 keys) from being copied on every write. Read-only: the
 * result may share parts with `value`.
 */
export function goShape(defs: DefinitionSet, value: JsonValue, ref: SchemaNode | undefined): JsonValue {
  const node = resolveSchemaOnce(defs, ref);
  if (node === undefined) return value;
  if (Array.isArray(value))
    return node.items === undefined || isScalar(defs, node.items)
      ? value
      : value.map((v) => goShape(defs, v, node.items));
  if (!isPlainObject(value)) return value;
  const obj = value as Record<string, JsonValue>;
  if (node.properties !== undefined) {
    const out: Record<string, JsonValue> = {};
    const required = node.required ?? [];
    for (const [key, v] of Object.entries(obj)) {
      const prop = node.properties[key];
      if (v === null && prop !== undefined) continue; // decoding null into a Go field leaves it unset
      if (prop !== undefined && isOmittedEmpty(defs, v, prop, required.includes(key))) continue;
      out[key] = prop !== undefined ? goShape(defs, v, prop) : v;
    }
    for (const [name, prop] of Object.entries(node.properties)) {
      if (Object.hasOwn(out, name)) continue;
      const zero = zeroOf(defs, prop, required.includes(name));
      if (zero !== undefined) out[name] = zero;
    }
    return out;
  }
  if (isPlainObject(node.additionalProperties)) {
    const element = node.additionalProperties as SchemaNode;
    if (isScalar(defs, element)) return value;
    const out: Record<string, JsonValue> = {};
    for (const [key, v] of Object.entries(obj)) out[key] = goShape(defs, v, element);
    return out;
  }
  return value;
}

const scalarTypes = new Set(['string', 'integer', 'number', 'boolean']);

/** A schema whose values goShape leaves as they are: a plain string, number or boolean. */
function isScalar(defs: DefinitionSet, ref: SchemaNode): boolean {
  const r = resolveSchemaOnce(defs, ref);
  return (
    r !== undefined &&
    r.properties === undefined &&
    r.additionalProperties === undefined &&
    r.items === undefined &&
    r.type !== undefined &&
    scalarTypes.has(r.type)
  );
}

/** An empty list or map in an `omitempty` field: the Go struct marshals it as absent. */
function isOmittedEmpty(defs: DefinitionSet, v: JsonValue, prop: SchemaNode, required: boolean): boolean {
  if (required) return false;
  if (Array.isArray(v)) return v.length === 0;
  // A value already seen wide is not empty: listing its 100,000 keys to learn so was one long step.
  if (!isPlainObject(v) || knownToBeWide(v) || Object.keys(v).length > 0) return false;
  const r = resolveSchemaOnce(defs, prop);
  return (
    r !== undefined &&
    r.properties === undefined &&
    (r.additionalProperties !== undefined || r.preserveUnknownFields === true)
  );
}

/**
 * Normalizes an object in place as storing it through Go structs does:
 * nulls disappear (a null non-pointer struct becomes `{}`), and so do
 * empty lists and maps of `omitempty` fields, once their contents are
 * normalized.
 */
export function normalizeAsGo(defs: DefinitionSet, value: JsonValue, ref: SchemaNode | undefined): void {
  const node = resolveSchemaOnce(defs, ref);
  if (Array.isArray(value)) {
    for (const v of value) normalizeAsGo(defs, v, node?.items);
    return;
  }
  if (!isPlainObject(value)) return;
  const obj = value as Record<string, JsonValue>;
  const required = node?.required ?? [];
  const element = isPlainObject(node?.additionalProperties)
    ? (node?.additionalProperties as SchemaNode)
    : undefined;
  for (const [key, v] of Object.entries(obj)) {
    const declared = node?.properties?.[key];
    const prop = declared ?? element;
    if (v === null) {
      if (
        declared !== undefined &&
        isEmptyObject(declared.default) &&
        resolveSchemaOnce(defs, declared)?.properties !== undefined
      )
        obj[key] = {};
      else delete obj[key];
      continue;
    }
    normalizeAsGo(defs, v, prop);
    if (declared !== undefined && isOmittedEmpty(defs, v, declared, required.includes(key))) delete obj[key];
  }
}

function isEmptyObject(v: JsonValue | undefined): boolean {
  return isPlainObject(v) && Object.keys(v).length === 0;
}

/** What an unset field looks like in the marshaled Go struct; undefined when it is omitted. */
function zeroOf(defs: DefinitionSet, prop: SchemaNode, required: boolean): JsonValue | undefined {
  const r = resolveSchemaOnce(defs, prop);
  if (r === undefined) return undefined;
  if (isEmptyObject(prop.default)) {
    if (r.properties !== undefined) return goShape(defs, {}, prop);
    if (r.format === 'date-time') return null;
    if (r.intOrString === true) return 0;
    if (prop.ref?.endsWith('resource.Quantity') === true) return '0';
    return undefined;
  }
  if (!required) return undefined;
  switch (r.type) {
    case 'string':
      return r.format === 'date-time' ? null : '';
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    default:
      return null;
  }
}
