/**
 * The shared informer against the memory storage: list-then-follow without
 * losing or doubling a commit that lands while the list is in flight,
 * handlers (live, late with replayed adds, failing), frozen objects,
 * indexes, resync after the state was replaced without commits, and stop.
 */

import { describe, expect, it, vi } from 'vitest';
import type { KubeObject } from '../../api/meta';
import { createMemoryStorage } from '../../storage/memory/memory-storage';
import type { ChangeRecord, ListOptions, ListResult, Storage } from '../../storage/types';
import { objectKey } from '../keys';
import { SharedInformer } from './informer';
import type { InformerEventHandler } from './types';
import { awaitedLater } from '../../../test/support/awaited-later';

const CM = { group: '', resource: 'configmaps' };

function cm(namespace: string, name: string, data: Record<string, string> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace, name }, data };
}

const key = (ns: string, name: string): string => objectKey(CM, ns, name);

/** A handler that records events as `type ns/name@rv`. */
function recorder(): { events: string[]; handler: InformerEventHandler } {
  const events: string[] = [];
  const id = (o: KubeObject): string =>
    `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}@${o.metadata?.resourceVersion ?? ''}`;
  return {
    events,
    handler: {
      add: (o) => events.push(`add ${id(o)}`),
      update: (old, o) => events.push(`update ${id(old)} -> ${id(o)}`),
      delete: (o) => events.push(`delete ${id(o)}`),
    },
  };
}

/** The storage with `list` answers held back until `release()`; `listed` resolves once the snapshot is read. */
function pausedList(storage: Storage): { storage: Storage; release: () => void; listed: Promise<void> } {
  let release: () => void = () => undefined;
  let signalListed: () => void = () => undefined;
  const gate = new Promise<void>((r) => (release = r));
  const listed = new Promise<void>((r) => (signalListed = r));
  const wrapped: Storage = Object.create(storage) as Storage;
  wrapped.list = async (options: ListOptions): Promise<ListResult> => {
    const result = await storage.list(options);
    signalListed();
    await gate;
    return result;
  };
  wrapped.onCommit = (listener) => storage.onCommit(listener);
  return { storage: wrapped, release, listed };
}

