/**
 * How built-in plugins fail, in the three ways the real ones do. Most use
 * `admission.NewForbidden`: `<resource>.<group> "<name>" is forbidden:
 * <why>`, naming the request's object, else the new object's name or
 * generateName (names are not generated yet when admission runs), else
 * `Unknown`. Some pod scheduling plugins call `apierrors.NewForbidden` with
 * the pod's own name (empty for a generated name, so `pods is forbidden:
 * …`), and some return a plain Go error or an aggregate of errors, which is
 * no API status, so the server answers 500 with no reason and the error's
 * text.
 */

import type { KubeObject } from '../../../api/meta';
import { forbidden, StatusError } from '../../../machinery/errors';
import type { AdmissionAttributes } from '../../types';

export function admissionForbidden(a: AdmissionAttributes, why: string): StatusError {
  return forbidden({ group: a.group, resource: a.resource }, forbiddenName(a), why);
}

function forbiddenName(a: AdmissionAttributes): string {
  if (a.name !== '') return a.name;
  const meta = a.object?.metadata;
  if (meta?.name !== undefined && meta.name !== '') return meta.name;
  if (meta?.generateName !== undefined && meta.generateName !== '') return meta.generateName;
  return 'Unknown';
}

/** `apierrors.NewForbidden(resource, obj.Name, err)`. */
export function objectForbidden(a: AdmissionAttributes, object: KubeObject, why: string): StatusError {
  const name = typeof object.metadata?.name === 'string' ? object.metadata.name : '';
  return forbidden({ group: a.group, resource: a.resource }, name, why);
}

/** A plain error: 500, no reason. */
export function plainError(message: string): StatusError {
  return new StatusError(500, undefined, message);
}

/** The text of an aggregate of errors: one message alone, several de-duplicated in brackets. */
export function aggregateMessage(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  if (unique.length === 1) return unique[0] as string;
  return `[${unique.join(', ')}]`;
}
