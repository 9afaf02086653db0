// Group commit: one transaction carries several writes, each with its own
// revision and its own plan error, all of them or none durable; and the
// storage built on it still delivers commits in revision order.
import { indexedDB, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/meta';
import { StorageError, type ChangeRecord, type Storage } from '../types';
import { createDexieStorage } from './dexie-storage';
import { openDatabase, type ObjectRow } from './schema';
import { commitBatch, type BatchWrite, type NativeDatabase, type WriteOutcome } from './write-batch';

let databases = 0;

async function freshDatabase() {
  const db = openDatabase(`write-batch-test-${++databases}`, { indexedDB, IDBKeyRange, cache: 'disabled' });
  await db.open();
  return db;
}

const native = (db: { backendDB(): unknown }) => db.backendDB() as NativeDatabase;

/** The revision as the store reads it: the history's last key (no batch writes a counter, decision 0086). */
async function storedRevision(db: Awaited<ReturnType<typeof freshDatabase>>): Promise<number> {
  expect(await db.meta.get('revision')).toBeUndefined();
  const last = await db.changes.orderBy(':id').lastKey();
  return typeof last === 'number' ? last : 0;
}

const thing = (name: string, extra: Partial<KubeObject> = {}): KubeObject => ({
  kind: 'Thing',
  metadata: { name },
  ...extra,
});

function create(key: string, object: KubeObject = thing(key)): BatchWrite {
  return {
    key,
    plan: (existing, revision): ChangeRecord => {
      if (existing) throw new StorageError('KeyExists', `${key} already exists`);
      return { revision, type: 'ADDED', key, object };
    },
  };
}

function update(key: string, expected: number, object: KubeObject = thing(key)): BatchWrite {
  return {
    key,
    plan: (existing, revision): ChangeRecord => {
      if (!existing) throw new StorageError('NotFound', `${key} not found`);
      if (existing.revision !== expected) throw new StorageError('RevisionMismatch', `${key}`);
      return { revision, type: 'MODIFIED', key, object, previous: existing.object };
    },
  };
}

function remove(key: string): BatchWrite {
  return {
    key,
    plan: (existing, revision): ChangeRecord => {
      if (!existing) throw new StorageError('NotFound', `${key} not found`);
      return { revision, type: 'DELETED', key, object: existing.object, previous: existing.object };
    },
  };
}

const revisions = (outcomes: WriteOutcome[]) =>
  outcomes.map((o) => ('change' in o ? o.change.revision : (o.error as StorageError).code));

/** Each write's revision, or the code of the error it failed with. */
const settledRevisions = (settled: PromiseSettledResult<{ revision: number }>[]) =>
  settled.map((s) => (s.status === 'fulfilled' ? s.value.revision : (s.reason as StorageError).code));

/** `db` with every object store its transactions open calling `onGet` on each `get`. */
function countingGets(db: NativeDatabase, onGet: () => void): NativeDatabase {
  return {
    transaction: (stores, mode, options) => {
      const tx = db.transaction(stores, mode, options);
      const objectStore = tx.objectStore.bind(tx);
      tx.objectStore = (name) => {
        const store = objectStore(name);
        const get = store.get.bind(store);
        store.get = (key) => {
          onGet();
          return get(key);
        };
        return store;
      };
      return tx;
    },
  };
}

/** Has the storage's batches go through `replace(db)` instead of its own IndexedDB connection. */
function replaceBackend(storage: Storage, replace: (db: NativeDatabase) => NativeDatabase): void {
  const inner = storage as unknown as { backend(): Promise<NativeDatabase> };
  const real = inner.backend.bind(storage);
  inner.backend = async () => replace(await real());
}

describe('commitBatch', () => {
  interface BatchCase {
    name: string;
    /** Committed first, as a batch of its own. */
    before?: BatchWrite[];
    batch: BatchWrite[];
    /** Each write's revision, or the code of the error it failed with. */
    outcomes: (number | string)[];
    /** What each key's row holds afterwards (undefined: no row). */
    rows: Record<string, { revision?: number; spec?: unknown } | undefined>;
    /** The history as `<revision> <type> <key>`, where the case checks it. */
    changes?: string[];
    /** The revision the database records afterwards. */
    revision: number;
  }

  const batches: BatchCase[] = [
    {
      name: 'runs writes to one key in issue order, each seeing the rows the batch left',
      batch: [
        create('/a/x'),
        update('/a/x', 1, thing('x', { spec: { n: 2 } })),
        update('/a/x', 2, thing('x', { spec: { n: 3 } })),
        create('/a/y'),
        remove('/a/y'),
      ],
      outcomes: [1, 2, 3, 4, 5],
      rows: { '/a/x': { spec: { n: 3 } }, '/a/y': undefined },
      changes: ['1 ADDED /a/x', '2 MODIFIED /a/x', '3 MODIFIED /a/x', '4 ADDED /a/y', '5 DELETED /a/y'],
      revision: 5,
    },
    {
      name: 'fails only the write whose plan throws; the others take consecutive revisions',
      before: [create('/a/x')],
      batch: [
        create('/a/y'),
        create('/a/x'),
        update('/a/x', 7),
        remove('/a/none'),
        update('/a/x', 1, thing('x', { spec: { n: 1 } })),
      ],
      outcomes: [2, 'KeyExists', 'RevisionMismatch', 'NotFound', 3],
      rows: { '/a/x': { revision: 3 }, '/a/y': { revision: 2 } },
      revision: 3,
    },
  ];

  it.each(batches)('$name', async (c) => {
    const db = await freshDatabase();
    if (c.before !== undefined) await commitBatch(native(db), c.before);
    expect(revisions(await commitBatch(native(db), c.batch))).toEqual(c.outcomes);
    for (const [key, want] of Object.entries(c.rows)) {
      const row = await db.objects.get(key);
      if (want === undefined) expect(row, key).toBeUndefined();
      if (want?.spec !== undefined) expect(row?.object.spec, key).toEqual(want.spec);
      if (want?.revision !== undefined) expect(row?.revision, key).toBe(want.revision);
    }
    if (c.changes !== undefined)
      expect((await db.changes.toArray()).map((r) => `${r.revision} ${r.type} ${r.key}`)).toEqual(c.changes);
    expect(await storedRevision(db)).toBe(c.revision);
    db.close();
  });

  it('writes nothing of the batch when IndexedDB refuses one write', async () => {
    const db = await freshDatabase();
    await commitBatch(native(db), [create('/a/x')]);
    // A function cannot be stored: the put throws DataCloneError and the transaction aborts.
    const unstorable = thing('bad', { spec: { f: () => 1 } as unknown as Record<string, unknown> });
    await expect(
      commitBatch(native(db), [create('/a/y'), create('/a/bad', unstorable), create('/a/z')]),
    ).rejects.toThrow();
    expect((await db.objects.toArray()).map((r: ObjectRow) => r.key)).toEqual(['/a/x']);
    expect(await db.changes.count()).toBe(1);
    expect(await storedRevision(db)).toBe(1);
    db.close();
  });

  it('with a known revision reads nothing for creates, and IndexedDB refuses a wrong belief whole', async () => {
    const db = await freshDatabase();
    await commitBatch(native(db), [create('/a/x')]);
    const creating = (key: string): BatchWrite => ({ ...create(key), creates: true });
    // Counts the reads the batch issues.
    let reads = 0;
    const counting = countingGets(native(db), () => reads++);
    const outcomes = await commitBatch(
      counting,
      [creating('/a/y'), creating('/a/y'), creating('/a/z')],
      {},
      1,
    );
    expect(revisions(outcomes)).toEqual([2, 'KeyExists', 3]);
    expect(reads).toBe(0);
    expect(await storedRevision(db)).toBe(3);
    // An update in the batch reads its key (its plan needs the row), still not the revision.
    reads = 0;
    expect(revisions(await commitBatch(counting, [update('/a/y', 2), creating('/a/w')], {}, 3))).toEqual([
      4, 5,
    ]);
    expect(reads).toBe(1);
    // A key that exists: `add` refuses it, and nothing of the batch is written.
    await expect(commitBatch(native(db), [creating('/a/v'), creating('/a/x')], {}, 5)).rejects.toThrow();
    // A revision taken (by a writer the caller did not know of): the history refuses it, nothing is written.
    await expect(commitBatch(native(db), [creating('/a/u')], {}, 4)).rejects.toThrow();
    expect(await db.objects.get('/a/v')).toBeUndefined();
    expect(await db.objects.get('/a/u')).toBeUndefined();
    expect(await storedRevision(db)).toBe(5);
    expect(await db.changes.count()).toBe(5);
    db.close();
  });
});

describe('the revision without a counter (decision 0086)', () => {
  it('is the history last key; after compaction the meta row an earlier build reads is a history row or the next revision', async () => {
    const name = `write-batch-compacted-${++databases}`;
    const storage = createDexieStorage({ name, indexedDB, IDBKeyRange });
    for (const n of [1, 2, 3, 4, 5]) await storage.create(`/a/${n}`, thing(String(n)));
    const db = openDatabase(name, { indexedDB, IDBKeyRange, cache: 'disabled' });
    await db.open();
    expect(await db.meta.get('revision')).toBeUndefined();
    await storage.compact(3);
    expect(await storage.currentRevision()).toBe(5);
    expect(await storage.compactedRevision()).toBe(3);
    // An earlier build takes the row's value + 1: a slot the history holds, so its write is refused.
    const saved = (await db.meta.get('revision'))?.value ?? 0;
    expect(saved).toBeGreaterThanOrEqual(3);
    expect(saved).toBeLessThanOrEqual(5);
    await expect(db.changes.add({ revision: saved + 1, type: 'ADDED', key: '/a/old' })).rejects.toThrow();
    // Everything compacted away: the revision stays the last one written, and the next write follows it.
    await storage.compact(5);
    expect(await storage.currentRevision()).toBe(5);
    expect((await storage.create('/a/6', thing('6'))).revision).toBe(6);
    db.close();
    await storage.close();
  });
});

describe('dexie storage group commit', () => {
  const fresh = () =>
    createDexieStorage({ name: `write-batch-storage-${++databases}`, indexedDB, IDBKeyRange });

  it('acknowledges writes issued together, each with its own outcome, after their commit', async () => {
    const storage = fresh();
    const pending = [
      storage.create('/a/x', thing('x')),
      storage.create('/a/y', thing('y')),
      storage.update('/a/y', thing('y', { spec: { n: 1 } }), 2),
      storage.create('/a/x', thing('x')),
      storage.delete('/a/y', 3),
      storage.create('/a/z', thing('z')),
    ];
    const settled = await Promise.allSettled(pending);
    expect(settledRevisions(settled)).toEqual([1, 2, 3, 'KeyExists', 4, 5]);
    expect(await storage.currentRevision()).toBe(5);
    // Acknowledged means committed: a second connection sees every acknowledged write.
    const name = `write-batch-storage-${databases}`;
    const other = createDexieStorage({ name, indexedDB, IDBKeyRange });
    expect((await other.list({ prefix: '/a/' })).items.map((i) => i.key)).toEqual(['/a/x', '/a/z']);
    await other.close();
    await storage.close();
  });

  it('tries each write of a batch IndexedDB refused again alone, so only the bad write fails', async () => {
    const storage = fresh();
    await storage.create('/a/first', thing('first'));
    // The store refuses to put the row of `/a/bad` (as a full disk would refuse a write): a stand-in for an
    // IndexedDB error that no plan foresees.
    replaceBackend(storage, (db) => ({
      transaction: (stores, mode, options) => {
        const tx = db.transaction(stores, mode, options);
        return new Proxy(tx, {
          get(target, prop) {
            if (prop !== 'objectStore') return Reflect.get(target, prop, target) as unknown;
            return (name: string) => {
              const store = target.objectStore(name);
              return new Proxy(store, {
                get(s, method) {
                  const value = Reflect.get(s, method, s) as unknown;
                  if (method !== 'put' || typeof value !== 'function') return value;
                  return (row: { key?: string }) => {
                    if (row.key === '/a/bad') throw new Error('QuotaExceededError');
                    return (value as (row: unknown) => unknown).call(s, row);
                  };
                },
              });
            };
          },
        });
      },
    }));
    const settled = await Promise.allSettled([
      storage.create('/a/x', thing('x')),
      storage.create('/a/bad', thing('bad')),
      storage.create('/a/y', thing('y')),
    ]);
    expect(settled.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(((settled[1] as PromiseRejectedResult).reason as StorageError).code).toBe('Internal');
    expect((await storage.list({ prefix: '/a/' })).items.map((i) => i.key)).toEqual([
      '/a/first',
      '/a/x',
      '/a/y',
    ]);
    expect(await storage.currentRevision()).toBe(3);
    await storage.close();
  });

  it('while exclusive, takes its own last revision on trust, and a wrong trust costs a retry, not a write', async () => {
    const name = `write-batch-storage-${++databases}`;
    const storage = createDexieStorage({ name, indexedDB, IDBKeyRange });
    storage.writeExclusively?.(true);
    const first = await Promise.all([storage.create('/a/x', thing('x')), storage.create('/a/y', thing('y'))]);
    expect(first.map((s) => s.revision)).toEqual([1, 2]);
    // Counts the reads the storage's batches issue from here on.
    let reads = 0;
    replaceBackend(storage, (db) => countingGets(db, () => reads++));
    expect((await storage.create('/a/v', thing('v'))).revision).toBe(3);
    expect(reads).toBe(0);
    await storage.delete('/a/v');
    // Known now: the next creates go out without reads; an existing key still fails as KeyExists, with the object.
    const again = await Promise.allSettled([
      storage.create('/a/z', thing('z')),
      storage.create('/a/x', thing('x')),
      storage.update('/a/y', thing('y', { spec: { n: 1 } }), 2),
    ]);
    expect(settledRevisions(again)).toEqual([5, 'KeyExists', 6]);
    expect(((again[1] as PromiseRejectedResult).reason as StorageError).current?.revision).toBe(1);
    // A writer that broke the promise (took revision 7): the next create is refused by the history and retried
    // reading, so it takes 8 and the other writer's write stays.
    const other = createDexieStorage({ name, indexedDB, IDBKeyRange });
    await other.create('/a/other', thing('other'));
    expect((await storage.create('/a/w', thing('w'))).revision).toBe(8);
    expect((await other.get('/a/other'))?.revision).toBe(7);
    expect((await other.changesSince(0)).map((c) => c.revision)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // A reset through the handle forgets what it knew: revisions start again at 1.
    await storage.clear();
    expect((await storage.create('/a/x', thing('x'))).revision).toBe(1);
    await other.close();
    await storage.close();
  });

  it('shows a create its stored object once issued, before the commit completes; only the commit decides', async () => {
    const name = `write-batch-storage-${++databases}`;
    const storage = createDexieStorage({ name, indexedDB, IDBKeyRange });
    storage.writeExclusively?.(true);
    // What each call saw, as it saw it (a retry stamps the same object again).
    const seen: { object: KubeObject; committed: boolean }[] = [];
    const committed = new Set<number>();
    storage.onCommit((change) => committed.add(change.revision));
    const issued = (object: Readonly<KubeObject>) =>
      seen.push({
        object: structuredClone(object) as KubeObject,
        committed: committed.has(Number(object.metadata?.resourceVersion)),
      });
    const made = await storage.create('/a/x', thing('x'), issued);
    // Seen once, stamped as stored, before the commit was delivered; the answer equals it.
    expect(seen).toHaveLength(1);
    expect(seen[0]?.committed).toBe(false);
    expect(seen[0]?.object).toEqual(made.object);
    expect(made.object.metadata?.resourceVersion).toBe('1');
    // A taken key: IndexedDB refuses the batch whole. The object was seen as issued, yet the create fails.
    seen.length = 0;
    await expect(storage.create('/a/x', thing('x'), issued)).rejects.toMatchObject({ code: 'KeyExists' });
    expect(seen.map((s) => s.object.metadata?.resourceVersion)).toEqual(['2']);
    // Another writer took the next revision: the first try is refused, the second issues the revision stored.
    const other = createDexieStorage({ name, indexedDB, IDBKeyRange });
    await other.create('/a/other', thing('other'));
    seen.length = 0;
    const after = await storage.create('/a/y', thing('y'), issued);
    expect(seen.map((s) => s.object.metadata?.resourceVersion)).toEqual(['2', '3']);
    expect(after.revision).toBe(3);
    await other.close();
    await storage.close();
  });

  it('delivers the commits of concurrent writes to listeners in revision order, before acknowledging', async () => {
    const storage = fresh();
    const seen: ChangeRecord[] = [];
    storage.onCommit((change) => seen.push(change));
    const acknowledged: number[] = [];
    const writes = Array.from({ length: 40 }, (_, i) =>
      // Every fifth write collides with an earlier key and fails alone.
      storage.create(`/a/${i % 5 === 4 ? i - 1 : i}`, thing(`n${i}`)).then((stored) => {
        expect(seen.some((c) => c.revision === stored.revision)).toBe(true);
        acknowledged.push(stored.revision);
      }),
    );
    const results = await Promise.allSettled(writes);
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(8);
    expect(seen.map((c) => c.revision)).toEqual(Array.from({ length: 32 }, (_, i) => i + 1));
    expect([...acknowledged].sort((a, b) => a - b)).toEqual(seen.map((c) => c.revision));
    await storage.close();
  });
});
