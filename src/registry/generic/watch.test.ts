import { describe, expect, it } from 'vitest';
import type { Status } from '../../api/meta';
import { createMemoryStorage } from '../../storage/memory/memory-storage';
import type { Storage } from '../../storage/types';
import type { ResourceType } from '../resource-type';
import { WatchCaches } from '../watch-cache/watch-caches';
import { openWatch } from './watch';
import { WatchHub } from './watch-hub';
import { nextTurn } from '../../machinery/cooperative';

const configmaps = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  storageVersion: { apiVersion: 'v1', kind: 'ConfigMap' },
} as unknown as ResourceType;
const prefix = '/core/configmaps/';

/** The store, counting its live commit listeners. */
function countingStorage(): { storage: Storage; listeners: () => number } {
  const inner = createMemoryStorage();
  let listeners = 0;
  const storage = new Proxy(inner, {
    get(target, prop, receiver) {
      if (prop === 'onCommit')
        return (listener: Parameters<Storage['onCommit']>[0]) => {
          listeners++;
          const off = target.onCommit(listener);
          let done = false;
          return () => {
            if (!done) listeners--;
            done = true;
            off();
          };
        };
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { storage, listeners: () => listeners };
}

describe('openWatch', () => {
  it('releases its commit listener when refused as too old, before the caller holds the handle', async () => {
    const { storage, listeners } = countingStorage();
    await storage.create(`${prefix}default/a`, { metadata: { name: 'a' } });
    const caches = new WatchCaches(
      storage,
      '/apiextensions.orch.io/customresourcedefinitions/',
      () => new Date(),
    );
    await caches.start();
    const before = listeners();
    const failures: Status[] = [];
    const handle = openWatch(
      storage,
      configmaps,
      { prefix },
      { initialEvents: false, startRevision: 0 },
      { emit: () => undefined, fail: (s) => failures.push(s) },
      { caches, tooLargeResourceVersionWaitMs: 0 },
    );
    await handle.started;
    expect(failures.map((s) => s.code)).toEqual([410]);
    expect(listeners()).toBe(before);
    caches.stop();
  });

  it('releases its commit listener when the store history it would replay is compacted', async () => {
    const { storage, listeners } = countingStorage();
    await storage.create(`${prefix}default/a`, { metadata: { name: 'a' } });
    const b = await storage.create(`${prefix}default/b`, { metadata: { name: 'b' } });
    await storage.compact(b.revision);
    const failures: Status[] = [];
    const handle = openWatch(
      storage,
      configmaps,
      { prefix },
      { initialEvents: false, startRevision: 1 },
      { emit: () => undefined, fail: (s) => failures.push(s) },
    );
    await handle.started;
    expect(failures.map((s) => s.code)).toEqual([410]);
    expect(listeners()).toBe(0);
  });
  it('opened between a commit and its delivery after the answer, sends the change once', async () => {
    const storage = createMemoryStorage();
    const hub = new WatchHub(storage, () => false, true);
    // A watch open before, so that the hub follows the store.
    hub.subscribe(() => undefined);
    await storage.create(`${prefix}default/a`, { metadata: { name: 'a' } });
    const current = await storage.currentRevision();
    const sent: string[] = [];
    const sink = { emit: (type: string) => sent.push(type), fail: () => undefined };
    // One from the revision before the commit (replays it), one from the commit's own (does not).
    const before = openWatch(
      storage,
      configmaps,
      { prefix },
      { initialEvents: false, startRevision: 0 },
      sink,
      {
        hub,
        tooLargeResourceVersionWaitMs: 0,
      },
    );
    const after = openWatch(
      storage,
      configmaps,
      { prefix },
      { initialEvents: false, startRevision: current },
      { emit: (type) => sent.push(`after:${type}`), fail: () => undefined },
      { hub, tooLargeResourceVersionWaitMs: 0 },
    );
    await Promise.all([before.started, after.started]);
    await nextTurn();
    expect(sent).toEqual(['ADDED']);
    before.stop();
    after.stop();
    hub.stop();
  });
  it('has seen the changes of other collections: its revision follows the store, before and after it is live', async () => {
    const storage = createMemoryStorage();
    const hub = new WatchHub(storage, () => false);
    hub.subscribe(() => undefined);
    await storage.create(`${prefix}default/a`, { metadata: { name: 'a' } });
    const sent: string[] = [];
    const handle = openWatch(
      storage,
      configmaps,
      { prefix: `${prefix}default/` },
      { initialEvents: true },
      { emit: (type, object) => sent.push(`${type} ${object.metadata?.name ?? ''}`), fail: () => undefined },
      { hub, tooLargeResourceVersionWaitMs: 0 },
    );
    // Committed before the watch is live (its list is still to be read): a secret, then a ConfigMap elsewhere.
    await storage.create('/core/secrets/default/s', { metadata: { name: 's' } });
    await storage.create(`${prefix}other/b`, { metadata: { name: 'b' } });
    await handle.started;
    expect(handle.isLive()).toBe(true);
    expect(handle.lastRevision()).toBe(3);
    await storage.create(`${prefix}default/c`, { metadata: { name: 'c' } });
    await storage.create('/core/secrets/default/t', { metadata: { name: 't' } });
    expect(handle.lastRevision()).toBe(5);
    expect(sent).toEqual(['ADDED a', 'ADDED c']);
    handle.stop();
    hub.stop();
  });
});
