/**
 * Group commit: the writes queued while an earlier transaction was in flight
 * are committed together in one IndexedDB read-write transaction, because
 * opening a transaction and waiting for it to commit costs more than the
 * writes it carries. Each write's plan runs in issue order against the rows
 * as the batch has left them, takes its own revision, and may fail alone (a
 * plan error writes nothing for that write). An IndexedDB error aborts the
 * transaction and so fails the whole batch with nothing written. This runs on
 * the native IndexedDB connection under Dexie: the write path is the hottest
 * path of the browser host and Dexie's promise zones cost more than the work.
 *
 * A caller that knows the store's current revision for certain (the only
 * writer, decision 0075) passes it, and the batch then reads nothing it can do
 * without: not the revision counter, and not the rows of keys it only
 * creates, which it adds (`add`, so that IndexedDB itself refuses a key that
 * exists, aborting the batch). Its writes then go out in the same task that
 * opens the transaction, one round trip to the database fewer. A wrong
 * belief fails loudly, never silently: a revision another writer took is
 * refused by `changes.add` (the history's key is the revision), a taken key by
 * `objects.add`; the caller runs the batch again, reading.
 *
 * No batch writes a revision counter (decision 0086): the store's revision is
 * the history's last key, every write (a deletion too) adding a change row
 * there, read back by `storeRevision` (which also honours the `meta` rows of
 * earlier builds). A batch with a known revision touches only `objects` and
 * `changes`. Once its requests are made, a batch commits at once (`commit()`)
 * instead of waiting for IndexedDB's auto-commit.
 */

import type { ChangeRecord } from '../types';
import { historyRow } from './history-rows';
import type { MetaRow, ObjectRow } from './schema';

/** An open cursor's request: `result` is the cursor (null past the end). */
export interface NativeCursor {
  readonly primaryKey: unknown;
}

/** The part of IndexedDB this module and the storage's native reads use (the Node build has no DOM types). */
export interface NativeRequest {
  readonly result: unknown;
  readonly error: unknown;
  onsuccess: (() => void) | null;
  onerror: (() => void) | null;
}
export interface NativeStore {
  get(key: string): NativeRequest;
  getAll(query?: unknown, count?: number): NativeRequest;
  getAllKeys(query?: unknown, count?: number): NativeRequest;
  count(query?: unknown): NativeRequest;
  put(value: unknown): NativeRequest;
  add(value: unknown): NativeRequest;
  delete(key: string): NativeRequest;
  openKeyCursor(query?: unknown, direction?: 'next' | 'prev'): NativeRequest;
}
export interface NativeTransaction {
  readonly error: unknown;
  objectStore(name: string): NativeStore;
  abort(): void;
  /** Starts committing once the requests made so far are done (absent in older IndexedDB implementations). */
  commit?(): void;
  oncomplete: (() => void) | null;
  onabort: (() => void) | null;
}
export interface NativeTransactionOptions {
  durability?: 'default' | 'strict' | 'relaxed';
}
export interface NativeDatabase {
  transaction(
    stores: string | string[],
    mode: 'readonly' | 'readwrite',
    options?: NativeTransactionOptions,
  ): NativeTransaction;
}

/** Sees the row the batch has left at the key and the revision the write will take; returns the change or throws. */
export type WritePlan = (existing: ObjectRow | undefined, revision: number) => ChangeRecord;

export interface BatchWrite {
  key: string;
  plan: WritePlan;
  /** The write is a create (its plan refuses an existing row): with a known revision, its key is not read. */
  creates?: boolean;
  /**
   * Sees the write's change once the batch is committing (every request made, `commit()` called), while the
   * database commits it: the caller prepares what it answers in that wait. Not a success: the batch may still
   * fail, and a failed batch tried again calls it again.
   */
  issued?: (change: ChangeRecord) => void;
}

/** One write's result: its change record, or the error its plan threw. */
export type WriteOutcome = { change: ChangeRecord } | { error: unknown };

/**
 * Commits `writes` in one transaction over `objects` and `changes` (and `meta`, read when the revision is not known).
 * Resolves once the transaction completed, with one outcome per write in
 * order; rejects, with nothing written, when the transaction failed.
 * `known`: the store's current revision, when the caller knows it for certain
 * (see above); the batch then reads only the rows of keys it updates or deletes.
 */
