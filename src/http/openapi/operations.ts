/**
 * The operations of served resources as a flavor-neutral model: one path
 * per URL shape (collection, object, subresource, the deprecated watch
 * paths, all-namespaces lists), each operation with its action, the
 * group/version/kind it acts on, its query parameters, request body and
 * responses. kubectl reads these: `explain` finds a resource's kind through
 * its operations' group/version/kind, and server-side field validation is
 * detected by the `fieldValidation` parameter of the kind's PATCH.
 */

import type { ResourceType, SubresourceType } from '../../registry/resource-type';
import type { NamingProfile } from '../../machinery/naming';
import { patchMediaTypes } from '../negotiate';

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

const q = (name: string, type: ParamType = 'string'): ParamModel => ({ name, in: 'query', type });
const pathParam = (name: string): ParamModel => ({ name, in: 'path', type: 'string', required: true });

const listParams = [
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
const writeParams = [q('dryRun'), q('fieldManager'), q('fieldValidation')];
const patchParams = [...writeParams, q('force', 'boolean')];
const deleteParams = [q('dryRun'), q('gracePeriodSeconds', 'integer'), q('orphanDependents', 'boolean'), q('propagationPolicy')];
const deleteCollectionParams = [
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
const pretty = q('pretty');

const statusRef: BodyRef = { definition: 'apimachinery.pkg.apis.meta.v1.Status' };
const deleteOptionsRef: BodyRef = { definition: 'apimachinery.pkg.apis.meta.v1.DeleteOptions' };
const patchRef: BodyRef = { definition: 'apimachinery.pkg.apis.meta.v1.Patch' };
const watchEventRef: BodyRef = { definition: 'apimachinery.pkg.apis.meta.v1.WatchEvent' };

function upperFirst(s: string): string {
  return s === '' ? s : s[0]?.toUpperCase() + s.slice(1);
}

/** Names for operation ids and tags: `apps` → `Apps`, `rbac.authorization.<suffix>` → `RbacAuthorization`, core → `Core`. */
export function groupWords(profile: NamingProfile, group: string): string[] {
  if (group === '') return ['core'];
  const suffix = `.${profile.groupSuffix}`;
  const base = group.endsWith(suffix) ? group.slice(0, -suffix.length) : group;
  return base.split(/[.-]/).filter((w) => w !== '');
}

export interface ResourceOperationsInput {
  profile: NamingProfile;
  rt: ResourceType;
  /** The kind's and its list's schemas. */
  kindRef: BodyRef;
  listRef: BodyRef;
  /** Protobuf is offered for this resource. */
  protobuf: boolean;
}

/** Every path of one resource, its subresources included. */
export function resourcePaths(input: ResourceOperationsInput): PathModel[] {
  const { profile, rt } = input;
  const words = groupWords(profile, rt.group);
  const gvName = words.map(upperFirst).join('') + upperFirst(rt.version);
  const tag = `${words[0] ?? ''}${words.slice(1).map(upperFirst).join('')}_${rt.version}`;
  const prefix = rt.group === '' ? `/api/${rt.version}` : `/apis/${rt.group}/${rt.version}`;
  const ns = rt.namespaced ? '/namespaces/{namespace}' : '';
  const scope = rt.namespaced ? 'Namespaced' : '';
  const { kindRef, listRef } = input;
  const base = ['application/json', 'application/yaml'];
  const produces = input.protobuf ? [...base, profile.protobufMediaType] : base;
  const streamProduces = [...produces, 'application/json;stream=watch', ...(input.protobuf ? [`${profile.protobufMediaType};stream=watch`] : [])];
  const gvk = { group: rt.group, version: rt.version, kind: rt.kind };
  const nsParams = rt.namespaced ? [pathParam('namespace')] : [];
  const op = (method: Method, idVerb: string, action: string, rest: Partial<OperationModel> & Pick<OperationModel, 'responses'>): OperationModel => {
    const { operationId: idSuffix = `${scope}${rt.kind}`, ...others } = rest;
    return { method, tag, action, gvk, params: [], produces, ...others, operationId: `${idVerb}${gvName}${idSuffix}` };
  };
  const writeBody = { ref: kindRef, contentTypes: ['*/*'] };
  const patchTypes = rt.custom
    ? [patchMediaTypes.json, patchMediaTypes.merge, patchMediaTypes.apply]
    : [patchMediaTypes.json, patchMediaTypes.merge, patchMediaTypes.strategic, patchMediaTypes.apply];
  const verbs = rt.verbs;
  const paths: PathModel[] = [];

  const collection: OperationModel[] = [];
  if (verbs.has('list')) collection.push(op('get', 'list', 'list', { params: listParams, responses: [{ code: '200', ref: listRef }, { code: '401' }], produces: streamProduces }));
  if (verbs.has('create'))
    collection.push(
      op('post', 'create', 'post', {
        params: writeParams,
        body: writeBody,
        responses: [{ code: '200', ref: kindRef }, { code: '201', ref: kindRef }, { code: '202', ref: kindRef }, { code: '401' }],
      }),
    );
  if (verbs.has('deletecollection'))
    collection.push(
      op('delete', 'delete', 'deletecollection', {
        operationId: `Collection${scope}${rt.kind}`,
        params: deleteCollectionParams,
        body: { ref: deleteOptionsRef, contentTypes: ['*/*'] },
        responses: [{ code: '200', ref: statusRef }, { code: '401' }],
      }),
    );
  if (collection.length > 0) paths.push({ path: `${prefix}${ns}/${rt.resource}`, params: [...nsParams, pretty], operations: collection });

  const item: OperationModel[] = [];
  if (verbs.has('get')) item.push(op('get', 'read', 'get', { responses: [{ code: '200', ref: kindRef }, { code: '401' }] }));
  if (verbs.has('update'))
    item.push(op('put', 'replace', 'put', { params: writeParams, body: writeBody, responses: [{ code: '200', ref: kindRef }, { code: '201', ref: kindRef }, { code: '401' }] }));
  if (verbs.has('patch'))
    item.push(
      op('patch', 'patch', 'patch', {
        params: patchParams,
        body: { ref: patchRef, contentTypes: patchTypes },
        responses: [{ code: '200', ref: kindRef }, { code: '201', ref: kindRef }, { code: '401' }],
        consumes: patchTypes,
      }),
    );
  if (verbs.has('delete'))
    item.push(
      op('delete', 'delete', 'delete', {
        params: deleteParams,
        body: { ref: deleteOptionsRef, contentTypes: ['*/*'] },
        responses: [{ code: '200', ref: statusRef }, { code: '202', ref: statusRef }, { code: '401' }],
      }),
    );
  if (item.length > 0) paths.push({ path: `${prefix}${ns}/${rt.resource}/{name}`, params: [pathParam('name'), ...nsParams, pretty], operations: item });

  if (verbs.has('list') && rt.namespaced) {
    paths.push({
      path: `${prefix}/${rt.resource}`,
      params: [...listParams, pretty],
      operations: [op('get', 'list', 'list', { operationId: `${rt.kind}ForAllNamespaces`, responses: [{ code: '200', ref: listRef }, { code: '401' }], produces: streamProduces })],
    });
  }
  if (verbs.has('watch')) {
    const watchOp = (suffix: string, action: string): OperationModel =>
      op('get', 'watch', action, { operationId: suffix, responses: [{ code: '200', ref: watchEventRef }, { code: '401' }], produces: streamProduces });
    paths.push({ path: `${prefix}/watch${ns}/${rt.resource}`, params: [...listParams, ...nsParams, pretty], operations: [watchOp(`${scope}${rt.kind}List`, 'watchlist')] });
    paths.push({
      path: `${prefix}/watch${ns}/${rt.resource}/{name}`,
      params: [...listParams, pathParam('name'), ...nsParams, pretty],
      operations: [watchOp(`${scope}${rt.kind}`, 'watch')],
    });
    if (rt.namespaced)
      paths.push({ path: `${prefix}/watch/${rt.resource}`, params: [...listParams, pretty], operations: [watchOp(`${rt.kind}ListForAllNamespaces`, 'watchlist')] });
  }

  for (const sub of rt.subresources.values()) {
    const subPath = subresourcePath(input, sub, { op, prefix, ns, nsParams, scope, produces, writeBody, patchTypes });
    if (subPath !== undefined) paths.push(subPath);
  }
  return paths;
}

interface SubContext {
  op: (method: Method, idVerb: string, action: string, rest: Partial<OperationModel> & Pick<OperationModel, 'responses'>) => OperationModel;
  prefix: string;
  ns: string;
  nsParams: ParamModel[];
  scope: string;
  produces: string[];
  writeBody: { ref: BodyRef; contentTypes: string[] };
  patchTypes: string[];
}

function subresourcePath(input: ResourceOperationsInput, sub: SubresourceType, c: SubContext): PathModel | undefined {
  const { rt } = input;
  const suffix = `${c.scope}${rt.kind}${upperFirst(sub.name)}`;
  const ref: BodyRef = sub.definition !== undefined ? { definition: sub.definition } : { string: true };
  const gvk = { group: sub.group ?? rt.group, version: sub.version ?? rt.version, kind: sub.kind };
  const ops: OperationModel[] = [];
  // Subresources without a body kind (exec, attach, proxy, portforward, log) are "connect" actions on their options kind.
  const connect = sub.definition === undefined && sub.name !== 'log';
  const method = (m: Method, idVerb: string, action: string, extra: Partial<OperationModel> & Pick<OperationModel, 'responses'>): void => {
    ops.push(c.op(m, connect ? `connect${upperFirst(m)}` : idVerb, connect ? 'connect' : action, { operationId: suffix, gvk, ...extra }));
  };
  const okRef = sub.definition !== undefined ? ref : { string: true as const };
  if (sub.verbs.has('get')) method('get', 'read', 'get', { responses: [{ code: '200', ref: okRef }, { code: '401' }] });
  if (sub.verbs.has('create'))
    method('post', 'create', 'post', {
      ...(sub.definition !== undefined ? { params: [q('dryRun'), q('fieldManager'), q('fieldValidation')], body: { ref, contentTypes: ['*/*'] } } : {}),
      responses: [{ code: '200', ref: okRef }, { code: '201', ref: okRef }, { code: '202', ref: okRef }, { code: '401' }],
    });
  if (sub.verbs.has('update'))
    method('put', 'replace', 'put', {
      ...(sub.definition !== undefined ? { params: [q('dryRun'), q('fieldManager'), q('fieldValidation')], body: { ref, contentTypes: ['*/*'] } } : {}),
      responses: [{ code: '200', ref: okRef }, { code: '201', ref: okRef }, { code: '401' }],
    });
  if (sub.verbs.has('patch'))
    method('patch', 'patch', 'patch', {
      ...(sub.definition !== undefined
        ? {
            params: [q('dryRun'), q('fieldManager'), q('fieldValidation'), q('force', 'boolean')],
            body: { ref: { definition: 'apimachinery.pkg.apis.meta.v1.Patch' }, contentTypes: c.patchTypes },
            consumes: c.patchTypes,
          }
        : {}),
      responses: [{ code: '200', ref: okRef }, { code: '201', ref: okRef }, { code: '401' }],
    });
  if (sub.verbs.has('delete')) method('delete', 'delete', 'delete', { responses: [{ code: '200', ref: okRef }, { code: '401' }] });
  if (ops.length === 0) return undefined;
  const params = [pathParam('name'), ...c.nsParams, ...(connect ? [] : [pretty])];
  return { path: `${c.prefix}${c.ns}/${rt.resource}/{name}/${sub.name}`, params, operations: ops };
}
