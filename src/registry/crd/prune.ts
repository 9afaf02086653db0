/**
 * Structural pruning of custom resource data, as the real server prunes on
 * decoding and on reading from storage: fields the schema does not specify
 * are dropped, except under `x-orch-preserve-unknown-fields`; at the root
 * and in embedded resources `apiVersion` and `kind` stay and `metadata` is
 * pruned to ObjectMeta. Returns the paths of what was dropped (sorted, as
 * the real server reports them for field validation), plus the removal of
 * non-nullable nulls that have no default (defaulting's first step).
 */

import { isPlainObject } from '../../machinery/json';
import type { DefinitionSet, SchemaNode } from '../../machinery/schema';
import { checkAgainstSchema } from '../validation/schema-check';

export const OBJECT_META = 'apimachinery.pkg.apis.meta.v1.ObjectMeta';

function childPath(parent: string, key: string): string {
  return parent === '' ? key : `${parent}.${key}`;
}

interface PruneState {
  defs: DefinitionSet;
  pruned: string[];
}

function pruneMetadata(obj: Record<string, unknown>, parent: string, st: PruneState): void {
  const meta = obj.metadata;
  if (!isPlainObject(meta)) return;
  const base = childPath(parent, 'metadata');
  for (const p of checkAgainstSchema(st.defs, { ref: OBJECT_META }, meta, { prune: true }).unknown)
    st.pruned.push(childPath(base, p));
}

function prune(
  value: unknown,
  s: SchemaNode | undefined,
  path: string,
  embedded: boolean,
  st: PruneState,
): void {
  if (s?.preserveUnknownFields === true) {
    skipPrune(value, s, path, embedded, st);
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) =>
      prune(item, s?.items, `${path}[${i}]`, s?.items?.embeddedResource === true, st),
    );
    return;
  }
  if (!isPlainObject(value)) return;
  for (const k of Object.keys(value)) {
    if (embedded && (k === 'apiVersion' || k === 'kind')) continue;
    if (embedded && k === 'metadata') {
      pruneMetadata(value, path, st);
      continue;
    }
    const prop = s?.properties?.[k];
    if (prop !== undefined) prune(value[k], prop, childPath(path, k), prop.embeddedResource === true, st);
    else if (s !== undefined && typeof s.additionalProperties === 'object') {
      const ap = s.additionalProperties;
      prune(value[k], ap, childPath(path, k), ap.embeddedResource === true, st);
    } else if (s !== undefined && s.additionalProperties === true) continue;
    else {
      st.pruned.push(childPath(path, k));
      delete value[k];
    }
  }
}

/** Under preserve-unknown-fields: nothing is dropped here, but specified children are still pruned. */
function skipPrune(value: unknown, s: SchemaNode, path: string, embedded: boolean, st: PruneState): void {
  if (Array.isArray(value)) {
    if (s.items !== undefined) {
      const items = s.items;
      value.forEach((item, i) => prune(item, items, `${path}[${i}]`, items.embeddedResource === true, st));
    }
    return;
  }
  if (!isPlainObject(value)) return;
  for (const k of Object.keys(value)) {
    if (embedded && (k === 'apiVersion' || k === 'kind')) continue;
    if (embedded && k === 'metadata') {
      pruneMetadata(value, path, st);
      continue;
    }
    const prop =
      s.properties?.[k] ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
    if (prop !== undefined) prune(value[k], prop, childPath(path, k), prop.embeddedResource === true, st);
  }
}

/**
 * Prunes `value` in place against `schema`; `resourceRoot` treats the value
 * as a whole resource (or embedded resource). Returns the sorted paths dropped.
 */
export function pruneValue(
  defs: DefinitionSet,
  schema: SchemaNode,
  value: unknown,
  resourceRoot: boolean,
): string[] {
  const st: PruneState = { defs, pruned: [] };
  prune(value, schema, '', resourceRoot || schema.embeddedResource === true, st);
  return st.pruned.sort();
}

/** Drops `null` from fields that are neither nullable nor defaulted (the real server's first defaulting step). */
export function pruneNonNullableNulls(value: unknown, s: SchemaNode | undefined): void {
  if (s === undefined) return;
  if (Array.isArray(value)) {
    for (const item of value) pruneNonNullableNulls(item, s.items);
    return;
  }
  if (!isPlainObject(value)) return;
  for (const k of Object.keys(value)) {
    const prop =
      s.properties?.[k] ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
    if (prop === undefined) continue;
    if (value[k] === null && prop.nullable !== true && prop.default === undefined) delete value[k];
    else pruneNonNullableNulls(value[k], prop);
  }
}
