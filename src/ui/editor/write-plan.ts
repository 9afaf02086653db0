/**
 * The request each editor operation sends: create is POST to the
 * collection, update is PUT to the object, apply is PATCH with
 * `application/apply-patch+yaml` (the text as written, with fieldManager
 * and, if asked, force). The same plan with `dryRun=All` is the preview.
 */

import type { KubeObject } from '../../api/meta';
import {
  resourcePath,
  type DiscoveredGroupVersion,
  type QueryParams,
  type ResourceRef,
} from '../../client/index';
import { collectionFor, parseManifest } from '../lib/manifest';

export type Operation = 'create' | 'update' | 'apply';

export interface WriteOptions {
  fieldManager: string;
  force: boolean;
  /** Unset means the server's default (Warn). */
  fieldValidation: '' | 'Ignore' | 'Warn' | 'Strict';
}

export interface WritePlan {
  operation: Operation;
  method: 'POST' | 'PUT' | 'PATCH';
  /** The path the request goes to. */
  path: string;
  /** The object's own path, to read what is stored. */
  objectPath: string;
  query: QueryParams;
  contentType: string;
  body: string;
  object: KubeObject;
}

export function planWrite(
  operation: Operation,
  text: string,
  options: WriteOptions,
  groupVersions: DiscoveredGroupVersion[],
  namespace: string,
): WritePlan {
  const object = parseManifest(text);
  const collection: ResourceRef = collectionFor(object, groupVersions, namespace);
  const name = object.metadata?.name;
  if ((name === undefined || name === '') && operation !== 'create')
    throw new Error(`${operation} needs metadata.name.`);
  const objectPath = name === undefined || name === '' ? '' : resourcePath({ ...collection, name });
  const query: QueryParams = {};
  if (options.fieldManager !== '') query['fieldManager'] = options.fieldManager;
  if (options.fieldValidation !== '') query['fieldValidation'] = options.fieldValidation;
  if (operation === 'apply') {
    if (options.fieldManager === '') throw new Error('apply needs a field manager.');
    if (object.metadata?.managedFields !== undefined)
      throw new Error('An applied configuration must not contain metadata.managedFields.');
    if (options.force) query['force'] = true;
    return {
      operation,
      method: 'PATCH',
      path: objectPath,
      objectPath,
      query,
      contentType: 'application/apply-patch+yaml',
      body: text,
      object,
    };
  }
  const body = JSON.stringify(object, null, 2);
  if (operation === 'create')
    return {
      operation,
      method: 'POST',
      path: resourcePath(collection),
      objectPath,
      query,
      contentType: 'application/json',
      body,
      object,
    };
  return {
    operation,
    method: 'PUT',
    path: objectPath,
    objectPath,
    query,
    contentType: 'application/json',
    body,
    object,
  };
}