describe('SharedInformer', () => {
  it('lists what is stored, then follows commits synchronously', async () => {
    const storage = createMemoryStorage();
    await storage.create(key('a', 'one'), cm('a', 'one'));
    const informer = new SharedInformer(storage, CM);
    await informer.start();
    expect(informer.hasSynced).toBe(true);
    expect(informer.lister.get('a', 'one')?.metadata?.resourceVersion).toBe('1');

    const created = storage.create(key('b', 'two'), cm('b', 'two'));
    // Visible before the write's promise settles: the cache changes inside the commit.
    expect(informer.lister.get('b', 'two')).toBeDefined();
    await created;
    expect(informer.lastSyncRevision).toBe(2);
    expect(informer.lister.list().length).toBe(2);
    expect(informer.lister.list('b').map((o) => o.metadata?.name)).toEqual(['two']);
    expect(informer.lister.list('c')).toEqual([]);
  });

  it('neither loses nor doubles commits made while the list is in flight', async () => {
    const base = createMemoryStorage();
    await base.create(key('a', 'before'), cm('a', 'before'));
    await base.create(key('a', 'changed'), cm('a', 'changed'));
    await base.create(key('a', 'deleted'), cm('a', 'deleted'));
    const { storage, release, listed } = pausedList(base);
    const informer = new SharedInformer(storage, CM);
    const { events, handler } = recorder();
    informer.addEventHandler(handler);
    const started = awaitedLater(informer.start());
    await listed; // the snapshot is read at revision 3
    await base.create(key('a', 'after'), cm('a', 'after'));
    const stored = await base.get(key('a', 'changed'));
    await base.update(key('a', 'changed'), cm('a', 'changed', { x: '1' }), stored?.revision ?? 0);
    await base.delete(key('a', 'deleted'));
    release();
    await started;

    const names = informer.lister.list('a').map((o) => o.metadata?.name);
    expect(names.sort()).toEqual(['after', 'before', 'changed']);
    expect(informer.lister.get('a', 'changed')?.data).toEqual({ x: '1' });
    expect(informer.lastSyncRevision).toBe(6);
    // Commits applied live first, then the snapshot filled in what they did not touch; nothing twice.
    expect(events).toEqual(['add a/after@4', 'add a/changed@5', 'add a/before@1']);
  });

  it('lets the snapshot win for commits it already holds', async () => {
    const base = createMemoryStorage();
    const { storage, release } = pausedList(base);
    const informer = new SharedInformer(storage, CM);
    const { events, handler } = recorder();
    informer.addEventHandler(handler);
    // Subscribed, list not yet read: this commit is heard live and is also in the snapshot.
    const started = awaitedLater(informer.start());
    await base.create(key('a', 'x'), cm('a', 'x'));
    release();
    await started;
    expect(events).toEqual(['add a/x@1']);
    expect(informer.lister.list()).toHaveLength(1);
  });

  it('reports updates and deletes with the previous and the last state', async () => {
    const storage = createMemoryStorage();
    const informer = new SharedInformer(storage, CM);
    await informer.start();
    const { events, handler } = recorder();
    informer.addEventHandler(handler);
    const created = await storage.create(key('a', 'x'), cm('a', 'x'));
    await storage.update(key('a', 'x'), cm('a', 'x', { k: 'v' }), created.revision);
    await storage.delete(key('a', 'x'));
    await storage.create('/core/secrets/a/x', cm('a', 'x')); // another collection: not heard
    expect(events).toEqual(['add a/x@1', 'update a/x@1 -> a/x@2', 'delete a/x@2']);
    expect(informer.lister.get('a', 'x')).toBeUndefined();
    expect(informer.lastSyncRevision).toBe(4);
  });

  it('replays existing objects as adds to a handler added late, then removes it', async () => {
    const storage = createMemoryStorage();
    await storage.create(key('a', 'one'), cm('a', 'one'));
    await storage.create(key('b', 'two'), cm('b', 'two'));
    const informer = new SharedInformer(storage, CM);
    await informer.start();
    const { events, handler } = recorder();
    const remove = informer.addEventHandler(handler);
    expect(events.sort()).toEqual(['add a/one@1', 'add b/two@2']);
    remove();
    await storage.create(key('c', 'three'), cm('c', 'three'));
    expect(events).toHaveLength(2);
  });

  it('keeps going when a handler throws', async () => {
    const storage = createMemoryStorage();
    const informer = new SharedInformer(storage, CM);
    await informer.start();
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    informer.addEventHandler({
      add: () => {
        throw new Error('boom');
      },
    });
    const { events, handler } = recorder();
    informer.addEventHandler(handler);
    await storage.create(key('a', 'x'), cm('a', 'x'));
    expect(events).toEqual(['add a/x@1']);
    expect(informer.lister.get('a', 'x')).toBeDefined();
    expect(error).toHaveBeenCalledWith('informer event handler failed', expect.any(Error));
    error.mockRestore();
  });

  it('hands out frozen copies, apart from the change records other listeners get', async () => {
    const storage = createMemoryStorage();
    const informer = new SharedInformer(storage, CM);
    await informer.start();
    const heard: KubeObject[] = [];
    storage.onCommit((change) => heard.push(change.object));
    await storage.create(key('a', 'x'), cm('a', 'x', { k: 'v' }));
    const cached = informer.lister.get('a', 'x') as KubeObject;
    expect(Object.isFrozen(cached)).toBe(true);
    expect(Object.isFrozen(cached.data)).toBe(true);
    expect(() => {
      (cached.data as Record<string, string>).k = 'changed';
    }).toThrow(TypeError);
    expect(Object.isFrozen(heard[0])).toBe(false);
    expect(heard[0]).not.toBe(cached);
  });

  it('answers byIndex for indexes registered before or after the sync', async () => {
    const storage = createMemoryStorage();
    await storage.create(key('a', 'one'), cm('a', 'one', { role: 'admin' }));
    const informer = new SharedInformer(storage, CM);
    const byRole = (o: KubeObject): readonly string[] => [String((o.data as { role?: string }).role ?? '')];
    informer.addIndex('role', byRole);
    await informer.start();
    const created = await storage.create(key('b', 'two'), cm('b', 'two', { role: 'admin' }));
    expect(informer.lister.byIndex('role', 'admin').length).toBe(2);
    await storage.update(key('b', 'two'), cm('b', 'two', { role: 'view' }), created.revision);
    expect(informer.lister.byIndex('role', 'admin').map((o) => o.metadata?.name)).toEqual(['one']);
    expect(informer.lister.byIndex('role', 'view').map((o) => o.metadata?.name)).toEqual(['two']);
    await storage.delete(key('b', 'two'));
    expect(informer.lister.byIndex('role', 'view')).toEqual([]);

    informer.addIndex('role', byRole); // the same function again: a no-op
    expect(() => informer.addIndex('role', () => [])).toThrow(/already registered/);
    informer.addIndex('namespace', (o) => [o.metadata?.namespace ?? '']);
    expect(informer.lister.byIndex('namespace', 'a')).toHaveLength(1);
    expect(() => informer.lister.byIndex('missing', 'x')).toThrow(/not registered/);
  });

  it('resyncs after an import replaced the state, reporting the differences', async () => {
    const storage = createMemoryStorage();
    await storage.create(key('a', 'kept'), cm('a', 'kept'));
    await storage.create(key('a', 'changed'), cm('a', 'changed'));
    const exported = await storage.exportState();
    await storage.create(key('a', 'gone'), cm('a', 'gone'));
    const stored = await storage.get(key('a', 'changed'));
    await storage.update(key('a', 'changed'), cm('a', 'changed', { k: 'v' }), stored?.revision ?? 0);

    const informer = new SharedInformer(storage, CM);
    await informer.start();
    const { events, handler } = recorder();
    informer.addEventHandler(handler);
    events.length = 0;
    await storage.importState(exported);
    expect(informer.lister.get('a', 'gone')).toBeDefined(); // imports emit no commits
    await informer.resync();
    expect(events.sort()).toEqual(['delete a/gone@3', 'update a/changed@4 -> a/changed@2']);
    expect(informer.lastSyncRevision).toBe(2); // backwards, with the imported store
    // Commits after the import are followed although their revisions are below the old ones.
    await storage.create(key('a', 'new'), cm('a', 'new'));
    expect(informer.lister.get('a', 'new')?.metadata?.resourceVersion).toBe('3');
  });

  it('resyncs after clear', async () => {
    const storage = createMemoryStorage();
    await storage.create(key('a', 'x'), cm('a', 'x'));
    const informer = new SharedInformer(storage, CM);
    await informer.start();
    await storage.clear();
    await informer.resync();
    expect(informer.lister.list()).toEqual([]);
    expect(informer.lastSyncRevision).toBe(0);
  });

  it('stops following commits on stop, and catches up on start', async () => {
    const storage = createMemoryStorage();
    const informer = new SharedInformer(storage, CM);
    await informer.start();
    informer.stop();
    await storage.create(key('a', 'x'), cm('a', 'x'));
    expect(informer.lister.get('a', 'x')).toBeUndefined();
    await informer.resync(); // a stopped informer does not list
    expect(informer.lister.get('a', 'x')).toBeUndefined();
    await informer.start();
    expect(informer.lister.get('a', 'x')).toBeDefined();
  });

  it('drops a list that was in flight when stopped', async () => {
    const base = createMemoryStorage();
    await base.create(key('a', 'x'), cm('a', 'x'));
    const { storage, release } = pausedList(base);
    const informer = new SharedInformer(storage, CM);
    const started = informer.start();
    informer.stop();
    release();
    await started;
    expect(informer.hasSynced).toBe(false);
    expect(informer.lister.list()).toEqual([]);
  });

  it('lets start be retried after a failed list', async () => {
    const base = createMemoryStorage();
    const storage: Storage = Object.create(base) as Storage;
    let fail = true;
    storage.list = (options) => (fail ? Promise.reject(new Error('down')) : base.list(options));
    storage.onCommit = (listener) => base.onCommit(listener);
    const informer = new SharedInformer(storage, CM);
    await expect(informer.start()).rejects.toThrow('down');
    fail = false;
    await informer.start();
    await informer.synced;
    expect(informer.hasSynced).toBe(true);
  });

  it('ignores a commit announced after a list already read it', async () => {
    const base = createMemoryStorage();
    const listeners: ((change: ChangeRecord) => void)[] = [];
    const storage: Storage = Object.create(base) as Storage;
    storage.onCommit = (listener) => {
      listeners.push(listener);
      return () => undefined;
    };
    await base.create(key('a', 'x'), cm('a', 'x', { v: '2' }));
    const informer = new SharedInformer(storage, CM);
    await informer.start();
    // A backend that announces commits late (after its transaction settled) may announce one the list held.
    for (const l of listeners) l({ revision: 1, type: 'DELETED', key: key('a', 'x'), object: cm('a', 'x') });
    expect(informer.lister.get('a', 'x')).toBeDefined();
  });
});
