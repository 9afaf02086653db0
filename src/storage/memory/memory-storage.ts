/**
 * The in-memory backend: the same semantics as the IndexedDB backend without
 * persistence, for fast unit tests and for hosts that keep state only for the
 * life of the process. Current objects sit in a map beside the sorted set of
 * their keys (sorted-keys.ts; a collection is a range of it); the change
 * history is an array in revision order plus a per-key index for reads at
 * past revisions. Stored
 * values are never handed out: everything that goes in or out is a copy, as
 * IndexedDB would have stored it — except to `peekCurrent`, whose callers
 * only read (an entry is replaced, never changed, by each commit). Copies of large objects are made in slices
 * (other requests run meanwhile), before a write's atomic part: the checks
 * and the commit run without a pause, so writes stay in revision order.
 */

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
} from '../keys';
import { cloneValue, cloneValueSliced } from './clone';
import { jsonSizeAtMost, slicedAbove } from '../../machinery/json';
import { SortedKeys } from './sorted-keys';
import { buildExport, exportRowCount, parseExport } from '../export-format';

/** The database name a memory store's exports carry (the Dexie backend's carry its IndexedDB name). */
const exportName = 'orch-sandbox-memory';

export function createMemoryStorage(): Storage {
  return new MemoryStorage();
}

export class MemoryStorage implements Storage {
  /** Keys of the current objects, sorted. */
  private readonly keys = new SortedKeys();
  private readonly objects = new Map<string, StoredObject>();
  /** Retained change records; revisions are consecutive, so a record's index follows from its revision. */
  private changes: ChangeRecord[] = [];
  /** Each key's retained change records, oldest first. */
  private readonly history = new Map<string, ChangeRecord[]>();
  private revision = 0;
  private compacted = 0;
  private readonly settings = new Map<string, unknown>();
  private readonly listeners = new Set<CommitListener>();
  /** Changes waiting for delivery: a listener that writes must not overtake the change it is handling. */
  private readonly undelivered: ChangeRecord[] = [];
  private delivering = false;

  async currentRevision(): Promise<number> {
    return this.revision;
  }

  async compactedRevision(): Promise<number> {
    return this.compacted;
  }

  async get(key: string): Promise<StoredObject | undefined> {
    const stored = this.objects.get(key);
    if (stored === undefined) return undefined;
    return jsonSizeAtMost(stored.object, slicedAbove) ? copy(stored) : copySliced(stored);
  }

  /** The stored entry itself: each commit stores a new one, and no entry is changed or handed out elsewhere. */
  peekCurrent(key: string): StoredObject | null {
    return this.objects.get(key) ?? null;
  }

