/**
 * The OpenAPI schema published for a custom resource's kind, built as the
 * real CRD OpenAPI builder builds it (`buildKubeNative`), so that kubectl's
 * client-side validation agrees with the server's:
 *
 * - OpenAPI 3: the structural schema with int-or-string unfolded
 *   (`anyOf: [{type: integer}, {type: string}]`), nullable, defaults, list
 *   and map markers, preserve-unknown-fields, embedded resources (which get
 *   `apiVersion`, `kind` and `metadata`, and require the first two), and
 *   the kind's `apiVersion`, `kind` and `metadata` at the top.
 * - Swagger 2.0, which kubectl validates `kubectl apply` against and which
 *   cannot say "unknown fields allowed": a root that preserves unknown
 *   fields is `{type: object}` alone; below it, junctors are dropped, a
 *   nullable node loses its type, items and properties, a node preserving
 *   unknown fields loses its items and properties (and `type: object`), an
 *   array left without items loses its type, and nullable properties are no
 *   longer required.
 */

import type { JsonObject, JsonValue } from '../../api/meta';
import type { SchemaNode } from '../../machinery/schema';
import type { SchemaRenderer } from './schema';

const objectMeta = 'apimachinery.pkg.apis.meta.v1.ObjectMeta';

/** `ToStructuralOpenAPIV2`: what Swagger 2.0 (and kubectl reading it) can express of a structural schema. */
function toV2(node: SchemaNode): SchemaNode {
  const out: SchemaNode = { ...node };
  delete out.allOf;
  delete out.anyOf;
  delete out.oneOf;
  delete out.not;
  if (out.nullable === true) {
    delete out.type;
    delete out.nullable;
    delete out.items;
    delete out.properties;
  }
  if (out.preserveUnknownFields === true) {
    delete out.items;
    delete out.properties;
  }
  if (out.items === undefined && out.type === 'array') delete out.type;
  if (out.preserveUnknownFields === true && out.type === 'object') delete out.type;
  if (out.properties !== undefined) {
    const props: Record<string, SchemaNode> = {};
    const nullable = new Set<string>();
    for (const [k, v] of Object.entries(out.properties)) {
      if (v.nullable === true) nullable.add(k);
      props[k] = toV2(v);
    }
    out.properties = props;
    if (out.required !== undefined) {
      const required = out.required.filter((r) => !nullable.has(r));
      if (required.length > 0) out.required = required;
      else delete out.required;
    }
  }
  if (out.items !== undefined) out.items = toV2(out.items);
  if (typeof out.additionalProperties === 'object') {
    if (out.additionalProperties.nullable === true) delete out.required;
    out.additionalProperties = toV2(out.additionalProperties);
  }
  return out;
}

/** `Unfold`: an int-or-string node says so in value validations too. */
function unfold(node: SchemaNode): SchemaNode {
  const out: SchemaNode = { ...node };
  if (out.properties !== undefined)
    out.properties = Object.fromEntries(Object.entries(out.properties).map(([k, v]) => [k, unfold(v)]));
  if (out.items !== undefined) out.items = unfold(out.items);
  if (typeof out.additionalProperties === 'object')
    out.additionalProperties = unfold(out.additionalProperties);
  if (out.intOrString === true && !isIntOrStringPattern(out)) {
    const both: SchemaNode[] = [{ type: 'integer' }, { type: 'string' }];
    if (out.anyOf === undefined) out.anyOf = both;
    else out.allOf = [{ anyOf: both }, ...(out.allOf ?? [])];
  }
  return out;
}

function isIntOrStringAnyOf(list: SchemaNode[] | undefined): boolean {
  return (
    list !== undefined &&
    list.length === 2 &&
    list[0]?.type === 'integer' &&
    list[1]?.type === 'string' &&
    Object.keys(list[0]).length === 1 &&
    Object.keys(list[1]).length === 1
  );
}

/** The two spellings an int-or-string node may already carry (`anyOf`, or the first `allOf`'s `anyOf`). */
function isIntOrStringPattern(node: SchemaNode): boolean {
  return isIntOrStringAnyOf(node.anyOf) || isIntOrStringAnyOf(node.allOf?.[0]?.anyOf);
}

