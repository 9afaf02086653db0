/**
 * The 403 a built-in plugin answers with (the real `admission.NewForbidden`):
 * `<resource>.<group> "<name>" is forbidden: <why>`, naming the request's
 * object, else the new object's name or generateName (names are not
 * generated yet when admission runs), else `Unknown`.
 */

import type { StatusError } from '../../machinery/errors';
import { forbidden } from '../../machinery/errors';
import type { AdmissionAttributes } from '../types';

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
