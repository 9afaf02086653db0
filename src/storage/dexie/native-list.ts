/**
 * One page of a list, read on the native IndexedDB connection in one
 * read-only transaction: the revision and the compacted revision, the first batch of rows
 * requested at once beside them (almost every list reads it), bulk `getAll`
 * for rows and for the changes a past revision needs, and a bulk `count` for
 * `remaining`. Lists are the largest reads of the browser host, and Dexie's
 * promise zones cost a step per request on top of IndexedDB's own work.
 */

import type { ListOptions, ListResult } from '../types';
import { checkReadable, PageBuilder, prefixRange, snapshotOverlay, type KeyRange } from '../keys';
import type { ChangeRow, ObjectRow } from './schema';
import { storeRevision, type NativeDatabase, type NativeRequest } from './write-batch';

/** The part of `IDBKeyRange`'s constructor functions a list uses. */
export interface NativeKeyRanges {
  bound(lower: string, upper: string, lowerOpen: boolean, upperOpen: boolean): unknown;
  lowerBound(lower: string | number, open: boolean): unknown;
}

/** Largest batch of rows a list reads at once when a predicate makes it read past its first batch. */
const maxBatch = 4096;

export async function listPage(
  db: NativeDatabase,
  ranges: NativeKeyRanges,
  options: ListOptions,
): Promise<ListResult> {
  const tx = db.transaction(['objects', 'changes', 'meta'], 'readonly');
  const objects = tx.objectStore('objects');
  const range = prefixRange(options.prefix, options.after);
  const toNative = (r: KeyRange) =>
    r.upper === undefined
      ? ranges.lowerBound(r.lower, r.lowerOpen)
      : ranges.bound(r.lower, r.upper, r.lowerOpen, true);

  // The revision is the history's last key (decision 0086); `meta` holds the compacted revision.
  const counters = new Promise<[number, number]>((resolve, reject) =>
    storeRevision(tx, (revision, compacted) => resolve([revision, compacted]), reject),
  );
  const probe = range ? new PageBuilder(options) : undefined;
  // A huge page size (`limit=4294967296`) is still read in batches: IndexedDB counts are 32-bit.
  let batch = !probe ? 0 : probe.firstBatch === Infinity ? Infinity : Math.min(probe.firstBatch, maxBatch);
  const first = range ? result<ObjectRow[]>(objects.getAll(toNative(range), countOf(batch))) : undefined;
  // A revision that cannot be read ends the list before the rows are awaited.
  first?.catch(() => undefined);

  const [current, compacted] = await counters;
  const revision = options.revision ?? current;
  checkReadable(revision, compacted, current);
  if (!range || !first) return new PageBuilder(options).result(revision);

  // Keys that changed since a past revision are few next to the collection; read them whole.
  const overlay =
    revision < current
      ? snapshotOverlay(
          await result<ChangeRow[]>(tx.objectStore('changes').getAll(ranges.lowerBound(revision, true))),
          range,
        )
      : undefined;
  const page = overlay ? new PageBuilder(options, overlay) : (probe as PageBuilder);
  let rows = await first;
  for (;;) {
    if (!page.feed(rows)) break;
    const last = rows.at(-1);
    if (rows.length < batch || !last) {
      page.finish();
      break;
    }
    batch = Math.min(batch * 2, maxBatch);
    rows = await result<ObjectRow[]>(
      objects.getAll(toNative({ lower: last.key, lowerOpen: true, upper: range.upper }), countOf(batch)),
    );
  }
  const countAfter = page.countAfter;
  if (countAfter !== undefined) {
    page.setLiveCountAfter(
      await result<number>(
        objects.count(toNative({ lower: countAfter, lowerOpen: true, upper: range.upper })),
      ),
    );
  }
  return page.result(revision);
}

/** IndexedDB's count argument: none for "all". */
function countOf(batch: number): number | undefined {
  return batch === Infinity ? undefined : batch;
}

function result<T>(request: NativeRequest): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result as T);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
  });
}
