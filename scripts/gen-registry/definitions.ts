/**
 * Turns upstream OpenAPI component schemas into the project's neutral
 * `DefinitionSet`: no description text, neutral marker names, `ref` instead
 * of `$ref`, `allOf:[{$ref}]` wrappers flattened, and only the v1.27 shape —
 * a definition survives when a v1.27 protobuf message backs it, and keeps only
 * the properties that message has. Selection then keeps what served kinds
 * reach.
 */

import { Type } from 'protobufjs';
import type { JsonValue } from '../../src/api/meta';
import type { Definition, DefinitionSet, SchemaNode, SchemaType } from '../../src/machinery/schema';
import {
  fieldKey,
  gvKey,
  neutralDefinitionName,
  neutralGroup,
  neutralProtoName,
  neutralRef,
  protoNameOfDefinition,
} from './names';
import type { RawSchema, UpstreamGvk } from './openapi';
import type { FieldAnnotation, ProtoAnnotations, ProtoIndex } from './proto';
import {
  JSON_ONLY_DEFINITIONS,
  META_DEFINITIONS,
  V127_ONLY_DEFINITIONS,
  V127_ONLY_PROPERTIES,
} from './tables';

export type NeutralGvk = NonNullable<Definition['gvk']>[number];

export interface ConvertedDefinitions {
  /** Neutral name → definition, without `gvk` (see `upstreamGvk`). */
  definitions: Map<string, Definition>;
  /** Neutral name → the upstream group/version/kinds it is the schema of. */
  upstreamGvk: Map<string, UpstreamGvk[]>;
  annotations: ProtoAnnotations;
  /** Facts worth a look after each run: what the intersection dropped or inferred. */
  notes: {
    droppedDefinitions: string[];
    droppedProperties: string[];
    inlineFields: string[];
    unmatchedProtoFields: string[];
  };
}

const SCHEMA_TYPES: readonly SchemaType[] = ['string', 'integer', 'number', 'boolean', 'object', 'array'];

function fail(where: string, message: string): never {
  throw new Error(`${where}: ${message}`);
}

function asObject(value: unknown, where: string): RawSchema {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) fail(where, 'expected an object');
  return value as RawSchema;
}

function asString(value: unknown, where: string): string {
  if (typeof value !== 'string') fail(where, 'expected a string');
  return value;
}

function asBoolean(value: unknown, where: string): boolean {
  if (typeof value !== 'boolean') fail(where, 'expected a boolean');
  return value;
}

function asArray(value: unknown, where: string): unknown[] {
  if (!Array.isArray(value)) fail(where, 'expected an array');
  return value;
}

function asStringArray(value: unknown, where: string): string[] {
  return asArray(value, where).map((item) => asString(item, where));
}

function asOneOf<const T extends string>(value: unknown, allowed: readonly T[], where: string): T {
  const text = asString(value, where);
  const match = allowed.find((a) => a === text);
  if (match === undefined) fail(where, `unexpected value ${text}`);
  return match;
}

/** Upstream JSON values are plain JSON already; this only narrows the type. */
function asJson(value: unknown): JsonValue {
  return value as JsonValue;
}

/**
 * The one `oneOf` shape upstream uses besides Quantity: IntOrString. Quantity
 * (string or number) has no neutral marker, so its node stays untyped.
 */
function convertOneOf(value: unknown, node: SchemaNode, where: string): void {
  const types = asArray(value, where)
    .map((part) => asString(asObject(part, where).type, where))
    .sort()
    .join(',');
  if (types === 'integer,string') node.intOrString = true;
  else if (types !== 'number,string') fail(where, `unexpected oneOf ${types}`);
}

