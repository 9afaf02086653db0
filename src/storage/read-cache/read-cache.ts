/**
 * Current-revision reads of single objects served from memory, in front of a
 * persistent backend (IndexedDB in the browser, where every read otherwise
 * costs a transaction: ~1 ms, most of a GET). A bounded map of key → stored
 * object (or "absent") is filled by reads and kept current by this handle's
 * own commits, which the backend delivers in revision order before it
 * acknowledges a write; the copy is served only while this handle holds the
 * store's writer lease (writer-lease.ts), so no other handle's write can land
 * meanwhile. That is the consistency argument (docs/decisions): every entry
 * equals the store's current value of its key, because
 *   - an entry is made from a read only when no commit and no lease change
 *     happened while the read was in flight (a generation counter), and
 *   - every commit while the lease is held is one of this handle's own, and
 *     reaches the map before its writer is answered;
 * so a read served from memory returns what a read of the store would have.
 * When another handle asks for the lease, this one empties the map, stops
 * serving from it, lets its own writes in flight commit and hands the lease
 * over; it asks for it back before its next write, and starts again empty.
 * An import or a reset empties the map too. As a last guard against a writer
 * that does not take the lease (an older build), a commit whose revision does
 * not follow the previous one (someone else took revisions in between)
 * empties the map.
 *
 * `peekCurrent` hands out an entry itself, without the copy `get` makes, for
 * a reader that only encodes it (a GET's answer, whose text the HTTP layer
 * keeps beside the entry): only entries the cache made itself, which no one
 * else holds — a commit's object is shared with the store's other listeners,
 * so the first peek replaces such an entry by the cache's own copy. Entries
 * are never changed, only replaced (a commit, a fill, that copy), so an
 * entry's identity stands for its value.
 *
 * Reads at a past revision, lists, counts and history go to the backend.
 */

import type { KubeObject } from '../../api/meta';
import type {
  ChangeRecord,
  CommitListener,
  ImportOptions,
  IssuedListener,
  ListOptions,
  ListResult,
  Storage,
  StoredObject,
} from '../types';
import { cloneValue, cloneValueSliced } from '../memory/clone';
import { jsonSizeAtMost, slicedAbove } from '../../machinery/json';
import type { WriterLease } from './writer-lease';

export interface ReadCacheOptions {
  /** Keys held at most; the least recently used go first. Default 10,000. */
  maxEntries?: number;
}

/** `storage` with its current-revision `get` served from memory while `lease` is held. */
export function withReadCache(storage: Storage, lease: WriterLease, options: ReadCacheOptions = {}): Storage {
  return new ReadCachedStorage(storage, lease, options.maxEntries ?? 10_000);
}

/** What the map holds for a key: the stored object, or null when the key does not exist. */
type Entry = StoredObject | null;

export class ReadCachedStorage implements Storage {
  private readonly entries = new Map<string, Entry>();
  /** Entries whose object only this cache holds (made by a fill or a peek): they may be handed out uncopied. */
  private readonly own = new WeakSet<StoredObject>();
  /** Bumped by every commit and lease change: a read that saw it move does not fill the map. */
  private generation = 0;
  /** True while the lease is held and not being handed over: the map is served. */
  private serving = false;
  /** This handle's writes not yet answered. */
  private inFlight = 0;
  /** Another handle asked for the lease: hand it over once `inFlight` is 0. */
  private handingOver = false;
  /** Revision of the last commit seen while serving. */
  private lastRevision: number | undefined;
  private readonly stopFollowing: () => void;
  hits = 0;
  misses = 0;

  constructor(
    private readonly inner: Storage,
    private readonly lease: WriterLease,
    private readonly maxEntries: number,
  ) {
    this.stopFollowing = inner.onCommit((change) => this.committed(change));
    lease.onWanted(() => this.handOver());
    const backend = inner as Storage & { initSetting?: Storage['initSetting'] };
    const init = backend.initSetting;
    if (init !== undefined)
      this.initSetting = <T>(name: string, value: T) => init.call(backend, name, value) as Promise<T>;
    const readMany = backend.getSettings;
    if (readMany !== undefined) this.getSettings = (names) => readMany.call(backend, names);
    const initMany = backend.initSettings;
    if (initMany !== undefined) this.initSettings = (inits, sets) => initMany.call(backend, inits, sets);
    const created = backend.createdByOpen;
    if (created !== undefined) this.createdByOpen = () => created.call(backend);
  }

  async get(key: string): Promise<StoredObject | undefined> {
    if (this.serving) {
      const entry = this.entries.get(key);
      if (entry !== undefined) {
        this.hits++;
        // Most recently used last: eviction takes the first.
        this.entries.delete(key);
        this.entries.set(key, entry);
        return entry === null ? undefined : copyOf(entry);
      }
    }
    this.misses++;
    const generation = this.generation;
    const stored = await this.inner.get(key);
    // A large object is not kept: copying it in slices would let commits slip in between.
    if (this.serving && generation === this.generation) {
      if (stored === undefined) this.remember(key, null);
      else if (jsonSizeAtMost(stored.object, slicedAbove)) this.remember(key, this.owned(stored));
    }
    return stored;
  }

  peekCurrent(key: string): StoredObject | null | undefined {
    if (!this.serving) return undefined;
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    let out = entry;
    if (entry !== null && !this.own.has(entry)) {
      // A commit's object, shared with the store's other listeners: a wide one is left to `get`'s sliced copy.
      if (!jsonSizeAtMost(entry.object, slicedAbove)) return undefined;
      out = this.owned(entry);
    }
    this.hits++;
    this.remember(key, out);
    return out;
  }

