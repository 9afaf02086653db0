/**
 * The storage interface every backend implements, and the change history it
 * keeps. One store-wide revision sequence: every committed write takes the
 * next revision, stamps it into `metadata.resourceVersion`, writes the object
 * and appends a change record in one transaction, so that an acknowledged
 * write is never lost and a failed write changes nothing. Writes are
 * compare-and-swap on the object's revision; callers retry (the registry's
 * guaranteed-update loop), since no I/O of the caller may run inside a
 * backend's transaction.
 */

import type { KubeObject } from '../api/meta';

export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** An object as stored, with the revision of its last modification. */
export interface StoredObject {
  key: string;
  revision: number;
  object: KubeObject;
}

/** One entry of the change history. */
export interface ChangeRecord {
  revision: number;
  type: ChangeType;
  key: string;
  /** The object after the change; for DELETED, its last state stamped with the deletion's revision. */
  object: KubeObject;
  /** The object before the change (absent for ADDED). */
  previous?: KubeObject;
}

export interface ListOptions {
  /** Key prefix of the collection, ending in `/`. */
  prefix: string;
  /** Exclusive start key (the last key of the previous page). */
  after?: string;
  /** Maximum number of items; unset means all. */
  limit?: number;
  /**
   * Revision to read at; unset means the current revision. A revision older
   * than the compacted revision throws `StorageError('Compacted')`; a revision
   * newer than the current one throws `StorageError('FutureRevision')`.
   */
  revision?: number;
  /** Only objects for which this returns true count towards `limit` and `remaining`. */
  predicate?: (object: KubeObject) => boolean;
  /**
   * The only last key segment `predicate` accepts (a `metadata.name=` field
   * selector): a backend may skip other keys without reading their objects.
   * Only given with a predicate, which still decides.
   */
  name?: string;
  /** Whether to compute `remaining` (it costs a count). */
  countRemaining?: boolean;
}

export interface ListResult {
  items: StoredObject[];
  /** The revision the list was read at. */
  revision: number;
  /** True when items after the last returned one exist. */
  more: boolean;
  /** Number of matching items after the last returned one (only when `countRemaining`). */
  remaining?: number;
}

export type StorageErrorCode =
  /** create: the key exists. */
  | 'KeyExists'
  /** update/delete: the key does not exist. */
  | 'NotFound'
  /** update/delete: the stored revision differs from the expected one. */
  | 'RevisionMismatch'
  /** read at a revision older than the retained history. */
  | 'Compacted'
  /** read at a revision newer than the current one. */
  | 'FutureRevision'
  /** the backend failed; nothing was written. */
  | 'Internal'
  /** importState: the data is not a state export this backend reads; nothing was replaced. */
  | 'InvalidImport';

export class StorageError extends Error {
  constructor(
    readonly code: StorageErrorCode,
    message: string,
    /** For `RevisionMismatch` and `KeyExists`: the current stored object. */
    readonly current?: StoredObject,
  ) {
    super(message);
    this.name = 'StorageError';
  }
}

export type CommitListener = (change: ChangeRecord) => void;

/** Sees a create's object as it will be stored, while its commit is in flight (see `Storage.create`). */
export type IssuedListener = (object: Readonly<KubeObject>) => void;

/** How far an import has come, in rows of the export (objects, changes, settings, counters). */
export interface ImportProgress {
  completedRows: number;
  totalRows: number;
}

export interface ImportOptions {
  /** Called as rows are written; the last call has `completedRows === totalRows`. */
  onProgress?: (progress: ImportProgress) => void;
}

export interface Storage {
  /** The revision of the last committed write (0 for an empty store). */
  currentRevision(): Promise<number>;
  /** The oldest revision still readable: history before it is gone (0 when nothing was compacted). */
  compactedRevision(): Promise<number>;

  get(key: string): Promise<StoredObject | undefined>;
  /** The object as it was at `revision` (undefined when it did not exist then). */
  getAt(key: string, revision: number): Promise<StoredObject | undefined>;
  list(options: ListOptions): Promise<ListResult>;
  /** Number of objects under a prefix at the current revision. */
  count(prefix: string): Promise<number>;

