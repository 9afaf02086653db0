/**
 * The rows of a live table, kept for a watch that may deliver thousands of
 * events: a map by key (namespace/name) for lookups, and the keys in the
 * server's list order (namespace, then name) kept sorted by binary
 * insertion, so an event costs a search and at most one array splice —
 * never a copy or a re-sort of the whole list. The store is mutable; it
 * counts its changes in `version`, which the view renders from.
 */

import type { KubeObject } from '../../api/meta';
import type { TableRow } from '../../client/index';
import { rowKey, type LiveRow } from './live-rows';

export class RowStore {
  private readonly byKey = new Map<string, LiveRow>();
  private order: string[] = [];
  /** Bumped by every change, so a render can tell the store moved on. */
  version = 0;

  get size(): number {
    return this.order.length;
  }

  get(key: string): LiveRow | undefined {
    return this.byKey.get(key);
  }

  has(key: string): boolean {
    return this.byKey.has(key);
  }

  /** The row at a position in list order. */
  at(index: number): LiveRow | undefined {
    const key = this.order[index];
    return key === undefined ? undefined : this.byKey.get(key);
  }

  /** The rows from `start` up to (not including) `end`, in list order. */
  slice(start: number, end: number): LiveRow[] {
    const out: LiveRow[] = [];
    for (const key of this.order.slice(start, end)) {
      const row = this.byKey.get(key);
      if (row !== undefined) out.push(row);
    }
    return out;
  }

  /** Every key in list order (for select-all; a copy the caller may keep). */
  keys(): string[] {
    return [...this.order];
  }

  /** Replaces everything with a listed Table's rows (sorted once). */
  reset(rows: readonly TableRow[]): void {
    this.byKey.clear();
    for (const row of rows) {
      const object = row.object ?? {};
      const key = rowKey(object);
      this.byKey.set(key, { key, object, cells: row.cells });
    }
    this.order = [...this.byKey.keys()].sort(compareKeys);
    this.version++;
  }

  /** Adds or replaces an object's row; without cells, an existing row keeps its last rendered ones. */
  upsert(object: KubeObject, cells: unknown[] | undefined): void {
    const key = rowKey(object);
    const existing = this.byKey.get(key);
    this.byKey.set(key, { key, object, cells: cells ?? existing?.cells });
    if (existing === undefined) this.order.splice(this.insertionPoint(key), 0, key);
    this.version++;
  }

  /** Replaces a row only if it is still there (a late answer for a deleted object is dropped). */
  refresh(object: KubeObject, cells: unknown[] | undefined): boolean {
    if (!this.byKey.has(rowKey(object))) return false;
    this.upsert(object, cells);
    return true;
  }

  remove(object: KubeObject): void {
    const key = rowKey(object);
    if (!this.byKey.delete(key)) return;
    const index = this.insertionPoint(key);
    if (this.order[index] === key) this.order.splice(index, 1);
    this.version++;
  }

  clear(): void {
    this.byKey.clear();
    this.order = [];
    this.version++;
  }

  /** The first position whose key is not below `key`. */
  private insertionPoint(key: string): number {
    let low = 0;
    let high = this.order.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.order[middle] ?? '') < key) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