function convertNode(raw: RawSchema, where: string, topLevel: boolean): SchemaNode {
  const node: SchemaNode = {};
  for (const [key, value] of Object.entries(raw)) {
    const at = `${where} ${key}`;
    switch (key) {
      case 'description':
        break;
      case 'type':
        node.type = asOneOf(value, SCHEMA_TYPES, at);
        break;
      case 'format':
        node.format = asString(value, at);
        break;
      case '$ref':
        node.ref = neutralRef(asString(value, at));
        break;
      case 'allOf': {
        // Upstream wraps a $ref in allOf only to give it sibling keys (default, markers).
        const parts = asArray(value, at);
        const only = parts.length === 1 ? asObject(parts[0], at) : fail(at, 'expected one element');
        if (Object.keys(only).join() !== '$ref') fail(at, 'expected a lone $ref');
        node.ref = neutralRef(asString(only.$ref, at));
        break;
      }
      case 'oneOf':
        convertOneOf(value, node, at);
        break;
      case 'properties':
        node.properties = Object.fromEntries(
          Object.entries(asObject(value, at)).map(([name, child]) => [
            name,
            convertNode(asObject(child, at), `${where}.${name}`, false),
          ]),
        );
        break;
      case 'required':
        node.required = asStringArray(value, at);
        break;
      case 'items':
        node.items = convertNode(asObject(value, at), `${where}[]`, false);
        break;
      case 'additionalProperties':
        node.additionalProperties =
          typeof value === 'boolean' ? value : convertNode(asObject(value, at), `${where}{}`, false);
        break;
      case 'default':
        node.default = asJson(value);
        break;
      case 'enum':
        node.enum = asArray(value, at).map(asJson);
        break;
      case 'nullable':
        node.nullable = asBoolean(value, at);
        break;
      case 'x-kubernetes-list-type':
        node.listType = asOneOf(value, ['atomic', 'set', 'map'], at);
        break;
      case 'x-kubernetes-list-map-keys':
        node.listMapKeys = asStringArray(value, at);
        break;
      case 'x-kubernetes-map-type':
        node.mapType = asOneOf(value, ['atomic', 'granular'], at);
        break;
      case 'x-kubernetes-patch-strategy':
        node.patchStrategy = asString(value, at);
        break;
      case 'x-kubernetes-patch-merge-key':
        node.patchMergeKey = asString(value, at);
        break;
      case 'x-kubernetes-int-or-string':
        node.intOrString = asBoolean(value, at);
        break;
      case 'x-kubernetes-preserve-unknown-fields':
        node.preserveUnknownFields = asBoolean(value, at);
        break;
      case 'x-kubernetes-embedded-resource':
        node.embeddedResource = asBoolean(value, at);
        break;
      case 'x-kubernetes-group-version-kind':
        // Read by convertDefinitions; only meaningful on a definition itself.
        if (!topLevel) fail(at, 'unexpected below the top level');
        break;
      case 'x-kubernetes-unions':
        // Union discriminators have no neutral marker; v1.27 does not normalise unions on write.
        if (!topLevel) fail(at, 'unexpected below the top level');
        break;
      default:
        fail(at, 'unknown schema key');
    }
  }
  return node;
}

function upstreamGvkOf(raw: RawSchema, where: string): UpstreamGvk[] {
  const value = raw['x-kubernetes-group-version-kind'];
  if (value === undefined) return [];
  return asArray(value, where).map((item) => {
    const entry = asObject(item, where);
    return {
      group: asString(entry.group, where),
      version: asString(entry.version, where),
      kind: asString(entry.kind, where),
    };
  });
}

interface IntersectState {
  annotations: ProtoAnnotations;
  notes: ConvertedDefinitions['notes'];
}

function annotate(state: IntersectState, message: Type, field: string, note: FieldAnnotation): void {
  const name = neutralProtoName(message.fullName.slice(1));
  const perMessage = state.annotations.get(name) ?? new Map<string, FieldAnnotation>();
  const previous = perMessage.get(field);
  if (previous !== undefined && JSON.stringify(previous) !== JSON.stringify(note)) {
    throw new Error(`conflicting annotations for ${name}.${field}`);
  }
  perMessage.set(field, note);
  state.annotations.set(name, perMessage);
}