  /**
   * Creates `key`; fails with `KeyExists`. Returns the stored object with its new revision. What is stored is
   * a copy of `object`; the answer may be `object` itself, stamped with the revision (a wide object's copy is
   * the costliest step of its write), so a caller keeps no use for `object` after a successful call.
   *
   * `issued`, optional for a backend: called at most once per attempt with the object exactly as it will be
   * stored (stamped), once the write is handed to the database and before it is known to have committed, so
   * that the caller can prepare its answer during the commit's wait (decision 0086). The object must not be
   * changed. It says nothing about success: only the promise does; the answer's object equals what the last
   * call saw when the write succeeds.
   */
  create(key: string, object: KubeObject, issued?: IssuedListener): Promise<StoredObject>;
  /**
   * Replaces `key` if its stored revision equals `expectedRevision`; fails with `NotFound` or `RevisionMismatch`.
   * As with `create`, the answer may be `object` itself, stamped.
   */
  update(key: string, object: KubeObject, expectedRevision: number): Promise<StoredObject>;
  /** Deletes `key` if its stored revision equals `expectedRevision` (when given). Returns the deleted object stamped with the deletion's revision. */
  delete(key: string, expectedRevision?: number): Promise<StoredObject>;

  /** Change records with revision > `after`, oldest first, at most `limit`. Throws `Compacted` when `after` predates the history. */
  changesSince(after: number, limit?: number): Promise<ChangeRecord[]>;
  /** Drops change history older than `revision` (exclusive); reads before it then fail with `Compacted`. */
  compact(revision: number): Promise<void>;

  /** Small persistent settings of the server (keys, feature state); not part of the revision sequence. */
  getSetting<T>(name: string): Promise<T | undefined>;
  setSetting<T>(name: string, value: T): Promise<void>;
  /**
   * Stores `value` only when the setting does not exist, atomically, and returns what is stored then: replicas
   * starting together on one store agree on keys each would otherwise generate. Optional: without it, callers
   * fall back to read-then-write (see settings.ts).
   */
  initSetting?<T>(name: string, value: T): Promise<T>;
  /**
   * Optional: several settings read together, in one read of the store where the backend can (one IndexedDB
   * transaction instead of one each), each value at the position of its name, `undefined` where none is stored.
   * Without it, callers read them one by one, concurrently (see settings.ts).
   */
  getSettings?(names: readonly string[]): Promise<unknown[]>;
  /**
   * Optional: `initSetting` for each of `inits` and `setSetting` for each of `sets`, all in one write of the
   * store (one IndexedDB transaction instead of one each, in sequence); returns what is stored then for each of
   * `inits`, in their order. Without it, callers make the calls one by one (see settings.ts).
   */
  initSettings?(
    inits: readonly (readonly [string, unknown])[],
    sets?: readonly (readonly [string, unknown])[],
  ): Promise<unknown[]>;

  /**
   * Optional: resolves, once the store is open, to whether this handle's own open created it — so that it held
   * nothing (no object, history or setting) when this handle first saw it, as on the browser's first visit. The
   * server's start then knows what it would only read to find missing (its settings) and writes its start-up
   * objects without the create path (server/bootstrap.ts, decision 0109). Without it, no store is taken for new.
   */
  createdByOpen?(): Promise<boolean>;

  /**
   * Optional: the caller promises (`true`) that no other handle writes the store until it calls with `false`, as
   * the browser's writer lease guarantees; a backend may then skip reading what only its own writes change.
   */
  writeExclusively?(exclusive: boolean): void;

  /**
   * Optional: the current value of `key` when this handle holds it in memory and knows it is current, without a
   * copy — the stored entry itself, `null` when the key does not exist — or `undefined` when memory cannot answer
   * (read with `get`). The storage never changes an entry it handed out: a commit replaces it by another object,
   * so what is derived from an entry may be kept beside it, keyed by its identity. The caller must not change it.
   */
  peekCurrent?(key: string): Readonly<StoredObject> | null | undefined;

  /** Called once per committed write, in revision order, within this process. Returns an unsubscribe function. */
  onCommit(listener: CommitListener): () => void;

  /** Deletes everything (objects, history, settings) and resets the revision to 0. */
  clear(): Promise<void>;

  /**
   * The whole state (objects, change history, revision counters, settings) as
   * one JSON document in the format of Dexie's export addon
   * (`dexie-export-import`; see `export-format.ts`), the same from every
   * backend, so a state exported from one imports into any other.
   */
  exportState(): Promise<Blob>;
  /**
   * Replaces the whole state with an export of that format: afterwards the
   * store reads exactly as the exported one did (revisions, history,
   * compaction, settings). It is not a write: commit listeners hear nothing,
   * so the caller ends its watches. Fails with `InvalidImport`, replacing
   * nothing, when the data is not such an export.
   */
  importState(data: Blob, options?: ImportOptions): Promise<void>;
  close(): Promise<void>;
}