  async getAt(key: string, revision: number): Promise<StoredObject | undefined> {
    assertRevision(revision);
    checkReadable(revision, this.compacted, this.revision);
    const stored = this.objects.get(key);
    if (stored && stored.revision <= revision) return copy(stored);
    // The key changed after `revision`: its first later change holds the value it had then.
    const changes = this.history.get(key) ?? [];
    let lo = 0;
    let hi = changes.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((changes[mid] as ChangeRecord).revision <= revision) lo = mid + 1;
      else hi = mid;
    }
    const next = changes[lo];
    if (!next || next.type === 'ADDED' || !next.previous) return undefined;
    return copy({ key, revision: revisionOf(next.previous), object: next.previous });
  }

  async list(options: ListOptions): Promise<ListResult> {
    assertRevision(options.revision);
    const revision = options.revision ?? this.revision;
    checkReadable(revision, this.compacted, this.revision);
    const range = prefixRange(options.prefix, options.after);
    if (!range) return new PageBuilder(options).result(revision);

    const overlay =
      revision < this.revision ? snapshotOverlay(this.changesAfter(revision), range) : undefined;
    const page = new PageBuilder(options, overlay);
    const start = this.keys.rank(range.lower, range.lowerOpen);
    const end = range.upper === undefined ? this.keys.size : this.keys.rank(range.upper);
    if (page.feed(this.rows(start, end))) page.finish();
    const countAfter = page.countAfter;
    if (countAfter !== undefined) page.setLiveCountAfter(end - this.keys.rank(countAfter, true));
    const result = page.result(revision);
    result.items = result.items.map(copy);
    return result;
  }

  async count(prefix: string): Promise<number> {
    const range = prefixRange(prefix);
    if (!range) return 0;
    const end = range.upper === undefined ? this.keys.size : this.keys.rank(range.upper);
    return end - this.keys.rank(range.lower);
  }

  create(key: string, object: KubeObject): Promise<StoredObject> {
    // A small object is copied and committed at once, within the call, as before; a large one is copied in
    // slices first (stored, for the listeners), then committed without a pause. The caller's answer is the
    // object it passed (stamped): a copy of 100,000 keys costs more than any other step of the write, and the
    // stored copy is already apart from it.
    if (jsonSizeAtMost(object, slicedAbove)) {
      try {
        return Promise.resolve(this.commitCreate(key, cloneInput(object)));
      } catch (e) {
        return Promise.reject(e);
      }
    }
    return (async () => {
      const input = await cloneInputSliced(object);
      const forListeners = this.listeners.size > 0 ? await cloneValueSliced(input) : undefined;
      return this.commitCreate(key, input, forListeners, object);
    })();
  }

  private commitCreate(
    key: string,
    input: KubeObject,
    forListeners?: KubeObject,
    forCaller?: KubeObject,
  ): StoredObject {
    const existing = this.objects.get(key);
    if (existing) throw new StorageError('KeyExists', `${key} already exists`, copy(existing));
    const revision = this.revision + 1;
    const stored = { key, revision, object: stamp(input, revision) };
    this.keys.insert(key);
    this.objects.set(key, stored);
    const change: ChangeRecord = { revision, type: 'ADDED', key, object: stored.object };
    this.commit(change, forListeners && { ...change, object: stamp(forListeners, revision) });
    return forCaller !== undefined ? { key, revision, object: stamp(forCaller, revision) } : copy(stored);
  }

  update(key: string, object: KubeObject, expectedRevision: number): Promise<StoredObject> {
    if (jsonSizeAtMost(object, slicedAbove)) {
      try {
        return Promise.resolve(this.commitUpdate(key, cloneInput(object), expectedRevision));
      } catch (e) {
        return Promise.reject(e);
      }
    }
    return (async () => {
      const input = await cloneInputSliced(object);
      // The listeners' copy of the object replaced, taken now: if it is replaced meanwhile, the revision check fails.
      const seen = this.objects.get(key);
      const listening = this.listeners.size > 0;
      const forListeners = listening ? await cloneValueSliced(input) : undefined;
      const previous = listening && seen !== undefined ? await cloneValueSliced(seen.object) : undefined;
      return this.commitUpdate(key, input, expectedRevision, {
        forCaller: object,
        ...(forListeners !== undefined && previous !== undefined ? { forListeners, previous, seen } : {}),
      });
    })();
  }

  private commitUpdate(
    key: string,
    input: KubeObject,
    expectedRevision: number,
    copies: {
      forCaller?: KubeObject;
      forListeners?: KubeObject;
      previous?: KubeObject;
      seen?: StoredObject;
    } = {},
  ): StoredObject {
    const existing = this.current(key, expectedRevision);
    const revision = this.revision + 1;
    const stored = { key, revision, object: stamp(input, revision) };
    this.objects.set(key, stored);
    const change: ChangeRecord = {
      revision,
      type: 'MODIFIED',
      key,
      object: stored.object,
      previous: existing.object,
    };
    const { forCaller, forListeners, previous, seen } = copies;
    this.commit(
      change,
      forListeners !== undefined && previous !== undefined && seen === existing
        ? { ...change, object: stamp(forListeners, revision), previous }
        : undefined,
    );
    return forCaller !== undefined ? { key, revision, object: stamp(forCaller, revision) } : copy(stored);
  }

  async delete(key: string, expectedRevision?: number): Promise<StoredObject> {
    const existing = this.current(key, expectedRevision);
    const revision = this.revision + 1;
    const last = stamp(cloneValue(existing.object), revision);
    this.keys.remove(key);
    this.objects.delete(key);
    this.commit({ revision, type: 'DELETED', key, object: last, previous: existing.object });
    return copy({ key, revision, object: last });
  }

  async changesSince(after: number, limit?: number): Promise<ChangeRecord[]> {
    assertRevision(after);
    checkReadable(after, this.compacted, this.revision);
    const start = this.indexAfter(after);
    const end = limit === undefined ? this.changes.length : start + Math.max(limit, 0);
    return cloneValue(this.changes.slice(start, end));
  }

  async compact(revision: number): Promise<void> {
    assertRevision(revision);
    if (revision <= this.compacted) return;
    checkReadable(revision, this.compacted, this.revision);
    const dropped = this.changes.slice(0, this.indexAfter(revision - 1));
    this.changes = this.changes.slice(dropped.length);
    const perKey = new Map<string, number>();
    for (const change of dropped) perKey.set(change.key, (perKey.get(change.key) ?? 0) + 1);
    for (const [key, n] of perKey) {
      const changes = this.history.get(key) ?? [];
      changes.splice(0, n);
      if (changes.length === 0) this.history.delete(key);
    }
    this.compacted = revision;
  }

  async getSetting<T>(name: string): Promise<T | undefined> {
    return cloneValue(this.settings.get(name)) as T | undefined;
  }

  async getSettings(names: readonly string[]): Promise<unknown[]> {
    return names.map((name) => cloneValue(this.settings.get(name)));
  }

  async setSetting<T>(name: string, value: T): Promise<void> {
    this.settings.set(name, cloneInput(value));
  }

  async initSetting<T>(name: string, value: T): Promise<T> {
    // No await between the check and the write: atomic for every replica sharing this store.
    if (!this.settings.has(name)) this.settings.set(name, cloneInput(value));
    return cloneValue(this.settings.get(name)) as T;
  }

  async initSettings(
    inits: readonly (readonly [string, unknown])[],
    sets: readonly (readonly [string, unknown])[] = [],
  ): Promise<unknown[]> {
    // No await in between: one atomic step, as initSetting's.
    for (const [name, value] of sets) this.settings.set(name, cloneInput(value));
    return inits.map(([name, value]) => {
      if (!this.settings.has(name)) this.settings.set(name, cloneInput(value));
      return cloneValue(this.settings.get(name));
    });
  }

  onCommit(listener: CommitListener): () => void {
    // Wrapped, so that subscribing the same function twice means two deliveries and two unsubscribes.
    const entry: CommitListener = (change) => listener(change);
    this.listeners.add(entry);
    return () => this.listeners.delete(entry);
  }

  async clear(): Promise<void> {
    this.keys.reset();
    this.objects.clear();
    this.changes = [];
    this.history.clear();
    this.settings.clear();
    this.revision = 0;
    this.compacted = 0;
  }

  async exportState(): Promise<Blob> {
    const text = buildExport({
      databaseName: exportName,
      objects: this.keys.all().map((key) => this.objects.get(key) as StoredObject),
      changes: this.changes,
      revision: this.revision,
      compacted: this.compacted,
      settings: this.settings,
    });
    return new Blob([text], { type: 'application/json' });
  }

  async importState(data: Blob, options: ImportOptions = {}): Promise<void> {
    const state = parseExport(await data.text());
    const totalRows = exportRowCount(state);
    options.onProgress?.({ completedRows: 0, totalRows });
    this.keys.reset(state.objects.map((stored) => stored.key).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    this.objects.clear();
    for (const stored of state.objects) this.objects.set(stored.key, stored);
    this.changes = state.changes;
    this.history.clear();
    for (const change of state.changes) {
      const changes = this.history.get(change.key);
      if (changes) changes.push(change);
      else this.history.set(change.key, [change]);
    }
    this.settings.clear();
    for (const [name, value] of state.settings) this.settings.set(name, value);
    this.revision = state.revision;
    this.compacted = state.compacted;
    options.onProgress?.({ completedRows: totalRows, totalRows });
  }

  async close(): Promise<void> {}

  /** The stored object of `key` if its revision is the expected one (when given). */
  private current(key: string, expectedRevision: number | undefined): StoredObject {
    const existing = this.objects.get(key);
    if (!existing) throw new StorageError('NotFound', `${key} not found`);
    if (expectedRevision !== undefined && existing.revision !== expectedRevision) {
      throw new StorageError(
        'RevisionMismatch',
        `${key}: expected revision ${expectedRevision}, stored ${existing.revision}`,
        copy(existing),
      );
    }
    return existing;
  }

  /** Records a change and delivers a copy of it (`delivered`, when the caller made it already) to the listeners. */
  private commit(change: ChangeRecord, delivered?: ChangeRecord): void {
    this.revision = change.revision;
    this.changes.push(change);
    const changes = this.history.get(change.key);
    if (changes) changes.push(change);
    else this.history.set(change.key, [change]);
    if (this.listeners.size === 0) return;
    this.undelivered.push(delivered ?? cloneValue(change));
    if (this.delivering) return;
    this.delivering = true;
    try {
      for (let next = this.undelivered.shift(); next; next = this.undelivered.shift()) {
        for (const listener of this.listeners) {
          try {
            listener(next);
          } catch (error) {
            console.error('storage commit listener failed', error);
          }
        }
      }
    } finally {
      this.delivering = false;
    }
  }

  /** Index in `changes` of the first record after `revision`. */
  private indexAfter(revision: number): number {
    const first = this.changes[0]?.revision ?? this.revision + 1;
    return Math.min(Math.max(revision + 1 - first, 0), this.changes.length);
  }

  private *changesAfter(revision: number): Generator<ChangeRecord> {
    for (let i = this.indexAfter(revision); i < this.changes.length; i++)
      yield this.changes[i] as ChangeRecord;
  }

  private *rows(start: number, end: number): Generator<StoredObject> {
    for (const key of this.keys.range(start, end)) yield this.objects.get(key) as StoredObject;
  }
}

function copy(stored: StoredObject): StoredObject {
  return { key: stored.key, revision: stored.revision, object: cloneValue(stored.object) };
}

async function copySliced(stored: StoredObject): Promise<StoredObject> {
  return { key: stored.key, revision: stored.revision, object: await cloneValueSliced(stored.object) };
}

/** `cloneInput`, in slices when the value is large. */
async function cloneInputSliced<T>(value: T): Promise<T> {
  try {
    return await cloneValueSliced(value);
  } catch (error) {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    throw new StorageError('Internal', `storage failed: ${message}`);
  }
}

/** A copy of a value to store; values that IndexedDB could not store fail the same way here. */
function cloneInput<T>(value: T): T {
  try {
    return cloneValue(value);
  } catch (error) {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    throw new StorageError('Internal', `storage failed: ${message}`);
  }
}

function stamp(object: KubeObject, revision: number): KubeObject {
  object.metadata = { ...object.metadata, resourceVersion: String(revision) };
  return object;
}
