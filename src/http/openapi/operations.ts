/**
 * The operations of served resources as a flavor-neutral model: one path
 * per URL shape (collection, object, subresource, the deprecated watch
 * paths, all-namespaces lists), each operation with its action, the
 * group/version/kind it acts on, its query parameters, request body and
 * responses. kubectl reads these: `explain` finds a resource's kind through
 * its operations' group/version/kind, and server-side field validation is
 * detected by the `fieldValidation` parameter of the kind's PATCH.
 */

import type { ResourceType } from '../../registry/resource-type';
import type { NamingProfile } from '../../machinery/naming';
import { patchMediaTypes } from '../negotiate';
import {
  deleteCollectionParams,
  deleteOptionsRef,
  deleteParams,
  groupWords,
  listParams,
  patchParams,
  patchRef,
  pathParam,
  pretty,
  statusRef,
  upperFirst,
  watchEventRef,
  writeParams,
  type BodyRef,
  type Method,
  type OperationModel,
  type PathModel,
} from './model';
import { subresourcePath } from './subresources';

export type { BodyRef, OperationModel, ParamModel, PathModel } from './model';
export { groupWords } from './model';

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
  const streamProduces = [
    ...produces,
    'application/json;stream=watch',
    ...(input.protobuf ? [`${profile.protobufMediaType};stream=watch`] : []),
  ];
  const gvk = { group: rt.group, version: rt.version, kind: rt.kind };
  const nsParams = rt.namespaced ? [pathParam('namespace')] : [];
  const op = (
    method: Method,
    idVerb: string,
    action: string,
    rest: Partial<OperationModel> & Pick<OperationModel, 'responses'>,
  ): OperationModel => {
    const { operationId: idSuffix = `${scope}${rt.kind}`, ...others } = rest;
    return {
      method,
      tag,
      action,
      gvk,
      params: [],
      produces,
      ...others,
      operationId: `${idVerb}${gvName}${idSuffix}`,
    };
  };
  const writeBody = { ref: kindRef, contentTypes: ['*/*'] };
  const patchTypes = rt.custom
    ? [patchMediaTypes.json, patchMediaTypes.merge, patchMediaTypes.apply]
    : [patchMediaTypes.json, patchMediaTypes.merge, patchMediaTypes.strategic, patchMediaTypes.apply];
  const verbs = rt.verbs;
  const paths: PathModel[] = [];

  const collection: OperationModel[] = [];
  if (verbs.has('list'))
    collection.push(
      op('get', 'list', 'list', {
        params: listParams,
        responses: [{ code: '200', ref: listRef }, { code: '401' }],
        produces: streamProduces,
      }),
    );
  if (verbs.has('create'))
    collection.push(
      op('post', 'create', 'post', {
        params: writeParams,
        body: writeBody,
        responses: [
          { code: '200', ref: kindRef },
          { code: '201', ref: kindRef },
          { code: '202', ref: kindRef },
          { code: '401' },
        ],
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
  if (collection.length > 0)
    paths.push({
      path: `${prefix}${ns}/${rt.resource}`,
      params: [...nsParams, pretty],
      operations: collection,
    });

  const item: OperationModel[] = [];
  if (verbs.has('get'))
    item.push(op('get', 'read', 'get', { responses: [{ code: '200', ref: kindRef }, { code: '401' }] }));
  if (verbs.has('update'))
    item.push(
      op('put', 'replace', 'put', {
        params: writeParams,
        body: writeBody,
        responses: [{ code: '200', ref: kindRef }, { code: '201', ref: kindRef }, { code: '401' }],
      }),
    );
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
  if (item.length > 0)
    paths.push({
      path: `${prefix}${ns}/${rt.resource}/{name}`,
      params: [pathParam('name'), ...nsParams, pretty],
      operations: item,
    });

  if (verbs.has('list') && rt.namespaced) {
    paths.push({
      path: `${prefix}/${rt.resource}`,
      params: [...listParams, pretty],
      operations: [
        op('get', 'list', 'list', {
          operationId: `${rt.kind}ForAllNamespaces`,
          responses: [{ code: '200', ref: listRef }, { code: '401' }],
          produces: streamProduces,
        }),
      ],
    });
  }
  if (verbs.has('watch')) {
    const watchOp = (suffix: string, action: string): OperationModel =>
      op('get', 'watch', action, {
        operationId: suffix,
        responses: [{ code: '200', ref: watchEventRef }, { code: '401' }],
        produces: streamProduces,
      });
    paths.push({
      path: `${prefix}/watch${ns}/${rt.resource}`,
      params: [...listParams, ...nsParams, pretty],
      operations: [watchOp(`${scope}${rt.kind}List`, 'watchlist')],
    });
    paths.push({
      path: `${prefix}/watch${ns}/${rt.resource}/{name}`,
      params: [...listParams, pathParam('name'), ...nsParams, pretty],
      operations: [watchOp(`${scope}${rt.kind}`, 'watch')],
    });
    if (rt.namespaced)
      paths.push({
        path: `${prefix}/watch/${rt.resource}`,
        params: [...listParams, pretty],
        operations: [watchOp(`${rt.kind}ListForAllNamespaces`, 'watchlist')],
      });
  }

  for (const sub of rt.subresources.values()) {
    const subPath = subresourcePath(input, sub, {
      op,
      prefix,
      ns,
      nsParams,
      scope,
      patchTypes,
    });
    if (subPath !== undefined) paths.push(subPath);
  }
  return paths;
}