/**
 * Keeps the properties of `node` that the v1.27 message has. A message field
 * with no JSON property of its name is a Go embedded struct when it holds a
 * single message: its fields are the parent's JSON properties.
 */
function intersectProperties(name: string, node: SchemaNode, message: Type, state: IntersectState): void {
  const properties = node.properties;
  if (properties === undefined) return;
  const byKey = new Map(Object.keys(properties).map((p) => [fieldKey(p), p]));
  const matched = new Set<string>();
  // Returns whether any field of `type` (or of its embedded structs) matched a property.
  const walk = (
    type: Type,
    path: string,
    record: boolean,
    visiting: ReadonlySet<Type> = new Set(),
  ): boolean => {
    if (visiting.has(type)) return false; // a struct cannot embed itself
    const inner = new Set([...visiting, type]);
    let any = false;
    for (const field of type.fieldsArray) {
      const property = byKey.get(fieldKey(field.name));
      if (property !== undefined) {
        any = true;
        if (!record) continue;
        matched.add(property);
        if (property !== field.name) annotate(state, type, field.name, { jsonName: property });
      } else if (
        field.resolvedType instanceof Type &&
        !field.repeated &&
        !field.map &&
        // A message field whose fields match nothing is a field JSON lacks, not an embedded struct.
        walk(field.resolvedType, '', false, inner)
      ) {
        any = true;
        if (!record) continue;
        annotate(state, type, field.name, { inline: true });
        state.notes.inlineFields.push(`${name}: ${path}${field.name}`);
        walk(field.resolvedType, `${path}${field.name}.`, true, inner);
      } else if (record) {
        state.notes.unmatchedProtoFields.push(`${name}: ${path}${field.name}`);
      }
    }
    return any;
  };
  walk(message, '', true);
  // TypeMeta is not part of a kind's message: the protobuf envelope carries it.
  const kept = Object.keys(properties).filter((p) => matched.has(p) || p === 'apiVersion' || p === 'kind');
  for (const dropped of Object.keys(properties).filter((p) => !kept.includes(p))) {
    state.notes.droppedProperties.push(`${name}.${dropped}`);
  }
  node.properties = Object.fromEntries(kept.map((p) => [p, properties[p] as SchemaNode]));
  if (node.required !== undefined) {
    const required = node.required.filter((r) => kept.includes(r));
    if (required.length > 0) node.required = required;
    else delete node.required;
  }
}

export function convertDefinitions(
  schemas: Map<string, RawSchema>,
  protos: ProtoIndex,
): ConvertedDefinitions {
  const definitions = new Map<string, Definition>();
  const upstreamGvk = new Map<string, UpstreamGvk[]>();
  const state: IntersectState = {
    annotations: new Map(),
    notes: { droppedDefinitions: [], droppedProperties: [], inlineFields: [], unmatchedProtoFields: [] },
  };
  for (const [upstream, raw] of [...schemas].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const name = neutralDefinitionName(upstream);
    const message = protos.messages.get(protoNameOfDefinition(name));
    if (message === undefined && !JSON_ONLY_DEFINITIONS.has(name)) {
      state.notes.droppedDefinitions.push(name);
      continue;
    }
    const node = convertNode(raw, name, true);
    const added = V127_ONLY_PROPERTIES[name];
    if (added !== undefined) {
      for (const property of Object.keys(added)) {
        if (node.properties?.[property] !== undefined)
          throw new Error(`${name}.${property} is upstream already`);
      }
      node.properties = { ...node.properties, ...added };
    }
    if (message !== undefined) intersectProperties(name, node, message, state);
    definitions.set(name, node);
    const gvk = upstreamGvkOf(raw, name);
    if (gvk.length > 0) upstreamGvk.set(name, gvk);
  }
  for (const [name, definition] of Object.entries(V127_ONLY_DEFINITIONS)) {
    const message = protos.messages.get(protoNameOfDefinition(name));
    if (message === undefined) throw new Error(`v1.27-only ${name} has no protobuf message`);
    if (definitions.has(name)) throw new Error(`v1.27-only ${name} is upstream already`);
    const node = structuredClone(definition);
    intersectProperties(name, node, message, state);
    definitions.set(name, node);
  }
  const supplements = [
    ...Object.entries(V127_ONLY_PROPERTIES).flatMap(([name, props]) =>
      Object.keys(props).map((p) => [name, p]),
    ),
    ...Object.entries(V127_ONLY_DEFINITIONS).flatMap(([name, d]) =>
      Object.keys(d.properties ?? {}).map((p) => [name, p]),
    ),
  ];
  for (const [name = '', property = ''] of supplements) {
    if (definitions.get(name)?.properties?.[property] === undefined) {
      throw new Error(`v1.27-only ${name}.${property} has no v1.27 protobuf field`);
    }
  }
  for (const [name, definition] of Object.entries(META_DEFINITIONS)) {
    if (definitions.has(name)) throw new Error(`hand-written ${name} shadows an upstream definition`);
    const { gvk: _gvk, ...node } = definition;
    definitions.set(name, node);
  }
  return { definitions, upstreamGvk, annotations: state.annotations, notes: state.notes };
}

