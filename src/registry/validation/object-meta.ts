/**
 * Validation of `metadata` common to every kind: name and generateName by
 * the kind's rule, namespace by scope, labels, annotations, finalizers and
 * owner references, and the fields an update may not change. Messages and
 * field paths are the real server's.
 */

import type { KubeObject, ObjectMeta } from '../../api/meta';
import { fieldError, type FieldError } from '../../machinery/field-errors';
import { isDNS1123Label, isLabelValue, isQualifiedName, validateName } from '../../machinery/names';
import type { ResourceType } from '../resource-type';

const totalAnnotationSizeLimit = 256 * 1024;

export function validateLabels(labels: unknown, field: string): FieldError[] {
  if (labels === undefined || labels === null) return [];
  if (typeof labels !== 'object' || Array.isArray(labels))
    return [fieldError.typeInvalid(field, labels, 'must be an object of strings')];
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(labels as Record<string, unknown>)) {
    for (const m of isQualifiedName(k)) errs.push(fieldError.invalid(field, k, m));
    if (typeof v !== 'string') errs.push(fieldError.typeInvalid(`${field}.${k}`, v, 'must be a string'));
    else for (const m of isLabelValue(v)) errs.push(fieldError.invalid(field, v, m));
  }
  return errs;
}

export function validateAnnotations(annotations: unknown, field: string): FieldError[] {
  if (annotations === undefined || annotations === null) return [];
  if (typeof annotations !== 'object' || Array.isArray(annotations))
    return [fieldError.typeInvalid(field, annotations, 'must be an object of strings')];
  const errs: FieldError[] = [];
  let size = 0;
  for (const [k, v] of Object.entries(annotations as Record<string, unknown>)) {
    for (const m of isQualifiedName(k.toLowerCase())) errs.push(fieldError.invalid(field, k, m));
    if (typeof v !== 'string') errs.push(fieldError.typeInvalid(`${field}.${k}`, v, 'must be a string'));
    else size += k.length + v.length;
  }
  if (size > totalAnnotationSizeLimit) errs.push(fieldError.tooLong(field, totalAnnotationSizeLimit));
  return errs;
}

function validateFinalizers(finalizers: unknown, field: string): FieldError[] {
  if (finalizers === undefined || finalizers === null) return [];
  if (!Array.isArray(finalizers))
    return [fieldError.typeInvalid(field, finalizers, 'must be a list of strings')];
  const errs: FieldError[] = [];
  finalizers.forEach((f, i) => {
    if (typeof f !== 'string') errs.push(fieldError.typeInvalid(`${field}[${i}]`, f, 'must be a string'));
    else for (const m of isQualifiedName(f)) errs.push(fieldError.invalid(`${field}[${i}]`, f, m));
  });
  return errs;
}

function validateOwnerReferences(refs: unknown, field: string): FieldError[] {
  if (refs === undefined || refs === null) return [];
  if (!Array.isArray(refs)) return [fieldError.typeInvalid(field, refs, 'must be a list')];
  const errs: FieldError[] = [];
  let controllers = 0;
  refs.forEach((r: unknown, i) => {
    const ref = (r ?? {}) as Record<string, unknown>;
    const f = `${field}[${i}]`;
    if (typeof ref.apiVersion !== 'string' || ref.apiVersion === '')
      errs.push(fieldError.invalid(`${f}.apiVersion`, ref.apiVersion ?? '', 'version must not be empty'));
    if (typeof ref.kind !== 'string' || ref.kind === '')
      errs.push(fieldError.invalid(`${f}.kind`, ref.kind ?? '', 'kind must not be empty'));
    if (typeof ref.name !== 'string' || ref.name === '')
      errs.push(fieldError.invalid(`${f}.name`, ref.name ?? '', 'name must not be empty'));
    if (typeof ref.uid !== 'string' || ref.uid === '')
      errs.push(fieldError.invalid(`${f}.uid`, ref.uid ?? '', 'uid must not be empty'));
    if (ref.controller === true) controllers++;
  });
  if (controllers > 1)
    errs.push(fieldError.invalid(field, refs, 'Only one reference can have Controller set to true'));
  return errs;
}

/** Checks common to create and update. */
function validateCommon(rt: ResourceType, meta: ObjectMeta): FieldError[] {
  const errs: FieldError[] = [];
  if (meta.name !== undefined && meta.name !== '') {
    for (const m of validateName(rt.behavior.nameRule, meta.name))
      errs.push(fieldError.invalid('metadata.name', meta.name, m));
  }
  if (rt.namespaced) {
    if (meta.namespace === undefined || meta.namespace === '')
      errs.push(fieldError.required('metadata.namespace', ''));
    else
      for (const m of isDNS1123Label(meta.namespace))
        errs.push(fieldError.invalid('metadata.namespace', meta.namespace, m));
  } else if (meta.namespace !== undefined && meta.namespace !== '') {
    errs.push(fieldError.forbidden('metadata.namespace', 'not allowed on this type'));
  }
  errs.push(...validateLabels(meta.labels, 'metadata.labels'));
  errs.push(...validateAnnotations(meta.annotations, 'metadata.annotations'));
  errs.push(...validateFinalizers(meta.finalizers, 'metadata.finalizers'));
  errs.push(...validateOwnerReferences(meta.ownerReferences, 'metadata.ownerReferences'));
  if (meta.generation !== undefined && meta.generation < 0)
    errs.push(
      fieldError.invalid('metadata.generation', meta.generation, 'must be greater than or equal to 0'),
    );
  return errs;
}

export function validateObjectMetaCreate(rt: ResourceType, obj: KubeObject): FieldError[] {
  const meta = obj.metadata ?? {};
  const errs: FieldError[] = [];
  if ((meta.name ?? '') === '') {
    if ((meta.generateName ?? '') === '')
      errs.push(fieldError.required('metadata.name', 'name or generateName is required'));
  }
  if (meta.generateName !== undefined && meta.generateName !== '') {
    for (const m of validateName(rt.behavior.nameRule, meta.generateName, true))
      errs.push(fieldError.invalid('metadata.generateName', meta.generateName, m));
  }
  return [...errs, ...validateCommon(rt, meta)];
}

export function validateObjectMetaUpdate(rt: ResourceType, obj: KubeObject, old: KubeObject): FieldError[] {
  const meta = obj.metadata ?? {};
  const oldMeta = old.metadata ?? {};
  const errs = validateCommon(rt, meta);
  const immutable = (field: string, now: unknown, before: unknown): void => {
    if (now !== before) errs.push(fieldError.invalid(field, now, 'field is immutable'));
  };
  immutable('metadata.name', meta.name, oldMeta.name);
  if (rt.namespaced) immutable('metadata.namespace', meta.namespace, oldMeta.namespace);
  immutable('metadata.uid', meta.uid, oldMeta.uid);
  return errs;
}
