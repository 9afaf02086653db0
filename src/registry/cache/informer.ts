/**
 * One shared informer: an in-memory mirror of one storage collection that
 * stays in step with every commit, synchronously, so that in-server readers
 * (the CRD registrar, admission plugins, the authorizer) answer without
 * touching storage. It subscribes to commits first, then lists the
 * collection, then reconciles the list with what the commits already
 * applied, the technique of a consistent watch; `resync` lists again after
 * the state was replaced underneath (an import) and reports the
 * differences. Objects are kept in their storage version, deep-frozen.
 */

import type { KubeObject } from '../../api/meta';
import type { GroupResource } from '../../machinery/errors';
import { deepEqual } from '../../machinery/json';
import type { ChangeRecord, ListResult, Storage } from '../../storage/types';
import { collectionPrefix } from '../keys';
import { frozenCopy } from './frozen-copy';
import { ObjectCache } from './object-cache';
import type { IndexFunc, InformerEventHandler, Lister } from './types';

/** What commits did while a list was in flight. */
interface ListWindow {
  /** Keys changed by a commit, with the commit's revision. */
  touched: Map<string, number>;
  /** The highest revision heard. */
  maxRevision: number;
}

export class SharedInformer {
  /** Synchronous reads of the cache: hand this, not the informer, to readers. */
  readonly lister: Lister;
  /** Resolves once the first list has been reconciled; never rejects (a failed start rejects `start()`). */
  readonly synced: Promise<void>;
  private readonly cache: ObjectCache;
  private readonly prefix: string;
  private readonly handlers = new Set<InformerEventHandler>();
  private resolveSynced: () => void = () => undefined;
  private isSynced = false;
  /** The revision the cache reflects; commits at or below it outside a list window are old news. */
  private revision = 0;
  private unsubscribe: (() => void) | undefined;
  private window: ListWindow | undefined;
  private starting: Promise<void> | undefined;
  /** Lists run one at a time, so that at most one window is open. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly storage: Storage,
    readonly resource: GroupResource,
  ) {
    this.prefix = collectionPrefix(resource);
    this.cache = new ObjectCache(this.prefix);
    const cache = this.cache;
    this.lister = {
      get: (namespace, name) => cache.get(namespace, name),
      list: (namespace) => cache.list(namespace),
      byIndex: (indexName, value) => cache.byIndex(indexName, value),
    };
    this.synced = new Promise((resolve) => (this.resolveSynced = resolve));
  }

  get hasSynced(): boolean {
    return this.isSynced;
  }

  /** The storage revision the cache is complete up to (0 before the first sync). */
  get lastSyncRevision(): number {
    return this.revision;
  }

  /**
   * Follows commits and lists the collection. Idempotent: while running it
   * returns the first sync's promise; after a failed first list or a
   * `stop()`, it starts over.
   */
  start(): Promise<void> {
    if (this.unsubscribe === undefined) {
      this.unsubscribe = this.storage.onCommit((change) => this.onCommit(change));
      this.starting = undefined;
    }
    if (this.starting === undefined) {
      const attempt = this.relist();
      this.starting = attempt;
      attempt.catch(() => {
        if (this.starting === attempt) this.starting = undefined;
      });
    }
    return this.starting;
  }

  /** Lists again and reports the differences: for after the state was replaced without commits (import, clear). */
  async resync(): Promise<void> {
    if (this.unsubscribe === undefined) return;
    await this.relist();
  }

  /** Stops following commits. The cache keeps its last state; `start()` catches up again. */
  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.window = undefined;
    this.starting = undefined;
  }

  /**
   * Adds a handler and replays the cached objects to it as adds (as
   * client-go does for a handler added late), so that every handler sees
   * each object's add before its updates. Returns the removal.
   */
  addEventHandler(handler: InformerEventHandler): () => void {
    this.handlers.add(handler);
    if (handler.add !== undefined) for (const object of this.cache.list()) call(() => handler.add?.(object));
    return () => this.handlers.delete(handler);
  }

  /** Registers an index for `lister.byIndex` (see `ObjectCache.addIndex`). */
  addIndex(name: string, fn: IndexFunc): void {
    this.cache.addIndex(name, fn);
  }

  private relist(): Promise<void> {
    const run = this.queue.then(() => this.listAndReconcile());
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async listAndReconcile(): Promise<void> {
    const subscription = this.unsubscribe;
    if (subscription === undefined) return;
    // Commits keep applying while the list is in flight, so readers never stall; the window records
    // what they touched so that the list cannot overwrite a newer state with an older one.
    const window: ListWindow = { touched: new Map(), maxRevision: 0 };
    this.window = window;
    let snapshot: ListResult;
    try {
      snapshot = await this.storage.list({ prefix: this.prefix });
    } finally {
      if (this.window === window) this.window = undefined;
    }
    if (this.unsubscribe !== subscription) return;
    this.reconcile(snapshot, window);
    if (!this.isSynced) {
      this.isSynced = true;
      this.resolveSynced();
    }
  }

  /** Makes the cache equal the snapshot, except for keys a commit after the snapshot already changed. */
  private reconcile(snapshot: ListResult, window: ListWindow): void {
    const newer = (key: string): boolean => (window.touched.get(key) ?? -1) > snapshot.revision;
    const listed = new Set<string>();
    for (const item of snapshot.items) {
      listed.add(item.key);
      if (newer(item.key)) continue;
      const current = this.cache.entry(item.key);
      // An import can hold different content at the same revision, hence the comparison.
      if (current?.revision === item.revision && deepEqual(current.object, item.object)) continue;
      this.put(item.key, frozenCopy(item.object), item.revision);
    }
    for (const key of this.cache.keys()) if (!listed.has(key) && !newer(key)) this.remove(key);
    // Not a max with the old revision: an import may have moved the store's revision backwards.
    this.revision = Math.max(snapshot.revision, window.maxRevision);
  }

  private onCommit(change: ChangeRecord): void {
    const window = this.window;
    if (window !== undefined) {
      window.maxRevision = Math.max(window.maxRevision, change.revision);
      if (change.key.startsWith(this.prefix)) window.touched.set(change.key, change.revision);
    } else {
      // A backend may announce a commit after a list already read it.
      if (change.revision <= this.revision) return;
      this.revision = change.revision;
    }
    if (!change.key.startsWith(this.prefix)) return;
    if (change.type === 'DELETED') this.remove(change.key);
    else this.put(change.key, frozenCopy(change.object), change.revision);
  }

  private put(key: string, object: KubeObject, revision: number): void {
    const previous = this.cache.set(key, object, revision);
    for (const h of [...this.handlers]) {
      if (previous === undefined) call(() => h.add?.(object));
      else call(() => h.update?.(previous.object, object));
    }
  }

  private remove(key: string): void {
    const previous = this.cache.delete(key);
    if (previous === undefined) return;
    for (const h of [...this.handlers]) call(() => h.delete?.(previous.object));
  }
}

/** Runs one handler; a failing consumer must not stop the others or leave the cache behind. */
function call(fn: () => void): void {
  try {
    fn();
  } catch (error) {
    console.error('informer event handler failed', error);
  }
}
