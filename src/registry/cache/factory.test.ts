/**
 * The informer factory: one informer per storage collection shared by its
 * consumers, a start that waits for every sync, informers created after
 * the start, resync of all after an import, and stop.
 */

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/meta';
import { createMemoryStorage } from '../../storage/memory/memory-storage';
import { objectKey } from '../keys';
import { SharedInformerFactory } from './factory';
import { awaitedLater } from '../../../test/support/awaited-later';

const CM = { group: '', resource: 'configmaps' };
const NS = { group: '', resource: 'namespaces' };

function obj(name: string, namespace?: string): KubeObject {
  return { metadata: { name, ...(namespace !== undefined ? { namespace } : {}) } };
}

describe('SharedInformerFactory', () => {
  it('shares one informer per storage collection', () => {
    const factory = new SharedInformerFactory(createMemoryStorage());
    const a = factory.informerFor(CM);
    expect(factory.informerFor({ group: '', resource: 'configmaps' })).toBe(a);
    expect(factory.informerFor(NS)).not.toBe(a);
    expect(factory.listerFor(CM)).toBe(a.lister);
  });

  it('starts every informer and resolves once all have synced', async () => {
    const storage = createMemoryStorage();
    await storage.create(objectKey(NS, '', 'default'), obj('default'));
    await storage.create(objectKey(CM, 'default', 'c'), obj('c', 'default'));
    const factory = new SharedInformerFactory(storage);
    const namespaces = factory.informerFor(NS);
    const configMaps = factory.informerFor(CM);
    let synced = false;
    const waiting = awaitedLater(factory.waitForCacheSync().then(() => (synced = true)));
    await Promise.resolve();
    expect(synced).toBe(false); // not started
    await factory.start();
    await waiting;
    expect(namespaces.lister.get('', 'default')).toBeDefined();
    expect(configMaps.lister.get('default', 'c')).toBeDefined();
  });

  it('starts an informer created after the start at once', async () => {
    const storage = createMemoryStorage();
    await storage.create(objectKey(CM, 'default', 'c'), obj('c', 'default'));
    const factory = new SharedInformerFactory(storage);
    await factory.start();
    const late = factory.informerFor(CM);
    await factory.waitForCacheSync();
    expect(late.hasSynced).toBe(true);
    expect(late.lister.list()).toHaveLength(1);
  });

  it('resyncs every informer after an import and stops them all', async () => {
    const storage = createMemoryStorage();
    const exported = await storage.exportState();
    const factory = new SharedInformerFactory(storage);
    const namespaces = factory.informerFor(NS);
    const configMaps = factory.informerFor(CM);
    await factory.start();
    await storage.create(objectKey(NS, '', 'x'), obj('x'));
    await storage.create(objectKey(CM, 'x', 'c'), obj('c', 'x'));
    const deleted: string[] = [];
    namespaces.addEventHandler({ delete: (o) => deleted.push(o.metadata?.name ?? '') });
    await storage.importState(exported);
    await factory.resync();
    expect(deleted).toEqual(['x']);
    expect(configMaps.lister.list()).toEqual([]);

    factory.stop();
    await storage.create(objectKey(NS, '', 'y'), obj('y'));
    expect(namespaces.lister.get('', 'y')).toBeUndefined();
  });
});
