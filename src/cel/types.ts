/**
 * Schema-to-CEL type mapping (spec table "Schema-to-expression type
 * mapping"): objects with properties become object types whose fields are
 * the escaped property names, `additionalProperties` maps, arrays lists
 * (carrying set or map semantics from `x-orch-list-type`), int-or-string
 * `dyn`, number double, integer int, strings with format byte/date/date-time/
 * duration bytes/timestamp/timestamp/duration; embedded resources (and the
 * resource root) always expose apiVersion, kind, metadata.name and
 * metadata.generateName; unknown preserved fields stay invisible. Each type
 * also carries what cost estimation needs: the most elements it can hold
 * (from maxItems / maxLength / maxProperties, or what fits in the largest
 * request) and the smallest JSON it serialises to.
 */

import { resolveSchema, type DefinitionSet, type SchemaNode } from '../machinery/schema';
import { MAX_REQUEST_SIZE_BYTES } from './cost';
import { escapeName } from './escaping';
import { OBJECT_TYPE, type ListKind } from './values';

export type DeclKind =
  | 'object'
  | 'map'
  | 'list'
  | 'int'
  | 'double'
  | 'string'
  | 'bool'
  | 'bytes'
  | 'timestamp'
  | 'duration'
  | 'dyn';

export interface DeclField {
  /** The property name in JSON (the map key of `fields` is the escaped CEL name). */
  readonly jsonName: string;
  readonly type: DeclType;
  readonly nullable: boolean;
}

export interface DeclType {
  readonly kind: DeclKind;
  /** The type as the engine spells it: `int`, `list<string>`, `selfType.spec`, `google.protobuf.Timestamp`. */
  readonly typeName: string;
  readonly fields?: ReadonlyMap<string, DeclField>;
  /** List items or map values. */
  readonly elem?: DeclType;
  /** Most characters, bytes, items or entries a value can have; what the cost estimator assumes. */
  readonly maxElements: number;
  /** Smallest JSON serialisation in bytes; bounds how often a value can repeat in one request. */
  readonly minSerializedSize: number;
  readonly listKind?: ListKind;
  /** `date` strings parse as midnight UTC. */
  readonly dateOnly?: boolean;
  /** Object types: the class of their values. */
  readonly ctor?: new () => Record<string, unknown>;
}

const MAX_STRING = MAX_REQUEST_SIZE_BYTES - 2;
// Sizes of the smallest JSON of each scalar (k8s.io/apiserver pkg/cel/limits.go).
const MIN_NUMBER = 1;
const MIN_BOOL = 4;
const MIN_STRING = 2;
const MIN_DURATION = 3;
const MIN_DATETIME = 21;
const DATE_SIZE = 12;
const MAX_DURATION = 32;
const MAX_DATETIME = 32;

function simple(kind: DeclKind, typeName: string, minSerializedSize: number, maxElements = 0): DeclType {
  return { kind, typeName, minSerializedSize, maxElements };
}

/**
 * The CEL type of a schema node, or undefined when the node is not visible to expressions
 * (no type and not int-or-string; arrays and maps of invisible values).
 * `isResourceRoot`: the root of a custom resource or an embedded resource.
 */
