/**
 * How objects are stored in etcd values: JSON without `resourceVersion`,
 * which is stamped on every read from the row's mod revision (the real
 * server does the same), so a row never holds a stale version of itself.
 * Values JSON cannot hold faithfully (functions, symbols, bigints) are
 * refused with `Internal` before anything is written, as IndexedDB refuses
 * what it cannot clone.
 */

import type { KubeObject } from '../../../api/meta';
import { StorageError } from '../../../storage/types';

export function encodeObject(object: KubeObject): string {
  checkStorable(object, '');
  const { resourceVersion: _ignored, ...metadata } = object.metadata ?? {};
  return JSON.stringify(object.metadata ? { ...object, metadata } : object);
}

/** Decodes a row's value and stamps the store revision it was written at. */
export function decodeObject(value: Buffer | Uint8Array | string, revision: number): KubeObject {
  const object = JSON.parse(
    typeof value === 'string' ? value : Buffer.from(value).toString('utf8'),
  ) as KubeObject;
  return stamp(object, revision);
}

export function stamp(object: KubeObject, revision: number): KubeObject {
  return { ...object, metadata: { ...object.metadata, resourceVersion: String(revision) } };
}

export function encodeValue(value: unknown): string {
  checkStorable(value, '');
  return JSON.stringify({ value });
}

export function decodeValue<T>(value: Buffer | Uint8Array): T | undefined {
  return (JSON.parse(Buffer.from(value).toString('utf8')) as { value?: T }).value;
}

function checkStorable(value: unknown, path: string): void {
  const type = typeof value;
  if (type === 'function' || type === 'symbol' || type === 'bigint')
    throw new StorageError('Internal', `the value at ${path || '/'} (${type}) cannot be stored`);
  if (typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    value.forEach((item, i) => checkStorable(item, `${path}/${i}`));
    return;
  }
  for (const [key, item] of Object.entries(value)) checkStorable(item, `${path}/${key}`);
}
