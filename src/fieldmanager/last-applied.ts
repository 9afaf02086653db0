/**
 * Moving from client-side to server-side apply, as the real server eases it
 * for the manager `kubectl`: fields recorded in the client-side
 * last-applied annotation that still hold their recorded values may be
 * taken over without conflict, and while the object keeps that annotation
 * each server-side apply rewrites it, so that a later client-side apply
 * sees the same configuration.
 */

import type { JsonValue, KubeObject } from '../api/meta';
import { deepClone, isPlainObject } from '../machinery/json';
import type { FieldSet } from './field-set';
import { compareStrings, goJson } from './path';
import { compareValues } from './typed/compare';
import { toFieldSet } from './typed/to-field-set';
import type { TypeRef, TypeResolver } from './typed/types';
import { validateTyped } from './typed/validate';

/** The manager whose server-side applies take over client-side apply. */
export const lastAppliedManager = 'kubectl';

/** The real server's limit on all annotations of an object together. */
const totalAnnotationSizeLimit = 256 * 1024;

function annotationOf(obj: KubeObject | undefined, name: string): string | undefined {
  const v = obj?.metadata?.annotations?.[name];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** Fields the last client-side apply set that still hold those values; undefined when there is no usable annotation. */
export function fieldsFromLastApplied(
  types: TypeResolver,
  root: TypeRef,
  live: KubeObject,
  apiVersion: string,
  annotation: string,
  shape: (v: JsonValue) => JsonValue,
): FieldSet | undefined {
  const text = annotationOf(live, annotation);
  if (text === undefined) return undefined;
  let last: JsonValue;
  try {
    last = JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
  if (!isPlainObject(last) || last.apiVersion !== apiVersion) return undefined;
  if (validateTyped(types, last, root).length > 0) return undefined;
  const set = toFieldSet(types, last, root);
  const c = compareValues(types, last, shape(live as JsonValue), root);
  return set.difference(c.modified).difference(c.added).difference(c.removed);
}

/** JSON as the real server writes the annotation: Go's map order (sorted keys) and a final newline. */
function sortedJson(v: JsonValue): string {
  if (Array.isArray(v)) return `[${v.map(sortedJson).join(',')}]`;
  if (isPlainObject(v)) {
    const o = v as Record<string, JsonValue>;
    return `{${Object.keys(o)
      .sort(compareStrings)
      .map((k) => `${goJson(k)}:${sortedJson(o[k] as JsonValue)}`)
      .join(',')}}`;
  }
  return goJson(v);
}

/** After a server-side apply by kubectl: the object's last-applied annotation, when it has one, now records `config`. */
export function syncLastApplied(obj: KubeObject, config: KubeObject, annotation: string): void {
  if (annotationOf(obj, annotation) === undefined) return;
  const recorded = deepClone(config);
  const annotations = recorded.metadata?.annotations;
  if (annotations !== undefined && annotations !== null) delete annotations[annotation];
  const value = `${sortedJson(recorded as JsonValue)}\n`;
  const meta = obj.metadata ?? (obj.metadata = {});
  const all = { ...(meta.annotations ?? {}), [annotation]: value };
  let size = 0;
  for (const [k, v] of Object.entries(all))
    size += new TextEncoder().encode(k).length + new TextEncoder().encode(v).length;
  if (size > totalAnnotationSizeLimit) delete all[annotation];
  meta.annotations = all;
}
