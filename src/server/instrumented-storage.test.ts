/**
 * The store seen through `etcd_request_duration_seconds`: each call is labelled by its operation and the
 * group-resource of its key, the same for every key of a resource and for keys of unusual shape.
 */

import { expect, it } from 'vitest';
import { createMemoryStorage } from '../storage/memory/memory-storage';
import { instrumentStorage } from './instrumented-storage';

it('labels each call by operation and group-resource, whatever the key', async () => {
  const seen: string[] = [];
  const storage = instrumentStorage(createMemoryStorage(), (operation, type) =>
    seen.push(`${operation} ${type}`),
  );
  const object = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } };
  await storage.create('/core/configmaps/ns/a', object);
  await storage.create('/apps/deployments/ns/b', object);
  await storage.create('/apps/deployments/other/c', object);
  await storage.get('/core/configmaps/ns/a');
  await storage.get('//x/y');
  await storage.get('/core/configmaps');
  await storage.count('/apps/deployments/');
  expect(seen).toEqual([
    'create configmaps',
    'create deployments.apps',
    'create deployments.apps',
    'get configmaps',
    'get y.x',
    'get configmaps',
    'listWithCount deployments.apps',
  ]);
  // The same method each time it is asked for, bound to the store.
  expect(storage.get).toBe(storage.get);
  expect(storage.onCommit).toBe(storage.onCommit);
});
