/**
 * Reading a key range, shared by both backends: the bounds of a collection's
 * key range, the revision bounds of a read, the overlay of keys that changed
 * since a past revision, and the assembly of one page (limit, predicate,
 * `more`, `remaining`) from the live rows merged with that overlay. Keys
 * compare as strings of UTF-16 code units, which is both JavaScript's `<` and
 * IndexedDB's order of string keys, so both backends see the same order.
 */

import type { KubeObject } from '../api/meta';
import {
  StorageError,
  type ChangeRecord,
  type ListOptions,
  type ListResult,
  type StoredObject,
} from './types';

/** A range of keys: from `lower` (exclusive when `lowerOpen`) up to `upper` (exclusive; none when undefined). */
export interface KeyRange {
  lower: string;
  lowerOpen: boolean;
  upper?: string;
}

/** The least string above every string that starts with `prefix`; undefined when no such string exists. */
export function prefixEnd(prefix: string): string | undefined {
  let end = prefix;
  while (end.length > 0) {
    const last = end.charCodeAt(end.length - 1);
    if (last < 0xffff) return end.slice(0, -1) + String.fromCharCode(last + 1);
    end = end.slice(0, -1);
  }
  return undefined;
}

/** The keys under `prefix` after `after` (exclusive); undefined when that range is empty. */
export function prefixRange(prefix: string, after?: string): KeyRange | undefined {
  const upper = prefixEnd(prefix);
  if (after === undefined || after < prefix) return { lower: prefix, lowerOpen: false, upper };
  if (upper !== undefined && after >= upper) return undefined;
  return { lower: after, lowerOpen: true, upper };
}

export function inRange(key: string, range: KeyRange): boolean {
  const aboveLower = range.lowerOpen ? key > range.lower : key >= range.lower;
  return aboveLower && (range.upper === undefined || key < range.upper);
}

