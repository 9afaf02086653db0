/**
 * Type mismatches as the real server meets them while decoding a body into
 * a built-in kind's Go struct: `metadata.generateName: 123` cannot be
 * unmarshalled into a string, so the request is a 400 before any code reads
 * the object. This is the one check of a typed body's shape; everything
 * after it (defaulting, strategies, admission, validation) may rely on each
 * known field having its declared JSON type. Custom resources decode into
 * untyped maps and are checked by their schema instead (422).
 *
 * The message is Go's `json.UnmarshalTypeError`: the first mismatch in
 * document order, `json: cannot unmarshal number into Go struct field
 * ObjectMeta.metadata.generateName of type string`.
 */

import { resolveSchema, type DefinitionSet, type SchemaNode } from '../../machinery/schema';
import { decodeGoBase64, goBase64Error } from '../../machinery/go-base64';

/** Types with their own `UnmarshalJSON` that take any JSON value. */
const anyValue = new Set([
  'apimachinery.pkg.runtime.RawExtension',
  'apimachinery.pkg.apis.meta.v1.FieldsV1',
  'apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON',
  'apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray',
  'apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool',
  'apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray',
]);
const quantity = 'apimachinery.pkg.api.resource.Quantity';
const quantityPattern = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';

/** Where the decoder is: the innermost struct and the struct-field path to the value (Go leaves out indexes and map keys). */
interface Context {
  struct: string;
  path: string;
}

class Mismatch {
  constructor(readonly message: string) {}
}

/** Go's name of a definition's type, e.g. `v1.ObjectMeta` for `apimachinery.pkg.apis.meta.v1.ObjectMeta`. */
function goTypeOfRef(ref: string): string {
  const parts = ref.split('.');
  return parts.slice(-2).join('.');
}

function structName(ref: string): string {
  return ref.slice(ref.lastIndexOf('.') + 1);
}

/** Go's spelling of the type a schema node decodes into. */
function goType(defs: DefinitionSet, node: SchemaNode, depth = 0): string {
  if (node.ref !== undefined) return goTypeOfRef(node.ref);
  if (depth > 8) return 'interface {}';
  switch (node.type) {
    case 'string':
      return node.format === 'byte' ? '[]uint8' : 'string';
    case 'integer':
      return node.format === 'int32' ? 'int32' : 'int64';
    case 'number':
      return 'float64';
    case 'boolean':
      return 'bool';
    case 'array':
      return `[]${node.items === undefined ? 'interface {}' : goType(defs, node.items, depth + 1)}`;
    default: {
      const ap = node.additionalProperties;
      if (ap !== undefined && ap !== true && ap !== false) return `map[string]${goType(defs, ap, depth + 1)}`;
      return node.properties !== undefined ? 'struct' : 'map[string]interface {}';
    }
  }
}

/** How Go's decoder names the JSON value it could not store. */
function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object') return 'object';
  if (typeof value === 'boolean') return 'bool';
  return typeof value;
}

function mismatch(ctx: Context | undefined, what: string, type: string): Mismatch {
  return new Mismatch(
    ctx === undefined || ctx.path === ''
      ? `json: cannot unmarshal ${what} into Go value of type ${type}`
      : `json: cannot unmarshal ${what} into Go struct field ${ctx.struct}.${ctx.path} of type ${type}`,
  );
}

const int32Range = 2 ** 31;
const int64Range = 2 ** 63;

