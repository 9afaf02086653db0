/**
 * The cache behind an informer: namespace buckets taken from storage keys
 * (cluster-scoped and namespaced), replacement and removal keeping the
 * namespace and custom indexes exact, and an index function that throws.
 */

import { expect, it, vi } from 'vitest';
import type { KubeObject } from '../../api/meta';
import { collectionPrefix } from '../keys';
import { ObjectCache } from './object-cache';

const prefix = collectionPrefix({ group: 'rbac.authorization.k8s.io', resource: 'rolebindings' });

function binding(namespace: string, name: string, role: string): KubeObject {
  return { metadata: { namespace, name }, roleRef: { name: role } };
}

const roleOf = (o: KubeObject): readonly string[] => [(o.roleRef as { name: string }).name];

it('keeps namespace buckets and indexes exact through set and delete', () => {
  const cache = new ObjectCache(prefix);
  cache.addIndex('role', roleOf);
  cache.set(`${prefix}a/one`, binding('a', 'one', 'admin'), 1);
  cache.set(`${prefix}b/two`, binding('b', 'two', 'admin'), 2);
  expect(cache.get('a', 'one')?.metadata?.name).toBe('one');
  expect(cache.list('a')).toHaveLength(1);
  expect(cache.byIndex('role', 'admin')).toHaveLength(2);

  const previous = cache.set(`${prefix}b/two`, binding('b', 'two', 'edit'), 3);
  expect(previous?.revision).toBe(2);
  expect(cache.byIndex('role', 'admin').map((o) => o.metadata?.name)).toEqual(['one']);
  expect(cache.list('b')).toHaveLength(1);

  expect(cache.delete(`${prefix}b/two`)?.revision).toBe(3);
  expect(cache.delete(`${prefix}b/two`)).toBeUndefined();
  expect(cache.list('b')).toEqual([]);
  expect(cache.byIndex('role', 'edit')).toEqual([]);
  expect(cache.size).toBe(1);
});

it('files cluster-scoped objects under the empty namespace', () => {
  const roles = collectionPrefix({ group: 'rbac.authorization.k8s.io', resource: 'clusterroles' });
  const cache = new ObjectCache(roles);
  cache.set(`${roles}admin`, { metadata: { name: 'admin' } }, 1);
  expect(cache.get('', 'admin')).toBeDefined();
  expect(cache.list('')).toHaveLength(1);
});

it('indexes an object nowhere when its index function throws', () => {
  const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const cache = new ObjectCache(prefix);
  cache.addIndex('role', roleOf);
  cache.set(`${prefix}a/odd`, { metadata: { namespace: 'a', name: 'odd' } }, 1);
  expect(cache.get('a', 'odd')).toBeDefined();
  expect(cache.delete(`${prefix}a/odd`)).toBeDefined();
  expect(error).toHaveBeenCalled();
  error.mockRestore();
});
