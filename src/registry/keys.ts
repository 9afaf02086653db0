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

export function objectKey(storage: GroupResource, namespace: string, name: string): string {
  return `${collectionPrefix(storage, namespace)}${name}`;
}
