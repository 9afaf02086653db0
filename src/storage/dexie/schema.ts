/**
 * The IndexedDB schema of the Dexie backend. `objects` holds the current
 * objects by key, so that a collection is a key range; `changes` holds the
 * history by revision, with a `[key+revision]` index to find a key's first
 * change after a past revision; `meta` holds the revision counter and the
 * compacted revision; `settings` is the server's small key/value table,
 * outside the revision sequence.
 */

import { Dexie, type DexieOptions, type Table } from 'dexie';
import type { ChangeRecord, StoredObject } from '../types';

export type ObjectRow = StoredObject;
export type ChangeRow = ChangeRecord;

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
  db.version(1).stores({
    objects: 'key',
    changes: 'revision, [key+revision]',
    meta: 'name',
    settings: 'name',
  });
  return db;
}
