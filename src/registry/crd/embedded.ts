/**
 * Embedded resources (`x-orch-embedded-resource`) inside custom resource
 * data are objects of their own: they need `apiVersion` and `kind`, their
 * kind must be a valid kind name and their metadata valid object metadata
 * (names as path segments), as the real server's objectmeta validation
 * checks them. The resource root's metadata is validated by the generic
 * strategy instead.
 */

import { fieldError, type FieldError } from '../../machinery/field-errors';
import { isPlainObject } from '../../machinery/json';
import { isDNS1035Label, isDNS1123Label, isPathSegmentName } from '../../machinery/names';
import type { SchemaNode } from '../../machinery/schema';
import { validateAnnotations, validateLabels } from '../validation/object-meta';
import { child, index } from './paths';

function validateEmbeddedResource(path: string, x: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = [];
  if (!('apiVersion' in x)) errs.push(fieldError.required(child(path, 'apiVersion'), 'must not be empty'));
  if (!('kind' in x)) errs.push(fieldError.required(child(path, 'kind'), 'must not be empty'));
  const apiVersion = x.apiVersion;
  if ('apiVersion' in x) {
    if (typeof apiVersion !== 'string')
      errs.push(fieldError.invalid(child(path, 'apiVersion'), apiVersion, 'must be a string'));
    else if (apiVersion === '')
      errs.push(fieldError.invalid(child(path, 'apiVersion'), apiVersion, 'must not be empty'));
    else if (apiVersion.split('/').length > 2)
      errs.push(
        fieldError.invalid(
          child(path, 'apiVersion'),
          apiVersion,
          `unexpected GroupVersion string: ${apiVersion}`,
        ),
      );
  }
  const kind = x.kind;
  if ('kind' in x) {
    if (typeof kind !== 'string')
      errs.push(fieldError.invalid(child(path, 'kind'), kind, 'must be a string'));
    else if (kind === '') errs.push(fieldError.invalid(child(path, 'kind'), kind, 'must not be empty'));
    else {
      const problems = isDNS1035Label(kind.toLowerCase());
      if (problems.length > 0)
        errs.push(
          fieldError.invalid(
            child(path, 'kind'),
            kind,
            `may have mixed case, but should otherwise match: ${problems.join(',')}`,
          ),
        );
    }
  }
  const meta = x.metadata;
  if (meta !== undefined) {
    const metaPath = child(path, 'metadata');
    if (!isPlainObject(meta)) errs.push(fieldError.invalid(metaPath, meta, 'must be an object'));
    else {
      for (const f of ['name', 'generateName'] as const) {
        const v = meta[f];
        if (typeof v === 'string' && v !== '')
          for (const m of isPathSegmentName(v)) errs.push(fieldError.invalid(child(metaPath, f), v, m));
      }
      if (typeof meta.namespace === 'string' && meta.namespace !== '')
        for (const m of isDNS1123Label(meta.namespace))
          errs.push(fieldError.invalid(child(metaPath, 'namespace'), meta.namespace, m));
      errs.push(...validateLabels(meta.labels, child(metaPath, 'labels')));
      errs.push(...validateAnnotations(meta.annotations, child(metaPath, 'annotations')));
    }
  }
  return errs;
}

/** Errors of every embedded resource in `value` (the root itself is skipped). */
export function validateEmbeddedResources(
  s: SchemaNode | undefined,
  value: unknown,
  path = '',
  root = true,
): FieldError[] {
  if (s === undefined) return [];
  const errs: FieldError[] = [];
  if (Array.isArray(value)) {
    value.forEach((item, i) => errs.push(...validateEmbeddedResources(s.items, item, index(path, i), false)));
    return errs;
  }
  if (!isPlainObject(value)) return errs;
  if (s.embeddedResource === true && !root) errs.push(...validateEmbeddedResource(path, value));
  for (const [k, v] of Object.entries(value)) {
    const prop = s.properties?.[k];
    if (prop !== undefined) errs.push(...validateEmbeddedResources(prop, v, child(path, k), false));
    else if (typeof s.additionalProperties === 'object')
      errs.push(...validateEmbeddedResources(s.additionalProperties, v, `${path}[${k}]`, false));
  }
  return errs;
}