/** `ToKubeOpenAPI` of one node: the structural schema's fields, markers in the profile's spelling. */
function render(r: SchemaRenderer, node: SchemaNode): JsonObject {
  const out: JsonObject = {};
  if (node.type !== undefined) out.type = node.type;
  if (node.nullable === true && r.flavor === 'v3') out.nullable = true;
  if (node.description !== undefined) out.description = node.description;
  if (node.title !== undefined) out.title = node.title;
  if (node.default !== undefined) out.default = node.default;
  if (node.externalDocs !== undefined) out.externalDocs = { ...node.externalDocs };
  if (node.format !== undefined) out.format = node.format;
  for (const k of [
    'maximum',
    'exclusiveMaximum',
    'minimum',
    'exclusiveMinimum',
    'maxLength',
    'minLength',
    'pattern',
    'maxItems',
    'minItems',
    'uniqueItems',
    'multipleOf',
    'maxProperties',
    'minProperties',
  ] as const) {
    const v = node[k];
    if (v !== undefined) out[k] = v;
  }
  if (node.enum !== undefined) out.enum = node.enum;
  if (node.required !== undefined && node.required.length > 0) out.required = [...node.required];
  for (const k of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = node[k];
    if (list !== undefined) out[k] = list.map((s) => render(r, s));
  }
  if (node.not !== undefined) out.not = render(r, node.not);
  if (node.items !== undefined) out.items = render(r, node.items);
  if (node.properties !== undefined) {
    const props: JsonObject = {};
    for (const [k, v] of Object.entries(node.properties)) props[k] = render(r, v);
    out.properties = props;
  }
  if (node.additionalProperties !== undefined)
    out.additionalProperties =
      typeof node.additionalProperties === 'boolean'
        ? node.additionalProperties
        : render(r, node.additionalProperties);
  if (node.preserveUnknownFields === true) out[r.ext('preserve-unknown-fields')] = true;
  if (node.embeddedResource === true) out[r.ext('embedded-resource')] = true;
  if (node.intOrString === true) out[r.ext('int-or-string')] = true;
  if (node.listMapKeys !== undefined && node.listMapKeys.length > 0)
    out[r.ext('list-map-keys')] = [...node.listMapKeys];
  if (node.listType !== undefined) out[r.ext('list-type')] = node.listType;
  if (node.mapType !== undefined) out[r.ext('map-type')] = node.mapType;
  if (node.validations !== undefined && node.validations.length > 0)
    out[r.ext('validations')] = node.validations.map((v) => ({ ...v })) as unknown as JsonValue;
  return out;
}

function objectMetaRef(r: SchemaRenderer, used: Set<string>): JsonObject {
  used.add(objectMeta);
  return { $ref: r.refTo(objectMeta) };
}

/** `addEmbeddedProperties`: an embedded resource's apiVersion, kind and metadata, kind and apiVersion required. */
function addEmbedded(r: SchemaRenderer, s: JsonObject, used: Set<string>): void {
  const props = s.properties as JsonObject | undefined;
  if (props !== undefined) for (const v of Object.values(props)) addEmbedded(r, v as JsonObject, used);
  if (typeof s.items === 'object' && s.items !== null && !Array.isArray(s.items))
    addEmbedded(r, s.items, used);
  if (typeof s.additionalProperties === 'object' && s.additionalProperties !== null)
    addEmbedded(r, s.additionalProperties as JsonObject, used);
  // Swagger 2.0 cannot allow unknown fields beside known ones: such a node stays open.
  if (r.flavor === 'v2' && s[r.ext('preserve-unknown-fields')] === true) return;
  if (s[r.ext('embedded-resource')] !== true) return;
  const own = (s.properties as JsonObject | undefined) ?? {};
  own.apiVersion = { type: 'string' };
  own.kind = { type: 'string' };
  own.metadata = objectMetaRef(r, used);
  s.properties = own;
  const required = Array.isArray(s.required) ? (s.required as string[]) : [];
  for (const k of ['kind', 'apiVersion']) if (!required.includes(k)) required.push(k);
  s.required = required;
}

/** The published definition of a custom resource's kind (without its group/version/kind marker). */
export function customResourceSchema(
  r: SchemaRenderer,
  root: SchemaNode | undefined,
  used: Set<string>,
): JsonObject {
  // Without properties kubectl would (wrongly) refuse everything but apiVersion, kind and metadata.
  if (root === undefined || (r.flavor === 'v2' && root.preserveUnknownFields === true))
    return { type: 'object' };
  const out = render(r, r.flavor === 'v2' ? toV2(root) : unfold(root));
  const props = (out.properties as JsonObject | undefined) ?? {};
  props.metadata = objectMetaRef(r, used);
  props.apiVersion = { type: 'string' };
  props.kind = { type: 'string' };
  out.properties = props;
  addEmbedded(r, out, used);
  return out;
}
