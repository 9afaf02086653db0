/**
 * The IndexedDB backend, through Dexie: the browser keeps the cluster's state
 * here, and the Node host uses the same code over fake-indexeddb. Writes are
 * committed in batches (write-batch.ts): each takes the next revision (the
 * history's last key is the store's revision), checks its compare-and-swap
 * condition, writes the object and appends the change record, so a failed
 * write changes nothing and a write is acknowledged once committed. Reads run
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
  type IssuedListener,
  type ListOptions,
  type ListResult,
  type Storage,
  type StoredObject,
} from '../types';
import { assertRevision, checkReadable, prefixRange, revisionOf, type KeyRange } from '../keys';
import { CommitOrder } from './commit-order';
import { cloneValue } from '../memory/clone';
import { jsonSizeAtMost, slicedAbove } from '../../machinery/json';
import { defaultRowsPerTransaction, listPage, type NativeKeyRanges } from './native-list';
import { RangeCounts } from './range-counts';
import { exportDatabase, importDatabase } from './export-import';
import { withObjects } from './history-rows';
import { openDatabase, type ObjectRow, type SettingRow, type StorageDatabase } from './schema';
import {
  commitBatch,
  revisionsFrom,
  storeRevision,
  type BatchWrite,
  type NativeDatabase,
  type NativeTransactionOptions,
  type WriteOutcome,
  type WritePlan,
} from './write-batch';

interface QueuedWrite extends BatchWrite {
  slot: ReturnType<CommitOrder['begin']>;
  resolve: (change: ChangeRecord) => void;
  reject: (error: StorageError) => void;
}

export interface DexieStorageOptions {
  /** Name of the IndexedDB database. */
  name: string;
  /** The IndexedDB factory; default the global one (Node passes fake-indexeddb's). */
  indexedDB?: DexieOptions['indexedDB'];
  /** The matching `IDBKeyRange`; default the global one. */
  IDBKeyRange?: DexieOptions['IDBKeyRange'];
  /** Chrome's transaction durability; `strict` waits for the disk at every write. Default: the browser's. */
  durability?: DexieOptions['chromeTransactionDurability'];
  /** Rows a list reads per read-only transaction before it goes on in the next (native-list.ts); tests make it small. */
  listRowsPerTransaction?: number;
}

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
  /** Writes waiting for the next batch, in issue order. */
  private queued: QueuedWrite[] = [];
  /** True while a batch's transaction is in flight: new writes queue behind it. */
  private committing = false;
  private readonly transactionOptions: NativeTransactionOptions | undefined;
  /** Set by `writeExclusively`: no other handle writes the store, so the revision this handle wrote last is current. */
  private exclusive = false;
  /** Bumped whenever exclusivity or the whole state changes: a batch that began before does not teach `knownRevision`. */
  private epoch = 0;
  /** The store's current revision, known without reading it (only while exclusive; see write-batch.ts). */
  private knownRevision: number | undefined;
  private readonly keyRanges: NativeKeyRanges;
  private readonly listRowsPerTransaction: number;
  /** Collections' totals for a first page's `remaining`, kept while exclusive (range-counts.ts). */
  private readonly counts = new RangeCounts();
  /** Set when this handle's open created the database (Dexie's `populate`, in the creating upgrade). */
  private created = false;

  constructor(options: DexieStorageOptions) {
    const dexieOptions: DexieOptions = { cache: 'disabled' };
    if (options.indexedDB) dexieOptions.indexedDB = options.indexedDB;
    if (options.IDBKeyRange) dexieOptions.IDBKeyRange = options.IDBKeyRange;
    if (options.durability) {
      dexieOptions.chromeTransactionDurability = options.durability;
      this.transactionOptions = { durability: options.durability };
    }
    this.db = openDatabase(options.name, dexieOptions);
    this.db.on('populate', () => {
      this.created = true;
    });
    this.keyRanges = (options.IDBKeyRange ??
      (globalThis as { IDBKeyRange?: unknown }).IDBKeyRange) as NativeKeyRanges;
    this.listRowsPerTransaction = options.listRowsPerTransaction ?? defaultRowsPerTransaction;
  }

  currentRevision(): Promise<number> {
    // On the native connection, as `get`: the watch caches' start reads it before the server serves, and Dexie's
    // promise machinery on its first use cost more than the read itself (0109).
    return guard(async () => {
      const db = await this.backend();
      return new Promise<number>((resolve, reject) => {
        const transaction = db.transaction(['changes', 'meta'], 'readonly');
        storeRevision(transaction, (revision) => resolve(revision));
        transaction.onabort = () => reject(transaction.error ?? new Error('revision read aborted'));
      });
    });
  }

  async createdByOpen(): Promise<boolean> {
    await guard(() => this.backend());
    return this.created;
  }

  compactedRevision(): Promise<number> {
    return guard(async () => (await this.db.meta.get('compacted'))?.value ?? 0);
  }

  get(key: string): Promise<StoredObject | undefined> {
    // The most frequent read: straight on the native connection, without Dexie's promise zones.
    return guard(async () => {
      const db = await this.backend();
      return new Promise<StoredObject | undefined>((resolve, reject) => {
        const request = db.transaction('objects', 'readonly').objectStore('objects').get(key);
        request.onsuccess = () => resolve(request.result as StoredObject | undefined);
        request.onerror = () => reject(request.error ?? new Error('get failed'));
      });
    });
  }

  async getAt(key: string, revision: number): Promise<StoredObject | undefined> {
    assertRevision(revision);
    const { db } = this;
    return guard(() =>
      db.transaction('r!', db.objects, db.changes, db.meta, async () => {
        const [[current, compacted], row] = await Promise.all([this.revisions(), db.objects.get(key)]);
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
    return guard(async () =>
      listPage(await this.backend(), this.keyRanges, options, this.listRowsPerTransaction, this.counts),
    );
  }

  count(prefix: string): Promise<number> {
    const range = prefixRange(prefix);
    return guard(() => (range ? this.objectsIn(range).count() : 0));
  }

  async create(key: string, object: KubeObject, issued?: IssuedListener): Promise<StoredObject> {
    const input = cloneInput(object);
    return this.write(
      key,
      (existing, revision) => {
        if (existing) throw new StorageError('KeyExists', `${key} already exists`, existing);
        return { revision, type: 'ADDED', key, object: stamp(input, revision) };
      },
      true,
      issued === undefined ? undefined : (change) => issued(change.object),
    );
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
      const last = stamp(cloneInput(existing.object), revision);
      return { revision, type: 'DELETED', key, object: last, previous: existing.object };
    });
  }

  async changesSince(after: number, limit?: number): Promise<ChangeRecord[]> {
    assertRevision(after);
    const { db } = this;
    return guard(() =>
      db.transaction('r!', db.changes, db.meta, db.objects, async () => {
        const [current, compacted] = await this.revisions();
        checkReadable(after, compacted, current);
        const query = db.changes.where(':id').above(after);
        const rows = await (limit !== undefined ? query.limit(limit) : query).toArray();
        return withObjects(rows, {
          current: (key) => db.objects.get(key),
          nextChange: (key, revision) =>
            db.changes
              .where('[key+revision]')
              .between([key, revision + 1], [key, Infinity], true, true)
              .first(),
        });
      }),
    );
  }

  async compact(revision: number): Promise<void> {
    assertRevision(revision);
    const { db } = this;
    return guard(() =>
      db.transaction('rw!', db.changes, db.meta, async () => {
        const [current, compacted] = await this.revisions();
        if (revision <= compacted) return;
        checkReadable(revision, compacted, current);
        await db.changes.where(':id').below(revision).delete();
        await db.meta.put({ name: 'compacted', value: revision });
        // For a worker of a build before decision 0086, which takes the `revision` row + 1 as its next revision:
        // kept at or above the compacted revision, that slot is either a history row (its `changes.add` is
        // refused, loudly) or truly the next revision, never a slot compaction emptied (a write at an old
        // revision). No batch writes the row any more; only this rare transaction does.
        const saved = (await db.meta.get('revision'))?.value ?? 0;
        if (saved < revision) await db.meta.put({ name: 'revision', value: revision });
      }),
    );
  }

  getSetting<T>(name: string): Promise<T | undefined> {
    return guard(async () => (await this.db.settings.get(name))?.value as T | undefined);
  }

  getSettings(names: readonly string[]): Promise<unknown[]> {
    // One read-only transaction for all of them (the server's start reads several): on the native connection,
    // each value taken as its request succeeds, all answered once the transaction completed.
    return guard(async () => {
      const db = await this.backend();
      return new Promise<unknown[]>((resolve, reject) => {
        const values: unknown[] = names.map(() => undefined);
        const transaction = db.transaction('settings', 'readonly');
        const settings = transaction.objectStore('settings');
        names.forEach((name, i) => {
          const request = settings.get(name);
          request.onsuccess = () => (values[i] = (request.result as SettingRow | undefined)?.value);
        });
        transaction.oncomplete = () => resolve(values);
        // A failed request aborts the transaction: one error for the whole read.
        transaction.onabort = () => reject(transaction.error ?? new Error('settings read aborted'));
      });
    });
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

  initSettings(
    inits: readonly (readonly [string, unknown])[],
    sets: readonly (readonly [string, unknown])[] = [],
  ): Promise<unknown[]> {
    // One read-write transaction on the native connection (a fresh store's start writes three settings: one
    // transaction instead of three in sequence); each init keeps the value stored first, as initSetting.
    return guard(async () => {
      const db = await this.backend();
      return new Promise<unknown[]>((resolve, reject) => {
        const values: unknown[] = inits.map(([, value]) => value);
        const transaction = db.transaction('settings', 'readwrite', this.transactionOptions);
        const settings = transaction.objectStore('settings');
        for (const [name, value] of sets) settings.put({ name, value });
        inits.forEach(([name, value], i) => {
          const request = settings.get(name);
          request.onsuccess = () => {
            const saved = request.result as SettingRow | undefined;
            if (saved !== undefined) values[i] = saved.value;
            else settings.put({ name, value });
          };
        });
        // Acknowledged once durable (the transaction completed), as every other write.
        transaction.oncomplete = () => resolve(values);
        transaction.onabort = () => reject(transaction.error ?? new Error('settings write aborted'));
      });
    });
  }

  onCommit(listener: CommitListener): () => void {
    // Wrapped, so that subscribing the same function twice means two deliveries and two unsubscribes.
    const entry: CommitListener = (change) => listener(change);
    this.listeners.add(entry);
    return () => this.listeners.delete(entry);
  }

  /**
   * The caller's promise that no other handle writes this store until it calls again with `false` (the browser's
   * writer lease, decision 0066): meanwhile the revision this handle's last batch left is the store's current one,
   * and batches skip reading it (decision 0075).
   */
  writeExclusively(exclusive: boolean): void {
    if (exclusive === this.exclusive) return;
    this.exclusive = exclusive;
    this.counts.setEnabled(exclusive);
    this.forgetRevision();
  }

  async clear(): Promise<void> {
    const { db } = this;
    this.forgetRevision();
    try {
      await guard(() =>
        db.transaction('rw!', db.objects, db.changes, db.meta, db.settings, async () => {
          await Promise.all([db.objects.clear(), db.changes.clear(), db.meta.clear(), db.settings.clear()]);
        }),
      );
    } finally {
      this.forgetRevision();
    }
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
      this.forgetRevision();
      try {
        await guard(() => importDatabase(this.db, data, options));
      } finally {
        this.forgetRevision();
      }
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
   * Runs one write. `plan` sees the stored row (as earlier writes of its
   * batch left it) and the revision the write will take, and returns the
   * change record or throws to abort this write alone. The write joins the
   * next batch (see write-batch.ts) and is acknowledged once that batch's
   * transaction completed.
   */
  private async write(
    key: string,
    plan: WritePlan,
    creates = false,
    issued?: BatchWrite['issued'],
  ): Promise<StoredObject> {
    while (this.importing !== undefined) await this.importing.catch(() => undefined);
    const slot = this.order.begin();
    const change = await new Promise<ChangeRecord>((resolve, reject) => {
      this.queued.push({
        key,
        plan,
        creates,
        slot,
        resolve,
        reject,
        ...(issued !== undefined ? { issued } : {}),
      });
      if (!this.committing) void this.commitQueued();
    });
    // Listeners may keep the change record, so the caller then gets its own copy (by hand when small, as cloneInput).
    const object = this.delivered.has(change) ? cloneInput(change.object) : change.object;
    return { key, revision: change.revision, object };
  }

  /** Commits the queued writes, one batch per transaction, until none is left. */
  private async commitQueued(): Promise<void> {
    this.committing = true;
    try {
      while (this.queued.length > 0) {
        const batch = this.queued;
        this.queued = [];
        let outcomes: WriteOutcome[] | undefined;
        let failure: StorageError | undefined;
        const epoch = this.epoch;
        const known = this.exclusive ? this.knownRevision : undefined;
        // Unknown until this batch has committed (a failed one leaves nothing known).
        this.knownRevision = undefined;
        try {
          try {
            outcomes = await commitBatch(await this.backend(), batch, this.transactionOptions, known);
          } catch (error) {
            if (known === undefined) throw error;
            // What this handle took for granted did not hold (a create's key exists, or a writer outside the
            // lease took the revision): the same batch again, reading the revision and every key.
            outcomes = await commitBatch(await this.backend(), batch, this.transactionOptions);
          }
          if (this.exclusive && epoch === this.epoch) this.knownRevision = lastRevision(outcomes, known);
        } catch (error) {
          failure = toStorageError(error);
          // One write's IndexedDB error (an object it cannot clone) must not fail the others it shared the
          // transaction with: each is tried again alone, in issue order, as it would have run unbatched.
          if (batch.length > 1) {
            outcomes = [];
            for (const write of batch) {
              try {
                outcomes.push(...(await commitBatch(await this.backend(), [write], this.transactionOptions)));
              } catch (alone) {
                outcomes.push({ error: toStorageError(alone) });
              }
            }
            failure = undefined;
          }
        }
        // Every slot of the batch settles now, in issue order, so listeners see the changes in revision order.
        batch.forEach((write, i) => {
          const outcome = outcomes?.[i];
          if (outcome !== undefined && 'change' in outcome) {
            const { change } = outcome;
            void this.order.settle(write.slot, change).then(() => write.resolve(change));
          } else {
            void this.order.settle(write.slot);
            write.reject(failure ?? toStorageError(outcome?.error));
          }
        });
      }
    } finally {
      this.committing = false;
    }
  }

  private forgetRevision(): void {
    this.knownRevision = undefined;
    this.counts.clear();
    this.epoch++;
  }

  /** The native connection under Dexie, opened (again) when needed. */
  private async backend(): Promise<NativeDatabase> {
    if (!this.db.isOpen()) await this.db.open();
    return this.db.backendDB() as unknown as NativeDatabase;
  }

  private deliver(change: ChangeRecord): void {
    this.counts.apply(change);
    if (this.listeners.size > 0) this.delivered.add(change);
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (error) {
        console.error('storage commit listener failed', error);
      }
    }
  }

  /**
   * The store's revision and compacted revision, read in the caller's transaction (over `changes` and `meta`):
   * the history's last key is the revision (decision 0086, write-batch.ts's `storeRevision`).
   */
  private async revisions(): Promise<[number, number]> {
    const { db } = this;
    const [last, meta] = await Promise.all([db.changes.orderBy(':id').lastKey(), db.meta.toArray()]);
    return revisionsFrom(typeof last === 'number' ? last : 0, meta);
  }

  private objectsIn(range: KeyRange) {
    const where = this.db.objects.where(':id');
    if (range.upper === undefined)
      return range.lowerOpen ? where.above(range.lower) : where.aboveOrEqual(range.lower);
    return where.between(range.lower, range.upper, !range.lowerOpen, false);
  }
}

/** The revision a committed batch left: its last change's, or, when none was written, what it started from. */
function lastRevision(outcomes: readonly WriteOutcome[], before: number | undefined): number | undefined {
  for (let i = outcomes.length - 1; i >= 0; i--) {
    const outcome = outcomes[i];
    if (outcome !== undefined && 'change' in outcome) return outcome.change.revision;
  }
  return before;
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

/**
 * A copy of the caller's object, so that stamping it leaves the caller's object alone. Objects are JSON: a
 * small one is copied by hand (cloneValue: ~10× faster than `structuredClone`, which was the largest item of
 * the storage's own JavaScript per create), a wide one at once by `structuredClone` as before.
 */
function cloneInput(object: KubeObject): KubeObject {
  try {
    return jsonSizeAtMost(object, slicedAbove) ? cloneValue(object) : structuredClone(object);
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
