// A state exported by one backend imports into the other and back, so a
// state saved in the browser (Dexie) opens in the Node host (memory) and the
// other way round.
import { indexedDB, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { createDexieStorage } from './dexie/dexie-storage';
import { createMemoryStorage } from './memory/memory-storage';
import type { Storage } from './types';

let databases = 0;
const dexie = () => createDexieStorage({ name: `export-import-${++databases}`, indexedDB, IDBKeyRange });

async function populate(store: Storage): Promise<void> {
  await store.create('/core/configmaps/default/a', {
    kind: 'ConfigMap',
    metadata: { name: 'a' },
    data: { k: 'v' },
  });
  await store.create('/core/configmaps/default/b', { kind: 'ConfigMap', metadata: { name: 'b' } });
  await store.update(
    '/core/configmaps/default/a',
    { kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: 'w' } },
    1,
  );
  await store.delete('/core/configmaps/default/b');
  await store.compact(2);
  await store.setSetting('sandbox.settings', { compactionIntervalMs: 10_000 });
}

async function state(store: Storage) {
  return {
    revision: await store.currentRevision(),
    compacted: await store.compactedRevision(),
    objects: await store.list({ prefix: '/' }),
    history: await store.changesSince(2),
    setting: await store.getSetting('sandbox.settings'),
  };
}

describe('state export across backends', () => {
  for (const [from, to] of [
    ['memory', 'dexie'],
    ['dexie', 'memory'],
  ] as const) {
    it(`${from} → ${to} → ${from}`, async () => {
      const open = { memory: createMemoryStorage, dexie } as const;
      const source = open[from]();
      const target = open[to]();
      const back = open[from]();
      await populate(source);
      await target.importState(await source.exportState());
      expect(await state(target)).toEqual(await state(source));
      await back.importState(await target.exportState());
      expect(await state(back)).toEqual(await state(source));
      await Promise.all([source.close(), target.close(), back.close()]);
    });
  }
});
