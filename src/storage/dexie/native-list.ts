/**
 * One page of a list, read on the native IndexedDB connection: the revision
 * and the compacted revision, the first batch of rows requested at once
 * beside them (almost every list reads it), bulk `getAll` for rows and for
 * the changes a past revision needs, and a bulk `count` for `remaining`.
 * Lists are the largest reads of the browser host, and Dexie's promise zones
 * cost a step per request on top of IndexedDB's own work.
 *
 * A list that reads many rows (a selector that matches few objects of a large
 * collection, or no limit) reads them in several read-only transactions, each
 * of a bounded number of rows, all at the revision the first one read: a
 * write waits for a read-only transaction over the stores it writes, so one
 * transaction over 100k ConfigMaps (1.3 s here) held every create for as long
 * (decision 0101). A later transaction sees the page at that revision through
 * the same overlay of changed keys that a past revision's read uses. A list
 * that can only match one name (a `metadata.name=` field selector, as the
 * root-CA publisher's informer lists ConfigMaps in every namespace) reads
 * keys, not rows, and only the rows of the keys that end in that name; and
 * it seeks: past the keys of a namespace that sort before the name, and past
 * the rest of the namespace after it, so that it reads about two short
 * batches of keys a namespace however many objects each holds (100k
 * ConfigMaps in a few namespaces were 1.2 s of keys read, decision 0126).
 * The count for a first page's `remaining` is the
 * collection's total, kept in memory while this handle writes alone
 * (range-counts.ts), less the few keys up to the page's last item.
 */

import type { ListOptions, ListResult } from '../types';
import { StorageError } from '../types';
import { checkReadable, PageBuilder, prefixRange, snapshotOverlay, type KeyRange } from '../keys';
import type { ChangeRow, ObjectRow } from './schema';
import { storeRevision, type NativeDatabase, type NativeRequest } from './write-batch';
import type { RangeCounts } from './range-counts';

/** The part of `IDBKeyRange`'s constructor functions a list uses. */
export interface NativeKeyRanges {
  bound(lower: string, upper: string, lowerOpen: boolean, upperOpen: boolean): unknown;
  lowerBound(lower: string | number, open: boolean): unknown;
}

/** Largest batch of rows a list reads at once when a predicate makes it read past its first batch. */
const maxBatch = 4096;

/**
 * Rows one read-only transaction reads before the list goes on in the next:
 * at ~12 µs a row (100k ConfigMaps read in 1.2 s here) a write waits ~25–50 ms
 * at most behind a list, not the whole list.
 */
export const defaultRowsPerTransaction = 2048;

/** Keys read instead of rows (a list by name) count this much less towards a batch and a transaction. */
const keysPerRow = 8;

/** Keys a list by name reads before it seeks; more while a batch spans many namespaces (few keys each). */
const seekBatch = { first: 64, largest: 4096, namespacesToGrow: 8 };

/** A list started again from its first row when compaction overtook its revision between transactions. */
const restartsAfterCompaction = 3;

export async function listPage(
  db: NativeDatabase,
  ranges: NativeKeyRanges,
  options: ListOptions,
  rowsPerTransaction = defaultRowsPerTransaction,
  counts?: RangeCounts,
): Promise<ListResult> {
  for (let restarts = 0; ; restarts++) {
    // The last attempt reads in one transaction, so that a list always ends.
    const bound = restarts < restartsAfterCompaction ? rowsPerTransaction : Infinity;
    let step = await readStep(db, ranges, options, bound, undefined, counts);
    try {
      while (step.next) step = await readStep(db, ranges, options, bound, step.next, counts);
      return step.result;
    } catch (error) {
      // Compaction passed the revision this list pinned after its first transaction: the caller named no
      // revision, so the list is read again at the current one, as if it had come a moment later. A caller's
      // own revision (a continue token, `resourceVersion` with an exact match) being compacted is its error.
      if (options.revision !== undefined || !(error instanceof StorageError) || error.code !== 'Compacted')
        throw error;
    }
  }
}

/** One read of a list: the rows to feed, how many keys it went over, and the last of them. */
interface Scanned {
  rows: ObjectRow[];
  scanned: number;
  last: string | undefined;
  /** No key after `last` can be fed (a list by name that sought past its range's end). */
  done?: boolean;
}

