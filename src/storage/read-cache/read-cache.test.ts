// The read cache conforms as a storage (over the memory backend), serves repeated reads from memory, and stays
// exact with two writers on one IndexedDB (fake-indexeddb): two handles, as a service worker and its next version
// during an update, each with its own cache, writing and reading the same keys in turns; an import through one;
// and a writer outside the lease, which the next own commit detects.
import { indexedDB, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/meta';
import { describeStorageConformance } from '../conformance';
import { createDexieStorage } from '../dexie/dexie-storage';
import { createMemoryStorage } from '../memory/memory-storage';
import type { Storage } from '../types';
import type { ReadCachedStorage } from './read-cache';
import { inProcessLocks } from './writer-lease';
import { awaitedLater } from '../../../test/support/awaited-later';
import { leased, writerOf } from '../../../test/support/two-writers';

let databases = 0;
const opened: Storage[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});

describeStorageConformance('read cache over memory', async () => {
  const name = `read-cache-conformance-${++databases}`;
  return leased(createMemoryStorage(), inProcessLocks(), name);
});

const thing = (n: number): KubeObject => ({ kind: 'Thing', metadata: { name: 'x' }, spec: { n } });
const spec = async (s: Storage, key: string) => (await s.get(key))?.object.spec;

describe('read cache over one IndexedDB with two writers', () => {
  const pair = () => {
    const db = `read-cache-${++databases}`;
    const locks = inProcessLocks();
    const open = () => {
      const storage = writerOf(db, locks);
      opened.push(storage);
      return storage;
    };
    return { db, a: open(), b: open() };
  };

  it('serves a repeated read from memory, and copies it', async () => {
    const { a } = pair();
    await a.create('/t/x', thing(1));
    const first = await a.get('/t/x');
    (first?.object.spec as { n: number }).n = 99;
    expect(await spec(a, '/t/x')).toEqual({ n: 1 });
    expect(a.hits).toBeGreaterThanOrEqual(1);
    expect(await a.get('/t/none')).toBeUndefined();
  });

  it('hands out its own entry uncopied: replaced by every commit, never the object listeners got', async () => {
    const { a, b } = pair();
    const delivered: unknown[] = [];
    a.onCommit((change) => delivered.push(change.object));
    expect(a.peekCurrent('/t/x')).toBeUndefined(); // not serving before its first write
    const created = await a.create('/t/x', thing(1));
    const first = a.peekCurrent('/t/x');
    expect(first?.object.spec).toEqual({ n: 1 });
    expect(first?.object).not.toBe(delivered[0]);
    expect(a.peekCurrent('/t/x')).toBe(first); // the same entry until a commit replaces it
    await a.update('/t/x', thing(2), created.revision);
    const second = a.peekCurrent('/t/x');
    expect(second).not.toBe(first);
    expect(second?.object.spec).toEqual({ n: 2 });
    expect(first?.object.spec).toEqual({ n: 1 }); // the old entry was replaced, not changed
    // The other handle writes: this one stops answering from memory; the writer answers its own commit.
    await b.update('/t/x', thing(3), (second as NonNullable<typeof second>).revision);
    expect(a.peekCurrent('/t/x')).toBeUndefined();
    expect(b.peekCurrent('/t/x')?.object.spec).toEqual({ n: 3 });
    expect(await spec(a, '/t/x')).toEqual({ n: 3 });
    await b.delete('/t/x');
    expect(b.peekCurrent('/t/x')).toBeNull();
    await b.clear();
    expect(b.peekCurrent('/t/y')).toBeUndefined();
  });

  it('reads what the other handle wrote last, whichever handle writes and reads', async () => {
    const { a, b } = pair();
    const handles = [a, b];
    let random = 7;
    const next = () => (random = (random * 1103515245 + 12345) % 2147483648);
    const model = new Map<string, number>();
    const keys = ['/t/a', '/t/b', '/t/c'];
    for (let step = 0; step < 120; step++) {
      const handle = handles[next() % 2] as ReadCachedStorage;
      const key = keys[next() % keys.length] as string;
      const n = step;
      if (next() % 3 === 0) {
        // A write: create, update or delete, by whichever handle, against the model.
        const stored = await handle.get(key);
        if (stored === undefined) await handle.create(key, thing(n));
        else if (next() % 4 === 0) {
          await handle.delete(key, stored.revision);
          model.delete(key);
          continue;
        } else await handle.update(key, thing(n), stored.revision);
        model.set(key, n);
      } else {
        const want = model.get(key);
        expect(await spec(handle, key), `step ${step}: ${key}`).toEqual(
          want === undefined ? undefined : { n: want },
        );
        // What memory hands out uncopied, when it answers at all, is the same value.
        const peeked = handle.peekCurrent(key);
        if (peeked !== undefined)
          expect(peeked?.object.spec, `step ${step}: ${key} peeked`).toEqual(
            want === undefined ? undefined : { n: want },
          );
      }
    }
    // Both handles served some reads from memory: the test exercised the cache, not only the store.
    expect(a.hits + b.hits).toBeGreaterThan(0);
  });

  it('two handles creating 16 at a time each: every acknowledged write kept, revisions consecutive', async () => {
    // Each handle's backend takes its own last revision on trust while it holds the lease (decision 0075): the
    // lease changing hands between bursts must make the next holder read the revision again.
    const { db, a, b } = pair();
    const feeds = new Map<ReadCachedStorage, number[]>();
    for (const h of [a, b]) {
      const seen: number[] = [];
      feeds.set(h, seen);
      h.onCommit((change) => seen.push(change.revision));
    }
    const acknowledged = new Map<string, number>();
    for (let round = 0; round < 6; round++) {
      const burst = [a, b].flatMap((h, which) =>
        Array.from({ length: 16 }, async (_, i) => {
          const key = `/t/${round}-${which}-${i}`;
          acknowledged.set(key, (await h.create(key, thing(i))).revision);
        }),
      );
      // A name both handles create: exactly one wins, the other is told it exists. Awaited with the burst
      // (not after it), so a burst write failing meanwhile fails this test, not the run.
      const [both] = await Promise.all([
        Promise.allSettled([a.create(`/t/both-${round}`, thing(0)), b.create(`/t/both-${round}`, thing(1))]),
        Promise.all(burst),
      ]);
      expect(both.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(
        ((both.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason as Error).message,
      ).toMatch(/already exists/);
    }
    const reader = createDexieStorage({ name: db, indexedDB, IDBKeyRange });
    opened.push(reader);
    const history = await reader.changesSince(0);
    expect(history.map((c) => c.revision)).toEqual(history.map((_, i) => i + 1));
    expect(history).toHaveLength(6 * 33);
    for (const [key, revision] of acknowledged) expect((await reader.get(key))?.revision, key).toBe(revision);
    // Each handle heard its own commits in increasing order.
    for (const seen of feeds.values()) expect(seen).toEqual([...seen].sort((x, y) => x - y));
    expect(new Set([...(feeds.get(a) ?? []), ...(feeds.get(b) ?? [])]).size).toBe(6 * 33);
  });

  it('a reset through the other handle: the first handle forgets the revision it knew', async () => {
    const { a, b } = pair();
    await a.create('/t/x', thing(1));
    await a.create('/t/y', thing(2));
    await b.clear();
    expect((await a.create('/t/z', thing(3))).revision).toBe(1);
    expect(await spec(a, '/t/x')).toBeUndefined();
  });

  it('reads writes that happened during a read in flight correctly afterwards', async () => {
    const { a, b } = pair();
    await a.create('/t/x', thing(1));
    const reading = awaitedLater(a.get('/t/x'));
    await b.update('/t/x', thing(2), 1);
    await reading;
    expect(await spec(a, '/t/x')).toEqual({ n: 2 });
  });

  it('an import through one handle is what the other reads', async () => {
    const { a, b } = pair();
    await a.create('/t/x', thing(1));
    const exported = await a.exportState();
    await a.update('/t/x', thing(2), 1);
    expect(await spec(a, '/t/x')).toEqual({ n: 2 });
    await b.importState(exported);
    expect(await spec(a, '/t/x')).toEqual({ n: 1 });
    expect(await spec(b, '/t/x')).toEqual({ n: 1 });
  });

  it('a writer outside the lease is noticed at the next own commit', async () => {
    const { db, a } = pair();
    await a.create('/t/x', thing(1));
    expect(await spec(a, '/t/x')).toEqual({ n: 1 });
    const outside = createDexieStorage({ name: db, indexedDB, IDBKeyRange });
    opened.push(outside);
    await outside.update('/t/x', thing(5), 1);
    await a.create('/t/y', thing(1));
    expect(await spec(a, '/t/x')).toEqual({ n: 5 });
  });
});
