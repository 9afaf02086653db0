/**
 * Storage keys: `/<group|core>/<resource>/<namespace>/<name>` for namespaced
 * objects and `/<group|core>/<resource>/<name>` for cluster-scoped ones, so
 * that one key-range scan lists a collection in one namespace or across all
 * namespaces, in the order the real server lists them.
 */

import type { GroupResource } from '../machinery/errors';

function groupSegment(group: string): string {
  return group === '' ? 'core' : group;
}

export function collectionPrefix(storage: GroupResource, namespace = ''): string {
  const base = `/${groupSegment(storage.group)}/${storage.resource}/`;
  return namespace === '' ? base : `${base}${namespace}/`;
}

/** `/<group|core>/<resource>/` of a key or collection prefix: the collection it lies in, across namespaces. */
export function resourcePrefixOf(key: string): string {
  const second = key.indexOf('/', 1);
  const third = second < 0 ? -1 : key.indexOf('/', second + 1);
  return third < 0 ? key : key.slice(0, third + 1);
}

export function objectKey(storage: GroupResource, namespace: string, name: string): string {
  return `${collectionPrefix(storage, namespace)}${name}`;
}