/** Index of the first element of the sorted `values` that is >= `value` (> `value` when `open`). */
export function lowerBound<T extends string | number>(values: readonly T[], value: T, open = false): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const probe = values[mid] as T;
    if (probe < value || (open && probe === value)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Rejects a revision argument that is no revision at all: a caller's bug, not a storage condition. */
export function assertRevision(revision: number | undefined): void {
  if (revision !== undefined && (!Number.isSafeInteger(revision) || revision < 0)) {
    throw new RangeError(`invalid revision ${String(revision)}`);
  }
}

/** Throws unless `revision` can be read: history is kept from `compacted` up to `current`. */
export function checkReadable(revision: number, compacted: number, current: number): void {
  if (revision < compacted) {
    throw new StorageError(
      'Compacted',
      `revision ${revision} has been compacted (oldest readable: ${compacted})`,
    );
  }
  if (revision > current) {
    throw new StorageError('FutureRevision', `revision ${revision} is newer than the current ${current}`);
  }
}

/** The mod revision stamped into a stored object. */
export function revisionOf(object: KubeObject): number {
  return Number(object.metadata?.resourceVersion);
}

/** How a key that changed after a past revision looked then, and whether it exists now. */
export interface SnapshotEntry {
  /** The key's value at the read revision; undefined when it did not exist then. */
  then?: StoredObject;
  existsNow: boolean;
}

/**
 * The keys of `range` that changed after a past revision, from the change
 * records after it in revision order. A key's value then is the `previous` of
 * its earliest later change (none if that change created it); every key not
 * in the overlay still holds the value it had then.
 */
export function snapshotOverlay(
  changesAfter: Iterable<Pick<ChangeRecord, 'key' | 'type' | 'previous'>>,
  range: KeyRange,
): Map<string, SnapshotEntry> {
  const overlay = new Map<string, SnapshotEntry>();
  for (const change of changesAfter) {
    if (!inRange(change.key, range)) continue;
    const existsNow = change.type !== 'DELETED';
    const entry = overlay.get(change.key);
    if (entry) {
      entry.existsNow = existsNow;
    } else if (change.type === 'ADDED' || !change.previous) {
      overlay.set(change.key, { existsNow });
    } else {
      const previous = change.previous;
      overlay.set(change.key, {
        then: { key: change.key, revision: revisionOf(previous), object: previous },
        existsNow,
      });
    }
  }
  return overlay;
}

/**
 * Assembles one page of a list. The backend feeds the live rows of the range
 * in key order, in as many batches as it likes, and stops as soon as `feed`
 * returns false; keys of the snapshot overlay are merged in between, so that
 * the page shows the range as it was at the read revision. Only items the
 * predicate accepts count towards the limit and `remaining`.
 */
export class PageBuilder {
  private readonly items: StoredObject[] = [];
  private readonly limit: number;
  private readonly predicate: ((object: KubeObject) => boolean) | undefined;
  private readonly countRemaining: boolean;
  private overlay: Map<string, SnapshotEntry>;
  private overlayKeys: string[];
  private nextOverlay = 0;
  private more = false;
  private remaining = 0;

  constructor(
    options: Pick<ListOptions, 'limit' | 'predicate' | 'countRemaining'>,
    overlay?: Map<string, SnapshotEntry>,
  ) {
    // Like the real server, a limit of 0 (or below) means no limit.
    this.limit = options.limit !== undefined && options.limit > 0 ? options.limit : Infinity;
    this.predicate = options.predicate;
    this.countRemaining = options.countRemaining ?? false;
    this.overlay = overlay ?? new Map();
    this.overlayKeys = [...this.overlay.keys()].sort();
  }

  /** How many rows the backend should read first: a page and one more, to learn `more`. */
  get firstBatch(): number {
    return this.limit + 1;
  }

  /** Takes the next live rows in key order; false once no further rows are needed. */
  feed(rows: Iterable<StoredObject>): boolean {
    for (const row of rows) {
      if (!this.takeOverlayBefore(row.key)) return false;
      const entry = this.overlay.get(row.key);
      if (entry) {
        this.nextOverlay++;
        if (entry.then && !this.offer(entry.then)) return false;
      } else if (!this.offer(row)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Goes on in another read of the store at the same revision, after the
   * last row fed: `overlay` holds the keys after that row that changed since
   * the revision, as that read sees them. It replaces the overlay's rest: a
   * key's value at the revision is the same in both reads, and keys that
   * changed in between are only in the new one.
   */
  resumeWith(overlay: Map<string, SnapshotEntry>): void {
    this.overlay = overlay;
    this.overlayKeys = [...overlay.keys()].sort();
    this.nextOverlay = 0;
  }

  /**
   * Takes the overlay keys before `key`, which the read went past without feeding a row after them (a list by
   * name feeds only its matches): before it goes on in another read, whose overlay starts after `key`.
   * False once no further rows are needed.
   */
  passTo(key: string): boolean {
    return this.takeOverlayBefore(key);
  }

  /** Called after the last live row of the range: takes the overlay keys after it. */
  finish(): void {
    this.takeOverlayBefore(undefined);
  }

  /**
   * When `remaining` is wanted without a predicate, the page stops at the
   * first extra item and the rest is counted in bulk: this is the key after
   * which the backend counts the live keys of the range (else undefined).
   */
  get countAfter(): string | undefined {
    if (!this.more || !this.countRemaining || this.predicate) return undefined;
    return this.items.at(-1)?.key;
  }

  /** Sets `remaining` from the number of live keys after `countAfter`, corrected for the overlay. */
  setLiveCountAfter(liveCount: number): void {
    const after = this.countAfter;
    if (after === undefined) return;
    let remaining = liveCount;
    for (let i = lowerBound(this.overlayKeys, after, true); i < this.overlayKeys.length; i++) {
      const entry = this.overlay.get(this.overlayKeys[i] as string) as SnapshotEntry;
      remaining += (entry.then ? 1 : 0) - (entry.existsNow ? 1 : 0);
    }
    this.remaining = remaining;
  }

  result(revision: number): ListResult {
    const result: ListResult = { items: this.items, revision, more: this.more };
    if (this.countRemaining) result.remaining = this.remaining;
    return result;
  }

  private takeOverlayBefore(key: string | undefined): boolean {
    while (this.nextOverlay < this.overlayKeys.length) {
      const overlayKey = this.overlayKeys[this.nextOverlay] as string;
      if (key !== undefined && overlayKey >= key) break;
      this.nextOverlay++;
      const then = this.overlay.get(overlayKey)?.then;
      if (then && !this.offer(then)) return false;
    }
    return true;
  }

  private offer(item: StoredObject): boolean {
    if (this.predicate && !this.predicate(item.object)) return true;
    if (this.items.length < this.limit) {
      this.items.push(item);
      return true;
    }
    this.more = true;
    this.remaining++;
    // Counting the rest one by one is only needed when a predicate decides what counts.
    return this.countRemaining && this.predicate !== undefined;
  }
}
