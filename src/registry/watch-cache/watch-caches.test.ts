import { describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../storage/memory/memory-storage';
import { WatchCaches } from './watch-caches';
import { resourcePrefixOf } from '../keys';

const crdPrefix = '/apiextensions.orch.io/customresourcedefinitions/';

function crd(established: boolean) {
  return {
    metadata: { name: 'widgets.example.com' },
    spec: { group: 'example.com' },
    status: {
      acceptedNames: { plural: 'widgets', kind: 'Widget' },
      conditions: [{ type: 'Established', status: established ? 'True' : 'False' }],
    },
  };
}

describe('WatchCaches', () => {
  it('maps a key to its resource', () => {
    expect(resourcePrefixOf('/core/configmaps/default/a')).toBe('/core/configmaps/');
    expect(resourcePrefixOf('/core/configmaps/')).toBe('/core/configmaps/');
  });

  it('starts every cache at the revision the server started at', async () => {
    const storage = createMemoryStorage();
    await storage.create('/core/configmaps/default/a', { metadata: { name: 'a' } });
    const caches = new WatchCaches(storage, crdPrefix, () => new Date());
    await caches.start();
    await storage.create('/core/configmaps/default/b', { metadata: { name: 'b' } });
    expect(caches.read('/core/configmaps/', 0)).toEqual({ tooOld: 1 });
    const read = caches.read('/core/configmaps/default/', 1);
    expect('changes' in read && read.changes.map((c) => c.key)).toEqual(['/core/configmaps/default/b']);
    expect(caches.read('/core/secrets/', 1)).toEqual({ changes: [] });
    expect(caches.stats()).toEqual({ windows: 2, events: 1 });
    caches.stop();
  });

  it('keeps the changes committed while a restart reads its revision', async () => {
    const inner = createMemoryStorage();
    let during: number | undefined;
    // A commit lands between reading the revision and installing the new windows.
    const storage = new Proxy(inner, {
      get(target, prop, receiver) {
        if (prop === 'currentRevision')
          return async () => {
            const revision = await target.currentRevision();
            if (during === undefined) return revision;
            during = (await target.create('/core/configmaps/default/late', { metadata: { name: 'late' } }))
              .revision;
            return revision;
          };
        const value: unknown = Reflect.get(target, prop, receiver);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const caches = new WatchCaches(storage, crdPrefix, () => new Date());
    await caches.start();
    const a = await storage.create('/core/configmaps/default/a', { metadata: { name: 'a' } });
    during = 0;
    await caches.start();
    expect(caches.startedAt).toBe(a.revision);
    const read = caches.read('/core/configmaps/', a.revision);
    expect('changes' in read && read.changes.map((c) => c.revision)).toEqual([during]);
    caches.stop();
  });

  it('starts a custom resource cache when its CRD becomes Established', async () => {
    const storage = createMemoryStorage();
    const caches = new WatchCaches(storage, crdPrefix, () => new Date());
    await caches.start();
    const created = await storage.create(`${crdPrefix}widgets.example.com`, crd(false));
    expect(caches.read('/example.com/widgets/', 0)).toEqual({ changes: [] });
    const established = await storage.update(`${crdPrefix}widgets.example.com`, crd(true), created.revision);
    expect(caches.read('/example.com/widgets/', established.revision - 1)).toEqual({
      tooOld: established.revision,
    });
    await storage.create('/example.com/widgets/default/w', { metadata: { name: 'w' } });
    const read = caches.read('/example.com/widgets/', established.revision);
    expect('changes' in read && read.changes).toHaveLength(1);
    caches.stop();
  });
});