export function declTypeOf(
  schema: SchemaNode,
  isResourceRoot: boolean,
  typeName = 'selfType',
  defs: DefinitionSet = {},
): DeclType | undefined {
  const s = resolveSchema(defs, schema);
  if (s === undefined) return undefined;
  if (s.intOrString === true) {
    return simple('dyn', 'dyn', 1, s.maxLength !== undefined ? Math.max(0, s.maxLength) * 4 : MAX_STRING);
  }
  const node = isResourceRoot ? withTypeAndObjectMeta(s) : s;
  switch (node.type) {
    case 'array': {
      if (node.items === undefined) return undefined;
      const items = resolveSchema(defs, node.items);
      const elem =
        items === undefined
          ? undefined
          : declTypeOf(items, items.embeddedResource === true, `${typeName}.items`, defs);
      if (elem === undefined) return undefined;
      const maxItems =
        node.maxItems !== undefined
          ? Math.max(0, node.maxItems)
          : Math.floor(MAX_STRING / (elem.minSerializedSize + 1));
      const listKind: ListKind | undefined =
        node.listType === 'set'
          ? { type: 'set' }
          : node.listType === 'map'
            ? { type: 'map', keys: (node.listMapKeys ?? []).map((k) => escapeName(k) ?? k) }
            : undefined;
      return {
        kind: 'list',
        typeName: `list<${elem.typeName}>`,
        elem,
        maxElements: maxItems,
        minSerializedSize: 2,
        ...(listKind !== undefined ? { listKind } : {}),
      };
    }
    case 'object': {
      const ap = node.additionalProperties;
      if (ap !== undefined && typeof ap === 'object') {
        const values = resolveSchema(defs, ap);
        const elem =
          values === undefined
            ? undefined
            : declTypeOf(values, values.embeddedResource === true, `${typeName}.values`, defs);
        if (elem === undefined) return undefined;
        const maxProps =
          node.maxProperties !== undefined
            ? Math.max(0, node.maxProperties)
            : Math.floor(MAX_STRING / (elem.minSerializedSize + 6));
        return {
          kind: 'map',
          typeName: `map<string, ${elem.typeName}>`,
          elem,
          maxElements: maxProps,
          minSerializedSize: 2,
        };
      }
      return objectType(node, typeName, defs);
    }
    case 'string':
      switch (node.format) {
        case 'byte':
          return simple(
            'bytes',
            'bytes',
            MIN_STRING,
            node.maxLength !== undefined ? Math.max(0, node.maxLength) : MAX_STRING,
          );
        case 'duration':
          return simple('duration', 'google.protobuf.Duration', MIN_DURATION, MAX_DURATION);
        case 'date':
          return {
            ...simple('timestamp', 'google.protobuf.Timestamp', DATE_SIZE, DATE_SIZE),
            dateOnly: true,
          };
        case 'date-time':
          return simple('timestamp', 'google.protobuf.Timestamp', MIN_DATETIME, MAX_DATETIME);
        default:
          // maxLength counts code points; a code point is up to 4 bytes of the request.
          return simple(
            'string',
            'string',
            MIN_STRING,
            node.maxLength !== undefined ? Math.max(0, node.maxLength) * 4 : MAX_STRING,
          );
      }
    case 'boolean':
      return simple('bool', 'bool', MIN_BOOL);
    case 'number':
      return simple('double', 'double', MIN_NUMBER);
    case 'integer':
      return simple('int', 'int', MIN_NUMBER);
    default:
      return undefined;
  }
}

function objectType(node: SchemaNode, typeName: string, defs: DefinitionSet): DeclType {
  const fields = new Map<string, DeclField>();
  const required = new Set(node.required ?? []);
  let minSerializedSize = 2;
  for (const [name, prop] of Object.entries(node.properties ?? {})) {
    const resolved = resolveSchema(defs, prop);
    const escaped = escapeName(name);
    if (resolved === undefined) continue;
    const type = declTypeOf(
      resolved,
      resolved.embeddedResource === true,
      `${typeName}.${escaped ?? 'unnamed'}`,
      defs,
    );
    if (type === undefined) continue;
    if (escaped !== undefined)
      fields.set(escaped, { jsonName: name, type, nullable: resolved.nullable === true });
    // Defaulted properties are filled in by the server, so only required ones without a default count.
    if (required.has(name) && resolved.default === undefined)
      minSerializedSize += name.length + type.minSerializedSize + 4;
  }
  const ctor = class {} as unknown as new () => Record<string, unknown>;
  Object.defineProperty(ctor.prototype, OBJECT_TYPE, { value: typeName });
  Object.defineProperty(ctor, 'name', { value: typeName });
  return { kind: 'object', typeName, fields, maxElements: 0, minSerializedSize, ctor };
}

const STRING_SCHEMA: SchemaNode = { type: 'string' };

/** apiVersion, kind, metadata.name and metadata.generateName are always accessible at a resource root. */
export function withTypeAndObjectMeta(s: SchemaNode): SchemaNode {
  const p = s.properties ?? {};
  const meta = p.metadata;
  if (
    p.kind?.type === 'string' &&
    p.apiVersion?.type === 'string' &&
    meta?.type === 'object' &&
    meta.properties?.name?.type === 'string' &&
    meta.properties.generateName?.type === 'string'
  )
    return s;
  return {
    ...s,
    properties: {
      ...p,
      kind: STRING_SCHEMA,
      apiVersion: STRING_SCHEMA,
      metadata: { type: 'object', properties: { name: STRING_SCHEMA, generateName: STRING_SCHEMA } },
    },
  };
}

/** Every object type reachable from `root`, for registration with an engine environment. */
export function objectTypes(root: DeclType): DeclType[] {
  const out: DeclType[] = [];
  const visit = (t: DeclType): void => {
    if (t.kind === 'object') {
      out.push(t);
      for (const f of t.fields!.values()) visit(f.type);
    } else if (t.elem !== undefined) visit(t.elem);
  };
  visit(root);
  return out;
}

/** Worst-case number of times data of `minSerializedSize` bytes fits in one request (the cardinality under unbounded lists and maps). */
export function maxCardinality(minSerializedSize: number): number {
  return Math.floor(MAX_REQUEST_SIZE_BYTES / (minSerializedSize + 1));
}