  create(key: string, object: KubeObject, issued?: IssuedListener): Promise<StoredObject> {
    return this.writing(() => this.inner.create(key, object, issued));
  }

  update(key: string, object: KubeObject, expectedRevision: number): Promise<StoredObject> {
    return this.writing(() => this.inner.update(key, object, expectedRevision));
  }

  delete(key: string, expectedRevision?: number): Promise<StoredObject> {
    return this.writing(() => this.inner.delete(key, expectedRevision));
  }

  clear(): Promise<void> {
    return this.writing(() => this.inner.clear(), true);
  }

  importState(data: Blob, options?: ImportOptions): Promise<void> {
    return this.writing(() => this.inner.importState(data, options), true);
  }

  currentRevision(): Promise<number> {
    return this.inner.currentRevision();
  }
  compactedRevision(): Promise<number> {
    return this.inner.compactedRevision();
  }
  getAt(key: string, revision: number): Promise<StoredObject | undefined> {
    return this.inner.getAt(key, revision);
  }
  list(options: ListOptions): Promise<ListResult> {
    return this.inner.list(options);
  }
  count(prefix: string): Promise<number> {
    return this.inner.count(prefix);
  }
  changesSince(after: number, limit?: number): Promise<ChangeRecord[]> {
    return this.inner.changesSince(after, limit);
  }
  compact(revision: number): Promise<void> {
    return this.inner.compact(revision);
  }
  getSetting<T>(name: string): Promise<T | undefined> {
    return this.inner.getSetting<T>(name);
  }
  setSetting<T>(name: string, value: T): Promise<void> {
    return this.inner.setSetting(name, value);
  }
  /** Present when the backend has it: without it, settings.ts falls back to read-then-write. */
  initSetting?<T>(name: string, value: T): Promise<T>;
  /** Present when the backend has it: without it, settings.ts reads the settings one by one. */
  getSettings?(names: readonly string[]): Promise<unknown[]>;
  /** Present when the backend has it: without it, settings.ts initializes the settings one by one. */
  initSettings?(
    inits: readonly (readonly [string, unknown])[],
    sets?: readonly (readonly [string, unknown])[],
  ): Promise<unknown[]>;
  /** Present when the backend has it: without it, the server takes no store for new. */
  createdByOpen?(): Promise<boolean>;
  onCommit(listener: CommitListener): () => void {
    return this.inner.onCommit(listener);
  }
  exportState(): Promise<Blob> {
    return this.inner.exportState();
  }

  async close(): Promise<void> {
    this.stopServing();
    this.stopFollowing();
    this.lease.close();
    await this.inner.close();
  }

  /** Runs a write while holding the lease; `replacesAll` (import, reset) empties the map around it. */
  private async writing<T>(run: () => Promise<T>, replacesAll = false): Promise<T> {
    // The lease may be handed over between `acquire` resolving and this continuation: check again.
    while (!this.lease.held || this.handingOver) {
      if (this.handingOver) await this.handedOver();
      else await this.lease.acquire();
    }
    if (!this.serving) {
      this.entries.clear();
      this.generation++;
      this.lastRevision = undefined;
      this.serving = true;
      // The lease also lets the backend trust its own last revision (decision 0075).
      this.inner.writeExclusively?.(true);
    }
    this.inFlight++;
    if (replacesAll) this.forget();
    try {
      return await run();
    } finally {
      if (replacesAll) this.forget();
      this.inFlight--;
      if (this.inFlight === 0 && this.handingOver) this.finishHandOver();
    }
  }

  private committed(change: ChangeRecord): void {
    this.generation++;
    if (!this.serving) return;
    if (this.lastRevision !== undefined && change.revision !== this.lastRevision + 1) {
      // Revisions this handle did not take: a writer outside the lease. Nothing held can be trusted.
      this.entries.clear();
    }
    this.lastRevision = change.revision;
    const entry: Entry =
      change.type === 'DELETED'
        ? null
        : { key: change.key, revision: change.revision, object: change.object };
    this.remember(change.key, entry);
  }

  /** A new entry holding a copy of `stored`'s object that only this cache holds. */
  private owned(stored: StoredObject): StoredObject {
    const entry = copySmall(stored);
    this.own.add(entry);
    return entry;
  }

  private remember(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
  }

  private forget(): void {
    this.entries.clear();
    this.generation++;
    this.lastRevision = undefined;
  }

  private stopServing(): void {
    this.serving = false;
    this.inner.writeExclusively?.(false);
    this.forget();
  }

  private waitingForHandOver: (() => void)[] = [];

  private handedOver(): Promise<void> {
    return new Promise((resolve) => this.waitingForHandOver.push(resolve));
  }

  private handOver(): void {
    if (!this.lease.held || this.handingOver) return;
    this.stopServing();
    this.handingOver = true;
    if (this.inFlight === 0) this.finishHandOver();
  }

  private finishHandOver(): void {
    this.lease.release();
    this.handingOver = false;
    const waiting = this.waitingForHandOver;
    this.waitingForHandOver = [];
    for (const resolve of waiting) resolve();
  }
}

function copySmall(stored: StoredObject): StoredObject {
  return { key: stored.key, revision: stored.revision, object: cloneValue(stored.object) };
}

function copyOf(stored: StoredObject): StoredObject | Promise<StoredObject> {
  return jsonSizeAtMost(stored.object, slicedAbove)
    ? copySmall(stored)
    : cloneValueSliced(stored.object).then((object) => ({
        key: stored.key,
        revision: stored.revision,
        object,
      }));
}
