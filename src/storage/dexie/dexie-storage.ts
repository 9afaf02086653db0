/**
 * The IndexedDB backend, through Dexie: the browser keeps the cluster's state
 * here, and the Node host uses the same code over fake-indexeddb. Every write
 * is one read-write transaction that takes the next revision from the counter,
 * checks the compare-and-swap condition, writes the object, appends the change
 * record and saves the counter, so a failed write changes nothing. Reads run
 * in one read-only transaction each, so a page and its revision agree. This is
 * the only module of the project that imports Dexie.
 */

import type { DexieOptions } from 'dexie';
import type { KubeObject } from '../../api/meta';
import {
  StorageError,
  type ChangeRecord,
  type CommitListener,
  type ImportOptions,
  type ListOptions,
  type ListResult,
  type Storage,
  type StoredObject,
} from '../types';
import {
  assertRevision,
  checkReadable,
  PageBuilder,
  prefixRange,
  revisionOf,
  snapshotOverlay,
  type KeyRange,
} from '../keys';
import { CommitOrder } from './commit-order';
import { exportDatabase, importDatabase } from './export-import';
import { openDatabase, type ChangeRow, type MetaName, type ObjectRow, type StorageDatabase } from './schema';

export interface DexieStorageOptions {
  /** Name of the IndexedDB database. */
  name: string;
  /** The IndexedDB factory; default the global one (Node passes fake-indexeddb's). */
  indexedDB?: DexieOptions['indexedDB'];
  /** The matching `IDBKeyRange`; default the global one. */
  IDBKeyRange?: DexieOptions['IDBKeyRange'];
  /** Chrome's transaction durability; `strict` waits for the disk at every write. Default: the browser's. */
  durability?: DexieOptions['chromeTransactionDurability'];
}

/** Largest batch of rows a list reads at once when a predicate makes it read past its first batch. */
const maxBatch = 4096;

export function createDexieStorage(options: DexieStorageOptions): Storage {
  return new DexieStorage(options);
}

export class DexieStorage implements Storage {
  private readonly db: StorageDatabase;
  private readonly listeners = new Set<CommitListener>();
  /** An import in progress: writes wait for it (see importState). */
  private importing: Promise<void> | undefined;
  private readonly order = new CommitOrder((change) => this.deliver(change));
  /** Change records some listener received: their writers return a copy of the object. */
  private readonly delivered = new WeakSet<ChangeRecord>();

  constructor(options: DexieStorageOptions) {
    const dexieOptions: DexieOptions = { cache: 'disabled' };
    if (options.indexedDB) dexieOptions.indexedDB = options.indexedDB;
    if (options.IDBKeyRange) dexieOptions.IDBKeyRange = options.IDBKeyRange;
    if (options.durability) dexieOptions.chromeTransactionDurability = options.durability;
    this.db = openDatabase(options.name, dexieOptions);
  }

  currentRevision(): Promise<number> {
    return guard(() => this.readMeta('revision'));
  }

  compactedRevision(): Promise<number> {
    return guard(() => this.readMeta('compacted'));
  }

  get(key: string): Promise<StoredObject | undefined> {
    return guard(() => this.db.objects.get(key));
  }

  async getAt(key: string, revision: number): Promise<StoredObject | undefined> {
    assertRevision(revision);
    const { db } = this;
    return guard(() =>
      db.transaction('r!', db.objects, db.changes, db.meta, async () => {
        const [current, compacted, row] = await Promise.all([
          this.readMeta('revision'),
          this.readMeta('compacted'),
          db.objects.get(key),
        ]);
        checkReadable(revision, compacted, current);
        if (row && row.revision <= revision) return row;
        // The key changed after `revision`: its first later change holds the value it had then.
        const next = await db.changes
          .where('[key+revision]')
          .between([key, revision + 1], [key, Infinity], true, true)
          .first();
        if (!next || next.type === 'ADDED' || !next.previous) return undefined;
        return { key, revision: revisionOf(next.previous), object: next.previous };
      }),
    );
  }