function forEachRef(node: SchemaNode, visit: (ref: string) => void): void {
  if (node.ref !== undefined) visit(node.ref);
  for (const child of Object.values(node.properties ?? {})) forEachRef(child, visit);
  if (node.items !== undefined) forEachRef(node.items, visit);
  if (typeof node.additionalProperties === 'object') forEachRef(node.additionalProperties, visit);
}

function compareGvk(a: NeutralGvk, b: NeutralGvk): number {
  const ka = `${a.group}\u0000${a.version}\u0000${a.kind}`;
  const kb = `${b.group}\u0000${b.version}\u0000${b.kind}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/**
 * The definitions the generated registry keeps: every definition that is the
 * schema of a kind in a kept group/version, the hand-written meta kinds, the
 * JSON-only meta types, and everything those reach through `ref`. `gvk`
 * entries are neutralised and limited to kept group/versions.
 */
export function selectDefinitions(
  converted: ConvertedDefinitions,
  keptGroupVersions: ReadonlySet<string>,
): DefinitionSet {
  const gvkOf = new Map<string, NeutralGvk[]>();
  for (const [name, list] of converted.upstreamGvk) {
    const neutral = list
      .map((g): NeutralGvk => {
        const group = neutralGroup(g.group);
        return group.suffixed
          ? { group: group.name, groupSuffixed: true, version: g.version, kind: g.kind }
          : { group: group.name, version: g.version, kind: g.kind };
      })
      .filter((g) => keptGroupVersions.has(gvKey(g.group, g.version)))
      .sort(compareGvk);
    if (neutral.length > 0) gvkOf.set(name, neutral);
  }
  for (const [name, definition] of Object.entries(META_DEFINITIONS)) {
    if (definition.gvk !== undefined) gvkOf.set(name, [...definition.gvk].sort(compareGvk));
  }

  // Every apimachinery type is a meta type the server may speak (Status, Patch, WatchEvent, …).
  const metaTypes = [...converted.definitions.keys()].filter((name) => name.startsWith('apimachinery.'));
  const roots = [...gvkOf.keys(), ...metaTypes, ...JSON_ONLY_DEFINITIONS];
  const kept = new Set<string>();
  const queue = [...roots];
  for (let name = queue.pop(); name !== undefined; name = queue.pop()) {
    if (kept.has(name)) continue;
    const definition = converted.definitions.get(name);
    if (definition === undefined) throw new Error(`kept definitions refer to ${name}, which v1.27 lacks`);
    kept.add(name);
    forEachRef(definition, (ref) => queue.push(ref));
  }

  const out: DefinitionSet = {};
  for (const name of [...kept].sort()) {
    const definition = converted.definitions.get(name) as Definition;
    const gvk = gvkOf.get(name);
    out[name] = gvk === undefined ? definition : { ...definition, gvk };
  }
  return out;
}
