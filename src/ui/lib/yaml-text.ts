/**
 * YAML in and out for the views that show or edit objects. Kept in one
 * module so that the `yaml` package loads only with the views that need it
 * (the explorer's first screen does not). Objects are printed the way
 * `kubectl get -o yaml` prints them: no line folding, keys in server order.
 */

import { parse, parseAllDocuments, stringify } from 'yaml';
import type { KubeObject } from '../../api/meta';

export function toYaml(value: unknown): string {
  if (value === undefined) return '';
  return stringify(value, { lineWidth: 0, aliasDuplicateObjects: false });
}

/** Parses YAML (or JSON, a subset) into a value; throws with the parser's message. */
export function parseYaml(text: string): unknown {
  return parse(text);
}

/** Every document of a multi-document YAML text (`---` separated), skipping empty ones. */
export function parseYamlDocuments(text: string): unknown[] {
  return parseAllDocuments(text)
    .map((document) => {
      if (document.errors.length > 0) throw new Error(document.errors[0]?.message ?? 'invalid YAML');
      return document.toJS() as unknown;
    })
    .filter((value) => value !== null && value !== undefined);
}

/** The object without `metadata.managedFields`, which the views fold away. */
export function withoutManagedFields(object: KubeObject): KubeObject {
  if (object.metadata?.managedFields === undefined) return object;
  const { managedFields: _managedFields, ...metadata } = object.metadata;
  return { ...object, metadata };
}

/** The object as a client would write it back: without what the server sets (uid, resourceVersion, timestamps, managedFields, status). */
export function withoutServerFields(object: KubeObject): KubeObject {
  const {
    uid: _uid,
    resourceVersion: _resourceVersion,
    creationTimestamp: _creationTimestamp,
    generation: _generation,
    managedFields: _managedFields,
    selfLink: _selfLink,
    ...metadata
  } = object.metadata ?? {};
  const { status: _status, ...rest } = object;
  return { ...rest, metadata };
}

/**
 * `after` with its keys in the order `before` has them (new keys last), at
 * every level, so a line diff of the two shows changed values, not keys
 * that merely moved.
 */
export function alignKeys<T>(before: unknown, after: T): T {
  if (!isRecord(before) || !isRecord(after)) return after;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(before)) if (key in after) out[key] = alignKeys(before[key], after[key]);
  for (const key of Object.keys(after)) if (!(key in out)) out[key] = after[key];
  return out as T;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
