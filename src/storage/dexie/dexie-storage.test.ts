// Runs the storage conformance suite against the Dexie backend over
// fake-indexeddb, plus what only a persistent store can show: a second
// connection sees what the first one committed, and a long list read in
// several transactions lets writes commit between them and still answers
// the collection as it was at one revision; and only the handle whose open
// created the database takes it for new.
import { indexedDB, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/meta';
import { describeStorageConformance } from '../conformance';
import { createDexieStorage } from './dexie-storage';

let databases = 0;
const fresh = () => createDexieStorage({ name: `storage-test-${++databases}`, indexedDB, IDBKeyRange });
/** A fresh store whose lists read `rows` rows per transaction. */
const readingRows = (rows: number) =>
  createDexieStorage({
    name: `storage-test-${++databases}`,
    indexedDB,
    IDBKeyRange,
    listRowsPerTransaction: rows,
  });

describeStorageConformance('dexie over fake-indexeddb', async () => fresh());
// Every list of the suite read two rows per transaction: each one goes on in several.
describeStorageConformance('dexie, lists read in transactions of two rows', async () => readingRows(2));
// As the browser's handle writes under the writer lease: the revision taken on trust, and first pages counting
// `remaining` from the collection's total kept in memory (range-counts.ts).
describeStorageConformance('dexie, written exclusively', async () => {
  const store = fresh();
  store.writeExclusively?.(true);
  return store;
});

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

describe('dexie storage: a database this handle created', () => {
  it('is new to the handle whose open created it, and to no later handle', async () => {
    const name = `storage-test-created-${++databases}`;
    const first = createDexieStorage({ name, indexedDB, IDBKeyRange });
    expect(await first.createdByOpen?.()).toBe(true);
    expect(await first.currentRevision()).toBe(0);
    await first.create('/a/x', { kind: 'Thing', metadata: { name: 'x' } });
    // Asked again after writes, the answer is still about the open.
    expect(await first.createdByOpen?.()).toBe(true);
    await first.close();

    const second = createDexieStorage({ name, indexedDB, IDBKeyRange });
    expect(await second.createdByOpen?.()).toBe(false);
    expect(await second.currentRevision()).toBe(1);
    await second.close();
  });
});

describe('dexie storage: a long list between writes', () => {
  const thing = (name: string, n: number): KubeObject => ({ kind: 'Thing', metadata: { name }, spec: { n } });
  const key = (i: number) => `/t/${String(i).padStart(3, '0')}`;

  it('lets writes commit between its transactions and answers one revision', async () => {
    const store = readingRows(10);
    for (let i = 0; i < 200; i += 2) await store.create(key(i), thing(key(i), i));
    const before = await store.list({ prefix: '/t/' });
    const revisionOf = (k: string) => before.items.find((i) => i.key === k)?.revision ?? 0;
    const settled: string[] = [];
    // Writes all over the range, issued as the list starts: before its rows, after them, created, updated, deleted.
    const listing = store.list({ prefix: '/t/' }).then((list) => {
      settled.push('list');
      return list;
    });
    const writes = [
      store.create(key(1), thing(key(1), 1)),
      store.create(key(199), thing(key(199), 199)),
      store.update(key(150), thing(key(150), -150), revisionOf(key(150))),
      store.delete(key(100)),
      store.delete(key(0)),
      store.create(key(101), thing(key(101), 101)),
    ].map((write) => write.then(() => settled.push('write')));
    await Promise.all(writes);
    const list = await listing;

    // The writes did not wait for the whole list.
    expect(settled.indexOf('list')).toBeGreaterThan(0);
    // The list is the collection at the revision it names: the one before the writes.
    expect(list.revision).toBe(before.revision);
    expect(list.items).toEqual(before.items);
    expect(list.more).toBe(false);
    // A filtered page of the same size, as an informer asks it: the matches of every transaction, in order.
    const odd = await store.list({
      prefix: '/t/',
      limit: 500,
      predicate: (o) => (o.spec as { n: number }).n % 2 !== 0,
    });
    expect(odd.items.map((i) => i.key)).toEqual([key(1), key(101), key(199)]);
    await store.close();
  });

  /** Every page of a list, as `key@revision`: by name when `name` is given, else by the predicate alone. */
  const namedPages = async (
    store: ReturnType<typeof readingRows>,
    options: { prefix: string; predicate: (o: KubeObject) => boolean; revision?: number; limit?: number },
    name: string | undefined,
  ): Promise<string[]> => {
    const keys: string[] = [];
    let after: string | undefined;
    for (let i = 0; i < 100; i++) {
      const page = await store.list({
        prefix: options.prefix,
        predicate: options.predicate,
        ...(options.revision !== undefined ? { revision: options.revision } : {}),
        ...(name !== undefined ? { name } : {}),
        ...(options.limit !== undefined ? { limit: options.limit } : {}),
        ...(after !== undefined ? { after } : {}),
      });
      keys.push(...page.items.map((item) => `${item.key}@${item.revision}`));
      if (!page.more) return keys;
      after = page.items.at(-1)?.key;
    }
    throw new Error('no last page');
  };

  it('finds the objects of one name by their keys, at a past revision and in pages, as a full read does', async () => {
    const store = readingRows(2);
    const names = ['a', 'kube-root-ca.crt', 'kube-root-ca.crt.old'];
    const keyOf = (i: number) => `/c/ns${String(i).padStart(3, '0')}/${names[i % 3] ?? ''}`;
    const named = (o: KubeObject) => o.metadata?.name === 'kube-root-ca.crt';
    for (let i = 0; i < 120; i++) await store.create(keyOf(i), thing(names[i % 3] ?? '', i));
    const then = await store.currentRevision();
    // Changes after `then`: a match deleted, one updated, one created between the others.
    await store.delete(keyOf(1));
    await store.update(keyOf(4), thing('kube-root-ca.crt', -4), 5);
    await store.create('/c/ns004a/kube-root-ca.crt', thing('kube-root-ca.crt', 1000));
    for (const revision of [then, undefined]) {
      for (const limit of [undefined, 3]) {
        const pages = (byName: boolean) =>
          namedPages(
            store,
            { prefix: '/c/', predicate: named, revision, limit },
            byName ? 'kube-root-ca.crt' : undefined,
          );
        const want = await pages(false);
        expect(want).toHaveLength(revision === undefined ? 40 : 40);
        expect(await pages(true), `at ${revision ?? 'now'}, limit ${limit ?? 'none'}`).toEqual(want);
      }
    }
    await store.close();
  });

  it('finds the objects of one name in namespaces of many objects, seeking past the rest, as a full read does', async () => {
    const store = readingRows(3);
    const named = (o: KubeObject) => o.metadata?.name === 'kube-root-ca.crt';
    const namespaces = ['ns0', 'ns0-a', 'ns00', 'ns1', 'ns2'];
    for (const ns of namespaces) {
      for (let i = 0; i < 40; i++) {
        const object = `o${String(i).padStart(2, '0')}`;
        await store.create(`/c/${ns}/${object}`, thing(object, i));
        if (i === namespaces.indexOf(ns) * 9)
          await store.create(`/c/${ns}/kube-root-ca.crt`, thing('kube-root-ca.crt', i));
      }
    }
    const then = await store.currentRevision();
    const deleted = await store.get('/c/ns1/kube-root-ca.crt');
    await store.delete('/c/ns1/kube-root-ca.crt');
    const updated = await store.get('/c/ns2/kube-root-ca.crt');
    await store.update('/c/ns2/kube-root-ca.crt', thing('kube-root-ca.crt', -2), updated?.revision ?? 0);
    await store.create('/c/ns1a/kube-root-ca.crt', thing('kube-root-ca.crt', 1000));
    expect(deleted).toBeDefined();
    for (const prefix of ['/c/', '/c/ns0/'])
      for (const revision of [then, undefined])
        for (const limit of [undefined, 1, 2]) {
          const pages = (byName: boolean) =>
            namedPages(
              store,
              { prefix, predicate: named, revision, limit },
              byName ? 'kube-root-ca.crt' : undefined,
            );
          const want = await pages(false);
          expect(want.length).toBeGreaterThan(0);
          expect(await pages(true), `${prefix} at ${revision ?? 'now'}, limit ${limit ?? 'none'}`).toEqual(
            want,
          );
        }
    await store.close();
  });

  it('is read again at the current revision when compaction passes it between transactions', async () => {
    const store = readingRows(5);
    for (let i = 0; i < 40; i++) await store.create(key(i), thing(key(i), i));
    const listing = store.list({ prefix: '/t/' });
    const written = store.update(key(30), thing(key(30), -30), 31).then(async (updated) => {
      await store.compact(updated.revision);
      return updated;
    });
    const [list, updated] = await Promise.all([listing, written]);
    expect(list.items).toHaveLength(40);
    // The update committed between the list's transactions, and compaction then passed the revision the list
    // had begun at: it was read again, whole, at the revision after the update.
    expect(list.revision).toBe(updated.revision);
    expect(list.items.find((i) => i.key === key(30))?.object.spec).toEqual({ n: -30 });
    // A caller's own revision that compaction passed is the caller's error.
    await expect(store.list({ prefix: '/t/', revision: 3 })).rejects.toMatchObject({ code: 'Compacted' });
    await store.close();
  });
});