function check(defs: DefinitionSet, raw: SchemaNode, value: unknown, ctx: Context | undefined): void {
  if (value === null || value === undefined) return;
  const ref = raw.ref;
  if (ref !== undefined && anyValue.has(ref)) return;
  if (ref === quantity) {
    // Quantity.UnmarshalJSON reads a string or a bare number; anything else fails its parse, unwrapped.
    if (typeof value !== 'string' && typeof value !== 'number')
      throw new Mismatch(`quantities must match the regular expression '${quantityPattern}'`);
    return;
  }
  const node = resolveSchema(defs, raw);
  if (node === undefined) return;
  if (node.intOrString === true) {
    // IntOrString.UnmarshalJSON: a string, or else a fresh decode into int32 (no struct context).
    if (typeof value === 'string') return;
    if (typeof value !== 'number') throw mismatch(undefined, jsonKind(value), 'int32');
    if (!Number.isInteger(value) || Math.abs(value) >= int32Range)
      throw mismatch(undefined, `number ${String(value)}`, 'int32');
    return;
  }
  if (node.preserveUnknownFields === true && node.properties === undefined) return;
  if (node.type === 'string' && node.format === 'date-time' && ref !== undefined) {
    // metav1.Time.UnmarshalJSON decodes the value into a string first, in a decode of its own.
    if (typeof value !== 'string') throw mismatch(undefined, jsonKind(value), 'string');
    return;
  }
  // Go's name of the type (`goType`) is only spelled out for a mismatch: a wide map checks many values.
  switch (node.type) {
    case 'string':
      if (typeof value !== 'string') throw mismatch(ctx, jsonKind(value), goType(defs, raw));
      // A `[]byte` field is base64 in JSON; Go's decoder fails on the text itself, without a field path.
      if (node.format === 'byte') {
        const decoded = decodeGoBase64(value);
        if (!decoded.ok) throw new Mismatch(goBase64Error(decoded.offset));
      }
      return;
    case 'boolean':
      if (typeof value !== 'boolean') throw mismatch(ctx, jsonKind(value), goType(defs, raw));
      return;
    case 'integer': {
      if (typeof value !== 'number') throw mismatch(ctx, jsonKind(value), goType(defs, raw));
      const range = node.format === 'int32' ? int32Range : int64Range;
      if (!Number.isInteger(value) || value >= range || value < -range)
        throw mismatch(ctx, `number ${String(value)}`, goType(defs, raw));
      return;
    }
    case 'number':
      if (typeof value !== 'number') throw mismatch(ctx, jsonKind(value), goType(defs, raw));
      return;
    case 'array': {
      if (!Array.isArray(value)) throw mismatch(ctx, jsonKind(value), goType(defs, raw));
      const items = node.items;
      if (items !== undefined) for (const item of value) check(defs, items, item, ctx);
      return;
    }
    default:
      break;
  }
  if (node.type !== 'object' && node.properties === undefined && node.additionalProperties === undefined)
    return;
  if (typeof value !== 'object' || Array.isArray(value))
    throw mismatch(ctx, jsonKind(value), goType(defs, raw));
  const obj = value as Record<string, unknown>;
  const ap = node.additionalProperties;
  if (node.properties === undefined) {
    // A map: its values are decoded in the same struct-field context.
    if (ap !== undefined && ap !== true && ap !== false) {
      // A map of plain strings (labels, a ConfigMap's data) needs no more than a look at each value's type.
      const element = resolveSchema(defs, ap);
      if (ap.ref === undefined && element?.type === 'string' && element.format === undefined) {
        // Object.keys, not for…in: for…in on a wide map checks each key again as it goes (~3× the time).
        for (const k of Object.keys(obj)) {
          const v = obj[k];
          if (v !== null && v !== undefined && typeof v !== 'string')
            throw mismatch(ctx, jsonKind(v), goType(defs, ap));
        }
        return;
      }
      for (const k of Object.keys(obj)) check(defs, ap, obj[k], ctx);
    }
    return;
  }
  const struct = ref !== undefined ? structName(ref) : (ctx?.struct ?? '');
  // Keys, not entries: no pair made per member (the object does not change while it is checked).
  for (const key of Object.keys(obj)) {
    const child = obj[key];
    const field = node.properties[key];
    // Unknown fields are skipped by the decoder (field validation reports them).
    if (field === undefined) continue;
    const path = ctx === undefined || ctx.path === '' ? key : `${ctx.path}.${key}`;
    check(defs, field, child, { struct, path });
  }
}

/**
 * The Go decoder's error for the first value of `obj` whose JSON type does
 * not fit the kind's type at `root` (a definition ref), or undefined when it
 * would decode.
 */
export function decodeTypeError(defs: DefinitionSet, root: SchemaNode, obj: unknown): string | undefined {
  try {
    check(defs, root, obj, { struct: root.ref !== undefined ? structName(root.ref) : '', path: '' });
    return undefined;
  } catch (e) {
    if (e instanceof Mismatch) return e.message;
    throw e;
  }
}
