/**
 * What the field manager needs to know about a kind: its schema (which
 * decides merge strategies), whether the real server holds its objects as
 * Go structs (built-in kinds) or unstructured JSON (custom resources), and
 * whether it has a status subresource (which decides which fields each
 * endpoint resets).
 */

import { refNode, type DefinitionSet, type SchemaNode } from '../machinery/schema';
import { TypeResolver } from './typed/types';

export interface ObjectType {
  definitions: DefinitionSet;
  /** The kind's schema; undefined for objects without one (keys are struct fields, lists atomic). */
  root: SchemaNode | undefined;
  /** Built-in kinds: objects are Go structs on the real server (non-pointer structs always present). */
  goStructs?: boolean;
  /** The kind has a status subresource: the main resource never owns status, `/status` only status. */
  statusSubresource?: boolean;
}

/** The parts of a served resource that decide its object type. */
export interface ResourceShape {
  definition?: string;
  schema?: SchemaNode;
  custom: boolean;
  subresources: ReadonlyMap<string, unknown>;
}

export function objectTypeFor(rt: ResourceShape, definitions: DefinitionSet): ObjectType {
  return {
    definitions,
    root: rt.schema ?? (rt.definition !== undefined ? refNode(rt.definition) : undefined),
    goStructs: !rt.custom,
    statusSubresource: rt.subresources.has('status'),
  };
}

const resolvers = new WeakMap<DefinitionSet, TypeResolver>();

/** One resolver per definition set, so resolved schema atoms are shared across requests. */
export function resolverFor(definitions: DefinitionSet): TypeResolver {
  let r = resolvers.get(definitions);
  if (r === undefined) {
    r = new TypeResolver(definitions);
    resolvers.set(definitions, r);
  }
  return r;
}