/** Where a list goes on in its next transaction: the page so far, its revision and the last key read. */
interface Continuation {
  page: PageBuilder;
  revision: number;
  after: string;
}

type Step = { next: Continuation; result?: undefined } | { next?: undefined; result: ListResult };

/** One read-only transaction of a list: at most about `bound` rows, then the continuation if rows remain. */
async function readStep(
  db: NativeDatabase,
  ranges: NativeKeyRanges,
  options: ListOptions,
  bound: number,
  from: Continuation | undefined,
  counts: RangeCounts | undefined,
): Promise<Step> {
  const tx = db.transaction(['objects', 'changes', 'meta'], 'readonly');
  const objects = tx.objectStore('objects');
  const range = prefixRange(options.prefix, from ? from.after : options.after);
  const toNative = (r: KeyRange) =>
    r.upper === undefined
      ? ranges.lowerBound(r.lower, r.lowerOpen)
      : ranges.bound(r.lower, r.upper, r.lowerOpen, true);

  // The revision is the history's last key (decision 0086); `meta` holds the compacted revision.
  const counters = new Promise<[number, number]>((resolve, reject) =>
    storeRevision(tx, (revision, compacted) => resolve([revision, compacted]), reject),
  );
  // A list going on from an earlier transaction has its page; a new one sizes its first batch by a fresh one.
  const probe = range && !from ? new PageBuilder(options) : undefined;
  const { name } = options;
  const scale = name !== undefined ? keysPerRow : 1;
  const largest = maxBatch * scale;
  const perTransaction = bound * scale;
  // A huge page size (`limit=4294967296`) is still read in batches: IndexedDB counts are 32-bit.
  let batch = !range
    ? 0
    : !probe
      ? largest
      : probe.firstBatch === Infinity
        ? Infinity
        : Math.min(probe.firstBatch * scale, largest);
  if (batch > perTransaction) batch = Math.max(perTransaction, 1);
  const read = (r: KeyRange, count: number): Promise<Scanned> =>
    name === undefined
      ? result<ObjectRow[]>(objects.getAll(toNative(r), countOf(count))).then((rows) => ({
          rows,
          scanned: rows.length,
          last: rows.at(-1)?.key,
        }))
      : readByName(
          (from, count) => result<string[]>(objects.getAllKeys(toNative(from), countOf(count))),
          (key) => result<ObjectRow>(objects.get(key)),
          options.prefix,
          name,
          r,
          count,
        );
  const first = range ? read(range, batch) : undefined;
  // A revision that cannot be read ends the list before the rows are awaited.
  first?.catch(() => undefined);

  const [current, compacted] = await counters;
  const revision = from ? from.revision : (options.revision ?? current);
  checkReadable(revision, compacted, current);
  // Only a new list can have an empty range: one going on starts after a key inside it.
  if (!range || !first) return { result: new PageBuilder(options).result(revision) };

  // Keys that changed since a past revision are few next to the collection; read them whole. A list going on
  // in a later transaction reads them again: the keys after its last row may have changed in between.
  const overlay =
    revision < current
      ? snapshotOverlay(
          await result<ChangeRow[]>(tx.objectStore('changes').getAll(ranges.lowerBound(revision, true))),
          range,
        )
      : undefined;
  const page = from ? from.page : overlay ? new PageBuilder(options, overlay) : (probe as PageBuilder);
  if (from) page.resumeWith(overlay ?? new Map());
  let total = 0;
  let { rows, scanned, last, done } = await first;
  for (;;) {
    total += scanned;
    if (!page.feed(rows)) break;
    if (done === true || scanned < batch || last === undefined) {
      page.finish();
      break;
    }
    // Enough rows for one transaction: the next one goes on after the last row, at the same revision. Keys that
    // changed since it and lie before that row are this transaction's to take (a list by name feeds only its
    // matches, so no row after them took them); the next one's overlay starts after the row.
    if (total >= perTransaction) {
      if (!page.passTo(last)) break;
      return { next: { page, revision, after: last } };
    }
    batch = Math.min(batch * 2, largest, Math.max(perTransaction - total, 1));
    ({ rows, scanned, last, done } = await read({ lower: last, lowerOpen: true, upper: range.upper }, batch));
  }
  const countAfter = page.countAfter;
  if (countAfter !== undefined) {
    // An earlier transaction fed every key up to its last row, and none of those after the page's last item
    // was in the snapshot (it would be an item or the extra one): the count starts after that row, where this
    // transaction's overlay starts too.
    const lower = from !== undefined && from.after > countAfter ? from.after : countAfter;
    const after = { lower, lowerOpen: true, upper: range.upper };
    // A first page read in one transaction: its last item is near the range's start, so the keys up to it are
    // few to count, and the collection's total at this revision is kept (range-counts.ts).
    if (counts !== undefined && from === undefined && options.after === undefined) {
      let total = counts.total(options.prefix, current);
      if (total === undefined) {
        total = await result<number>(objects.count(toNative(range)));
        counts.learn(options.prefix, current, total);
      }
      const head = await result<number>(
        objects.count(ranges.bound(range.lower, lower, range.lowerOpen, false)),
      );
      page.setLiveCountAfter(total - head);
    } else page.setLiveCountAfter(await result<number>(objects.count(toNative(after))));
  }
  return { result: page.result(revision) };
}

