/**
 * Schema facts: the structural description of a kind that the server needs
 * to validate, prune, default and merge objects. Built-in kinds get them from
 * the generated registry data (`registry/generated/definitions*.json`); custom
 * resources get them from their CRD's OpenAPI schema. Markers keep neutral
 * names here; the naming profile spells them (`x-orch-list-type`) on the wire.
 */

import type { JsonValue } from '../api/meta';

export type SchemaType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array';

export interface SchemaNode {
  type?: SchemaType;
  format?: string;
  /** Name of a definition in the same definition set (neutral name, e.g. `api.apps.v1.Deployment`). */
  ref?: string;
  properties?: Record<string, SchemaNode>;
  required?: string[];
  items?: SchemaNode;
  /** A map's value schema; `true` means any value. */
  additionalProperties?: SchemaNode | boolean;
  default?: JsonValue;
  enum?: JsonValue[];
  nullable?: boolean;
  listType?: 'atomic' | 'set' | 'map';
  listMapKeys?: string[];
  mapType?: 'atomic' | 'granular';
  /** Strategic merge patch strategy, e.g. `merge`, `retainKeys`, `merge,retainKeys`, `replace`. */
  patchStrategy?: string;
  patchMergeKey?: string;
  intOrString?: boolean;
  preserveUnknownFields?: boolean;
  embeddedResource?: boolean;
  /** Bounds that CEL cost estimation multiplies by (absent: the worst case a request of the maximum size allows). */
  maxItems?: number;
  maxLength?: number;
  maxProperties?: number;
  /**
   * Value validations of custom resource schemas (OpenAPI v3 keywords, checked on every write of a custom
   * resource; built-in kinds carry none). `allOf`/`anyOf`/`oneOf`/`not` hold value validations only.
   */
  minItems?: number;
  minLength?: number;
  minProperties?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  multipleOf?: number;
  /** An RE2 pattern (never run through JavaScript's backtracking engine). */
  pattern?: string;
  uniqueItems?: boolean;
  allOf?: SchemaNode[];
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  not?: SchemaNode;
  /** Documentation that custom resource schemas publish in OpenAPI (`kubectl explain` shows it). */
  description?: string;
  title?: string;
  example?: JsonValue;
  externalDocs?: { description?: string; url?: string };
  /** Expression rules checked against this node's value (`x-orch-validations`). */
  validations?: ValidationRule[];
}

/** One expression rule on a schema node; `rule` sees the value as `self` (and `oldSelf` on update). */
export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  /** `FieldValueInvalid` (default), `FieldValueForbidden`, `FieldValueRequired` or `FieldValueDuplicate`. */
  reason?: string;
  /** Path, relative to this node, that a failure is reported at (e.g. `.spec.replicas`). */
  fieldPath?: string;
}

export interface Definition extends SchemaNode {
  /**
   * Group/version/kinds this definition is the top-level schema of. Group names are neutral (see
   * `GeneratedGroup`): `groupSuffixed` is present and true when the full name is `<group>.<suffix>`.
   */
  gvk?: { group: string; groupSuffixed?: boolean; version: string; kind: string }[];
}

/** A set of named definitions; refs resolve within it. */
export type DefinitionSet = Record<string, Definition>;

/** Resolves `ref`s; returns the node itself when it has none. */
export function resolveSchema(defs: DefinitionSet, node: SchemaNode | undefined): SchemaNode | undefined {
  let current = node;
  for (let hops = 0; current?.ref !== undefined && hops < 8; hops++) {
    const target: SchemaNode | undefined = defs[current.ref];
    if (target === undefined) return undefined;
    // A node may carry markers beside its ref (e.g. a list field's patch strategy); keep them.
    const { ref: _ref, ...rest } = current;
    current = Object.keys(rest).length === 0 ? target : { ...target, ...rest };
  }
  return current;
}

/**
 * One root node per definition name: `resolveSchemaOnce` remembers per node (keyed weakly), so a fresh
 * `{ ref }` per write would miss every time and leave a dead entry per write for the collector.
 */
const refNodes = new Map<string, SchemaNode>();

export function refNode(definition: string): SchemaNode {
  let node = refNodes.get(definition);
  if (node === undefined) refNodes.set(definition, (node = Object.freeze({ ref: definition })));
  return node;
}

const resolvedIn = new WeakMap<DefinitionSet, WeakMap<SchemaNode, SchemaNode | undefined>>();

/**
 * `resolveSchema`, remembered per node and definition set, for the walks run on every write (shaping objects
 * as Go holds them, the schema check): resolving a node that carries markers beside its `ref` copies the
 * target each time. Callers must reuse their nodes (one root node per definition) for it to pay.
 */
export function resolveSchemaOnce(defs: DefinitionSet, node: SchemaNode | undefined): SchemaNode | undefined {
  if (node === undefined) return undefined;
  let resolved = resolvedIn.get(defs);
  if (resolved === undefined) resolvedIn.set(defs, (resolved = new WeakMap()));
  if (resolved.has(node)) return resolved.get(node);
  const r = resolveSchema(defs, node);
  resolved.set(node, r);
  return r;
}
