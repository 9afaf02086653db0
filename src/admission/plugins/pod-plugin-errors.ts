/**
 * The other two ways the pod scheduling plugins fail besides
 * `admission.NewForbidden` (./admission-forbidden): some call
 * `apierrors.NewForbidden` with the pod's own name (empty for a generated
 * name, so `pods is forbidden: …`), and some return a plain Go error or an
 * aggregate of errors, which is no API status, so the server answers 500
 * with no reason and the error's text.
 */

import type { KubeObject } from '../../api/meta';
import { forbidden, StatusError } from '../../machinery/errors';
import type { AdmissionAttributes } from '../types';

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