/**
 * The rows of `range` whose key ends in `/<name>`, reading at most `count` keys: short batches of keys, each
 * followed by a seek to the next key that could match (see `nextCandidate`). `scanned` counts the keys read, so
 * a list by name goes on in another transaction only when it has read many.
 */
export async function readByName(
  keysOf: (range: KeyRange, count: number) => Promise<string[]>,
  rowOf: (key: string) => Promise<ObjectRow>,
  prefix: string,
  name: string,
  range: KeyRange,
  count: number,
): Promise<Scanned> {
  const matches: Promise<ObjectRow>[] = [];
  let from = range;
  let scanned = 0;
  let last: string | undefined;
  let size = seekBatch.first;
  while (scanned < count) {
    const want = Math.min(size, count - scanned);
    const keys = await keysOf(from, want);
    scanned += keys.length;
    let namespaces = 0;
    let segment: string | undefined;
    for (const key of keys) {
      if (key.endsWith(`/${name}`)) matches.push(rowOf(key));
      const next = firstSegment(key, prefix);
      if (next !== segment) {
        segment = next;
        namespaces++;
      }
    }
    last = keys.at(-1) ?? last;
    if (keys.length < want || last === undefined)
      return { rows: await Promise.all(matches), scanned, last, done: true };
    const seek = nextCandidate(last, prefix, name);
    if (seek === undefined || (range.upper !== undefined && seek.lower >= range.upper))
      return { rows: await Promise.all(matches), scanned, last, done: true };
    from = { ...seek, upper: range.upper };
    size = namespaces > seekBatch.namespacesToGrow ? Math.min(size * 2, seekBatch.largest) : seekBatch.first;
  }
  return { rows: await Promise.all(matches), scanned, last };
}

/** The key's first segment after `prefix` (its namespace in a namespaced collection's cluster-wide list). */
function firstSegment(key: string, prefix: string): string {
  const slash = key.indexOf('/', prefix.length);
  return slash < 0 ? key.slice(prefix.length) : key.slice(prefix.length, slash);
}

/**
 * Where the next key that can end in `/<name>` may be, once every key up to `key` has been read: in `key`'s
 * namespace, its `<prefix><namespace>/<name>` if that is still ahead, else past the namespace (its keys all
 * sort below `<prefix><namespace>0`, '0' being the character after '/'); in a collection of names alone (a
 * list in one namespace, or of a cluster-scoped kind), `<prefix><name>` if still ahead, else nothing.
 */
export function nextCandidate(
  key: string,
  prefix: string,
  name: string,
): Omit<KeyRange, 'upper'> | undefined {
  const slash = key.indexOf('/', prefix.length);
  if (slash < 0) {
    const target = `${prefix}${name}`;
    return key < target ? { lower: target, lowerOpen: false } : undefined;
  }
  const namespace = key.slice(0, slash);
  const target = `${namespace}/${name}`;
  return key < target ? { lower: target, lowerOpen: false } : { lower: `${namespace}0`, lowerOpen: false };
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
