// Runs the storage conformance suite against the Dexie backend over
// fake-indexeddb, plus what only a persistent store can show: a second
// connection sees what the first one committed.
import { indexedDB, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { describeStorageConformance } from '../conformance';
import { createDexieStorage } from './dexie-storage';

let databases = 0;
const fresh = () => createDexieStorage({ name: `storage-test-${++databases}`, indexedDB, IDBKeyRange });

describeStorageConformance('dexie over fake-indexeddb', async () => fresh());

describe('dexie storage persistence', () => {
  it('keeps objects, history, revision and settings across connections', async () => {
    const name = `storage-test-reopen-${++databases}`;
    const first = createDexieStorage({ name, indexedDB, IDBKeyRange });
    await first.create('/a/x', { kind: 'Thing', metadata: { name: 'x' } });
    await first.update('/a/x', { kind: 'Thing', metadata: { name: 'x' }, spec: { n: 1 } }, 1);
    await first.compact(1);
    await first.setSetting('token', 'abc');
    await first.close();

    const second = createDexieStorage({ name, indexedDB, IDBKeyRange });
    expect(await second.currentRevision()).toBe(2);
    expect(await second.compactedRevision()).toBe(1);
    expect((await second.get('/a/x'))?.object.spec).toEqual({ n: 1 });
    expect((await second.getAt('/a/x', 1))?.revision).toBe(1);
    expect(await second.getSetting('token')).toBe('abc');
    expect((await second.create('/a/y', { kind: 'Thing' })).revision).toBe(3);
    await second.close();
  });
});
