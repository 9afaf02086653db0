/**
 * The namespace lister admission reads: it waits for the first sync instead
 * of answering "absent" from an empty cache, then answers from memory,
 * in step with namespace writes.
 */

import { expect, it } from 'vitest';
import { createMemoryStorage } from '../../storage/memory/memory-storage';
import { objectKey } from '../keys';
import { SharedInformerFactory } from './factory';
import { NAMESPACES, namespaceLister } from './namespace-lister';

it('answers from the namespace informer once synced, and follows writes', async () => {
  const storage = createMemoryStorage();
  await storage.create(objectKey(NAMESPACES, '', 'default'), { metadata: { name: 'default' } });
  const factory = new SharedInformerFactory(storage);
  const namespaces = namespaceLister(factory);
  expect(namespaces.hasSynced).toBe(false);
  const pending = namespaces.get('default');
  void factory.start();
  expect((await pending)?.metadata?.name).toBe('default');
  expect(namespaces.hasSynced).toBe(true);

  await storage.create(objectKey(NAMESPACES, '', 'team'), { metadata: { name: 'team' } });
  expect(namespaces.getNow('team')).toBeDefined();
  await storage.delete(objectKey(NAMESPACES, '', 'team'));
  expect(await namespaces.get('team')).toBeUndefined();
});