  async list(options: ListOptions): Promise<ListResult> {
    assertRevision(options.revision);
    const { db } = this;
    return guard(() =>
      db.transaction('r!', db.objects, db.changes, db.meta, async () => {
        const [current, compacted] = await Promise.all([
          this.readMeta('revision'),
          this.readMeta('compacted'),
        ]);
        const revision = options.revision ?? current;
        checkReadable(revision, compacted, current);
        const range = prefixRange(options.prefix, options.after);
        if (!range) return new PageBuilder(options).result(revision);

        // Keys that changed since a past revision are few next to the collection; read them whole.
        const overlay =
          revision < current
            ? snapshotOverlay(await db.changes.where(':id').above(revision).toArray(), range)
            : undefined;
        const page = new PageBuilder(options, overlay);
        // A huge page size (`limit=4294967296`) is still read in batches: IndexedDB counts are 32-bit.
        let batch = page.firstBatch === Infinity ? Infinity : Math.min(page.firstBatch, maxBatch);
        let from: KeyRange = range;
        for (;;) {
          const query = this.objectsIn(from);
          const rows = await (batch === Infinity ? query : query.limit(batch)).toArray();
          if (!page.feed(rows)) break;
          const last = rows.at(-1);
          if (rows.length < batch || !last) {
            page.finish();
            break;
          }
          from = { lower: last.key, lowerOpen: true, upper: range.upper };
          batch = Math.min(batch * 2, maxBatch);
        }
        const countAfter = page.countAfter;
        if (countAfter !== undefined) {
          page.setLiveCountAfter(
            await this.objectsIn({ lower: countAfter, lowerOpen: true, upper: range.upper }).count(),
          );
        }
        return page.result(revision);
      }),
    );
  }

  count(prefix: string): Promise<number> {
    const range = prefixRange(prefix);
    return guard(() => (range ? this.objectsIn(range).count() : 0));
  }

  async create(key: string, object: KubeObject): Promise<StoredObject> {
    const input = cloneInput(object);
    return this.write(key, (existing, revision) => {
      if (existing) throw new StorageError('KeyExists', `${key} already exists`, existing);
      return { revision, type: 'ADDED', key, object: stamp(input, revision) };
    });
  }

  async update(key: string, object: KubeObject, expectedRevision: number): Promise<StoredObject> {
    const input = cloneInput(object);
    return this.write(key, (existing, revision) => {
      if (!existing) throw new StorageError('NotFound', `${key} not found`);
      checkExpected(key, existing, expectedRevision);
      return { revision, type: 'MODIFIED', key, object: stamp(input, revision), previous: existing.object };
    });
  }

  async delete(key: string, expectedRevision?: number): Promise<StoredObject> {
    return this.write(key, (existing, revision) => {
      if (!existing) throw new StorageError('NotFound', `${key} not found`);
      if (expectedRevision !== undefined) checkExpected(key, existing, expectedRevision);
      const last = stamp(structuredClone(existing.object), revision);
      return { revision, type: 'DELETED', key, object: last, previous: existing.object };
    });
  }

  async changesSince(after: number, limit?: number): Promise<ChangeRecord[]> {
    assertRevision(after);
    const { db } = this;
    return guard(() =>
      db.transaction('r!', db.changes, db.meta, async () => {
        const [current, compacted] = await Promise.all([
          this.readMeta('revision'),
          this.readMeta('compacted'),
        ]);
        checkReadable(after, compacted, current);
        const query = db.changes.where(':id').above(after);
        return (limit !== undefined ? query.limit(limit) : query).toArray();
      }),
    );
  }

  async compact(revision: number): Promise<void> {
    assertRevision(revision);
    const { db } = this;
    return guard(() =>
      db.transaction('rw!', db.changes, db.meta, async () => {
        const [current, compacted] = await Promise.all([
          this.readMeta('revision'),
          this.readMeta('compacted'),
        ]);
        if (revision <= compacted) return;
        checkReadable(revision, compacted, current);
        await db.changes.where(':id').below(revision).delete();
        await db.meta.put({ name: 'compacted', value: revision });
      }),
    );
  }

  getSetting<T>(name: string): Promise<T | undefined> {
    return guard(async () => (await this.db.settings.get(name))?.value as T | undefined);
  }

  setSetting<T>(name: string, value: T): Promise<void> {
    return guard(async () => {
      await this.db.settings.put({ name, value });
    });
  }

  initSetting<T>(name: string, value: T): Promise<T> {
    return guard(() =>
      this.db.transaction('rw', this.db.settings, async () => {
        const saved = await this.db.settings.get(name);
        if (saved !== undefined) return saved.value as T;
        await this.db.settings.put({ name, value });
        return value;
      }),
    );
  }