export function commitBatch(
  db: NativeDatabase,
  writes: readonly BatchWrite[],
  options?: NativeTransactionOptions,
  known?: number,
): Promise<WriteOutcome[]> {
  return new Promise((resolve, reject) => {
    let tx: NativeTransaction;
    try {
      // With a known revision nothing reads `meta` (and nothing writes it any more): two stores, not three.
      const stores = known === undefined ? ['objects', 'changes', 'meta'] : ['objects', 'changes'];
      tx = db.transaction(stores, 'readwrite', options);
    } catch (error) {
      reject(error);
      return;
    }
    const outcomes: WriteOutcome[] = [];
    let failure: unknown;
    tx.oncomplete = () => resolve(outcomes);
    tx.onabort = () => reject(failure ?? tx.error ?? new Error('transaction aborted'));
    const abort = (error: unknown) => {
      failure ??= error;
      try {
        tx.abort();
      } catch {
        // Already finished or aborting: onabort reports it.
      }
    };
    const objects = tx.objectStore('objects');
    const changes = tx.objectStore('changes');

    const rows = new Map<string, ObjectRow | undefined>();
    // Keys only created, not read (with a known revision): their first write adds, refused if the key exists.
    const unread = new Set<string>();
    let current = known ?? 0;
    // One more than the reads issued, until all are issued: a read answered early must not start `apply`.
    let waiting = 1;
    const loaded = () => {
      if (--waiting === 0) apply();
    };
    try {
      if (known === undefined) {
        waiting++;
        storeRevision(tx, (revision) => {
          current = revision;
          loaded();
        });
      }
      if (known !== undefined) for (const w of writes) if (w.creates === true) unread.add(w.key);
      for (const w of writes) if (w.creates !== true) unread.delete(w.key);
      for (const key of new Set(writes.map((w) => w.key))) {
        if (unread.has(key)) continue;
        waiting++;
        const row = objects.get(key);
        row.onsuccess = () => {
          rows.set(key, row.result as ObjectRow | undefined);
          loaded();
        };
      }
      loaded();
    } catch (error) {
      abort(error);
    }

    function apply(): void {
      try {
        let revision = current;
        for (const { key, plan } of writes) {
          let change: ChangeRecord;
          try {
            change = plan(rows.get(key), revision + 1);
          } catch (error) {
            outcomes.push({ error });
            continue;
          }
          revision = change.revision;
          if (change.type === 'DELETED') {
            rows.set(key, undefined);
            objects.delete(key);
          } else {
            const row: ObjectRow = { key, revision: change.revision, object: change.object };
            rows.set(key, row);
            if (unread.delete(key)) objects.add(row);
            else objects.put(row);
          }
          // The object goes to `objects` only; the history row can find it again (history-rows.ts).
          changes.add(historyRow(change));
          outcomes.push({ change });
        }
        // Every request of the batch is made: commit now rather than when the worker has dispatched each
        // request's success event and gone idle (IndexedDB's auto-commit), one round trip between the worker
        // and the browser's database fewer, and no wait behind whatever else the worker's loop runs meanwhile.
        // A request that fails still aborts the whole transaction (its error event's default action), so
        // nothing of the batch is written, as before (decision 0086 checked this in Chromium).
        tx.commit?.();
      } catch (error) {
        abort(error);
        return;
      }
      // The database commits meanwhile (in its own process, in the browser): the writers' own work of the wait.
      writes.forEach((w, i) => {
        const outcome = outcomes[i];
        if (w.issued === undefined || outcome === undefined || !('change' in outcome)) return;
        try {
          w.issued(outcome.change);
        } catch (error) {
          // The write's outcome is the commit's alone; what its writer prepared is its own affair.
          console.error('storage issued listener failed', error);
        }
      });
    }
  });
}

/**
 * Reads the store's revision in `tx` (over `changes` and `meta`) and hands it to `done` with the compacted
 * revision: the history's last key, or when the history is empty the compacted revision. Every write adds its
 * change row at its revision and compaction keeps the row at the revision it compacts to, so the last row's key
 * is the revision. A `revision` row in `meta` (what builds before decision 0086 kept, updated with every batch)
 * is honoured as a lower bound, so a database they wrote reads the same; it only ever lags behind the history.
 * A failed request calls `failed` (it also aborts `tx`, which a writer's owner reports).
 */
export function storeRevision(
  tx: NativeTransaction,
  done: (revision: number, compacted: number) => void,
  failed?: (error: unknown) => void,
): void {
  let last: number | undefined;
  let rows: MetaRow[] | undefined;
  const both = () => {
    if (last === undefined || rows === undefined) return;
    done(...revisionsFrom(last, rows));
  };
  const cursor = tx.objectStore('changes').openKeyCursor(null, 'prev');
  cursor.onsuccess = () => {
    const found = cursor.result as NativeCursor | null;
    last = typeof found?.primaryKey === 'number' ? found.primaryKey : 0;
    both();
  };
  const meta = tx.objectStore('meta').getAll();
  meta.onsuccess = () => {
    rows = meta.result as MetaRow[];
    both();
  };
  if (failed !== undefined) {
    cursor.onerror = () => failed(cursor.error);
    meta.onerror = () => failed(meta.error);
  }
}

/** The store's revision and compacted revision from the history's last key (0 when empty) and the `meta` rows. */
export function revisionsFrom(lastChange: number, meta: readonly MetaRow[]): [number, number] {
  let revision = lastChange;
  let compacted = 0;
  for (const row of meta) {
    if (row.name === 'compacted') compacted = row.value;
    if ((row.name === 'revision' || row.name === 'compacted') && row.value > revision) revision = row.value;
  }
  return [revision, compacted];
}
