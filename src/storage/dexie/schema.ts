/**
 * The IndexedDB schema of the Dexie backend. `objects` holds the current
 * objects by key, so that a collection is a key range; `changes` holds the
 * history by revision, with a `[key+revision]` index to find a key's first
 * change after a past revision (a change row leaves out the object it wrote
 * where the object can be found again: history-rows.ts); `meta` holds the revision counter and the
 * compacted revision; `settings` is the server's small key/value table,
 * outside the revision sequence.
 */

import { Dexie, type DexieOptions, type Table } from 'dexie';
import type { ChangeRecord, StoredObject } from '../types';

export type ObjectRow = StoredObject;
/** A change as stored: `object` only in rows of schema version 1, imported rows, and a DELETED row without `previous`. */
export type ChangeRow = Omit<ChangeRecord, 'object'> & { object?: ChangeRecord['object'] };

export type MetaName = 'revision' | 'compacted';

export interface MetaRow {
  name: MetaName;
  value: number;
}

export interface SettingRow {
  name: string;
  value: unknown;
}

export type StorageDatabase = Dexie & {
  objects: Table<ObjectRow, string>;
  changes: Table<ChangeRow, number>;
  meta: Table<MetaRow, MetaName>;
  settings: Table<SettingRow, string>;
};

export function openDatabase(name: string, options: DexieOptions): StorageDatabase {
  const db = new Dexie(name, options) as StorageDatabase;
  // Change rows without their object (decision 0079) need no new version: the tables and indexes are the same,
  // and rows holding their object (written before, or imported) read as they are.
  db.version(1).stores({
    objects: 'key',
    changes: 'revision, [key+revision]',
    meta: 'name',
    settings: 'name',
  });
  return db;
}