  onCommit(listener: CommitListener): () => void {
    // Wrapped, so that subscribing the same function twice means two deliveries and two unsubscribes.
    const entry: CommitListener = (change) => listener(change);
    this.listeners.add(entry);
    return () => this.listeners.delete(entry);
  }

  clear(): Promise<void> {
    const { db } = this;
    return guard(() =>
      db.transaction('rw!', db.objects, db.changes, db.meta, db.settings, async () => {
        await Promise.all([db.objects.clear(), db.changes.clear(), db.meta.clear(), db.settings.clear()]);
      }),
    );
  }

  exportState(): Promise<Blob> {
    return guard(() => exportDatabase(this.db));
  }

  async importState(data: Blob, options?: ImportOptions): Promise<void> {
    // The addon clears and fills the tables in several transactions: a write landing in between (a controller,
    // admission's quota status) would take a revision the import then adds again. Writes wait for the import.
    const running = (async () => {
      while (this.importing !== undefined) await this.importing.catch(() => undefined);
      await this.order.drained();
      await guard(() => importDatabase(this.db, data, options));
    })();
    const gate = running.finally(() => {
      if (this.importing === gate) this.importing = undefined;
    });
    this.importing = gate;
    return gate;
  }

  async close(): Promise<void> {
    await this.order.drained();
    this.db.close();
  }

  /**
   * Runs one write. `plan` sees the stored row and the revision the write
   * will take, and returns the change record or throws to abort; the
   * transaction then writes the object, the record and the counter.
   */
  private async write(
    key: string,
    plan: (existing: ObjectRow | undefined, revision: number) => ChangeRow,
  ): Promise<StoredObject> {
    const { db } = this;
    while (this.importing !== undefined) await this.importing.catch(() => undefined);
    const slot = this.order.begin();
    let change: ChangeRow;
    try {
      change = await db.transaction('rw!', db.objects, db.changes, db.meta, async () => {
        const [current, existing] = await Promise.all([this.readMeta('revision'), db.objects.get(key)]);
        const next = plan(existing, current + 1);
        await Promise.all([
          next.type === 'DELETED'
            ? db.objects.delete(key)
            : db.objects.put({ key, revision: next.revision, object: next.object }),
          db.changes.add(next),
          db.meta.put({ name: 'revision', value: next.revision }),
        ]);
        return next;
      });
    } catch (error) {
      void this.order.settle(slot);
      throw toStorageError(error);
    }
    await this.order.settle(slot, change);
    // Listeners may keep the change record, so the caller then gets its own copy.
    const object = this.delivered.has(change) ? structuredClone(change.object) : change.object;
    return { key, revision: change.revision, object };
  }

  private deliver(change: ChangeRecord): void {
    if (this.listeners.size > 0) this.delivered.add(change);
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (error) {
        console.error('storage commit listener failed', error);
      }
    }
  }

  private async readMeta(name: MetaName): Promise<number> {
    return (await this.db.meta.get(name))?.value ?? 0;
  }

  private objectsIn(range: KeyRange) {
    const where = this.db.objects.where(':id');
    if (range.upper === undefined)
      return range.lowerOpen ? where.above(range.lower) : where.aboveOrEqual(range.lower);
    return where.between(range.lower, range.upper, !range.lowerOpen, false);
  }
}

function checkExpected(key: string, existing: ObjectRow, expectedRevision: number): void {
  if (existing.revision !== expectedRevision) {
    throw new StorageError(
      'RevisionMismatch',
      `${key}: expected revision ${expectedRevision}, stored ${existing.revision}`,
      existing,
    );
  }
}

/** A copy of the caller's object, so that stamping it leaves the caller's object alone. */
function cloneInput(object: KubeObject): KubeObject {
  try {
    return structuredClone(object);
  } catch (error) {
    throw toStorageError(error);
  }
}

function stamp(object: KubeObject, revision: number): KubeObject {
  object.metadata = { ...object.metadata, resourceVersion: String(revision) };
  return object;
}

async function guard<T>(run: () => T | PromiseLike<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw toStorageError(error);
  }
}

function toStorageError(error: unknown): StorageError {
  if (error instanceof StorageError) return error;
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new StorageError('Internal', `storage failed: ${message}`);
}
