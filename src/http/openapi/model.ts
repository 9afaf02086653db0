/**
 * The flavor-neutral model of OpenAPI operations (paths, operations,
 * parameters, body and response references) and the query parameters the
 * real server documents for each verb. Documents render it as Swagger 2.0
 * or OpenAPI 3.
 */

import type { NamingProfile } from '../../machinery/naming';
export type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';
export type ParamType = 'string' | 'boolean' | 'integer';

export interface ParamModel {
  name: string;
  in: 'path' | 'query';
  type: ParamType;
  required?: boolean;
}

/**
 * A schema reference: a built-in definition's neutral name, a definition
 * published under its own name (custom resources), or a plain string (logs).
 */
export type BodyRef = { definition: string } | { published: string } | { string: true };

export interface OperationModel {
  method: Method;
  operationId: string;
  tag: string;
  action?: string;
  gvk?: { group: string; version: string; kind: string };
  params: ParamModel[];
  body?: { ref: BodyRef; contentTypes: string[] };
  responses: { code: string; ref?: BodyRef }[];
  produces: string[];
  consumes?: string[];
}

export interface PathModel {
  path: string;
  params: ParamModel[];
  operations: OperationModel[];
}

export const q = (name: string, type: ParamType = 'string'): ParamModel => ({ name, in: 'query', type });
export const pathParam = (name: string): ParamModel => ({ name, in: 'path', type: 'string', required: true });

export const listParams = [
  q('allowWatchBookmarks', 'boolean'),
  q('continue'),
  q('fieldSelector'),
  q('labelSelector'),
  q('limit', 'integer'),
  q('resourceVersion'),
  q('resourceVersionMatch'),
  q('sendInitialEvents', 'boolean'),
  q('timeoutSeconds', 'integer'),
  q('watch', 'boolean'),
];
export const writeParams = [q('dryRun'), q('fieldManager'), q('fieldValidation')];
export const patchParams = [...writeParams, q('force', 'boolean')];
export const deleteParams = [
  q('dryRun'),
  q('gracePeriodSeconds', 'integer'),
  q('orphanDependents', 'boolean'),
  q('propagationPolicy'),
];
export const deleteCollectionParams = [
  q('continue'),
  q('dryRun'),
  q('fieldSelector'),
  q('gracePeriodSeconds', 'integer'),
  q('labelSelector'),
  q('limit', 'integer'),
  q('orphanDependents', 'boolean'),
  q('propagationPolicy'),
  q('resourceVersion'),
  q('resourceVersionMatch'),
  q('sendInitialEvents', 'boolean'),
  q('timeoutSeconds', 'integer'),
];
export const pretty = q('pretty');

export const statusRef: BodyRef = { definition: 'apimachinery.pkg.apis.meta.v1.Status' };
export const deleteOptionsRef: BodyRef = { definition: 'apimachinery.pkg.apis.meta.v1.DeleteOptions' };
export const patchRef: BodyRef = { definition: 'apimachinery.pkg.apis.meta.v1.Patch' };
export const watchEventRef: BodyRef = { definition: 'apimachinery.pkg.apis.meta.v1.WatchEvent' };

export function upperFirst(s: string): string {
  return s === '' ? s : s[0]?.toUpperCase() + s.slice(1);
}

/** Names for operation ids and tags: `apps` → `Apps`, `rbac.authorization.<suffix>` → `RbacAuthorization`, core → `Core`. */
export function groupWords(profile: NamingProfile, group: string): string[] {
  if (group === '') return ['core'];
  const suffix = `.${profile.groupSuffix}`;
  const base = group.endsWith(suffix) ? group.slice(0, -suffix.length) : group;
  return base.split(/[.-]/).filter((w) => w !== '');
}
