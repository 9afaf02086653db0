/**
 * The state export format every backend writes and reads: the JSON document
 * of Dexie's export addon (`dexie-export-import`, format version 1), with
 * the four tables of the Dexie backend (`changes`, `meta`, `objects`,
 * `settings`). The Dexie backend produces it with the addon itself; the
 * memory backend builds and parses it here, so a state exported in the
 * browser imports into the Node host and back. Parsing validates the whole
 * document before anything is replaced, and revives the few typeson types
 * (`$types`) the addon writes for values JSON cannot hold.
 */

import type { KubeObject } from '../api/meta';
import { StorageError, type ChangeRecord, type ChangeType, type StoredObject } from './types';

/** Table names and Dexie schema strings, in the addon's (alphabetical) export order. */
export const exportTables = [
  { name: 'changes', schema: 'revision,[key+revision]' },
  { name: 'meta', schema: 'name' },
  { name: 'objects', schema: 'key' },
  { name: 'settings', schema: 'name' },
] as const;

export const exportDatabaseVersion = 1;

/** The state held in an export, as plain values. */
export interface ExportedState {
  databaseName: string;
  objects: StoredObject[];
  changes: ChangeRecord[];
  revision: number;
  compacted: number;
  settings: Map<string, unknown>;
}

/** Builds the export document of `state` (what `exportDB` writes for the Dexie backend). */
export function buildExport(state: ExportedState): string {
  const rows: Record<(typeof exportTables)[number]['name'], unknown[]> = {
    changes: state.changes,
    meta: [
      { name: 'compacted', value: state.compacted },
      { name: 'revision', value: state.revision },
    ].filter((row) => row.value !== 0),
    objects: state.objects,
    settings: [...state.settings].map(([name, value]) => ({ name, value })),
  };
  return JSON.stringify({
    formatName: 'dexie',
    formatVersion: 1,
    data: {
      databaseName: state.databaseName,
      databaseVersion: exportDatabaseVersion,
      tables: exportTables.map((t) => ({ name: t.name, schema: t.schema, rowCount: rows[t.name].length })),
      data: exportTables.map((t) => ({ tableName: t.name, inbound: true, rows: rows[t.name] })),
    },
  });
}

/** Parses and validates an export document; throws `StorageError('InvalidImport')` naming what is wrong. */
export function parseExport(text: string): ExportedState {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw invalid(`not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (!isRecord(document) || document['formatName'] !== 'dexie')
    throw invalid('not a Dexie export (formatName is not "dexie")');
  if (document['formatVersion'] !== 1)
    throw invalid(`unsupported formatVersion ${String(document['formatVersion'])}`);
  const data = document['data'];
  if (!isRecord(data) || !Array.isArray(data['data']) || !Array.isArray(data['tables']))
    throw invalid('data.tables and data.data are missing');
  if (data['databaseVersion'] !== exportDatabaseVersion)
    throw invalid(`database version ${String(data['databaseVersion'])} (expected ${exportDatabaseVersion})`);
  const tables = new Map<string, unknown[]>();
  for (const table of data['data']) {
    if (!isRecord(table) || typeof table['tableName'] !== 'string' || !Array.isArray(table['rows']))
      throw invalid('a table without tableName or rows');
    if (table['inbound'] !== true) throw invalid(`table ${table['tableName']} is not inbound`);
    tables.set(table['tableName'], table['rows'].map(revive));
  }
  for (const name of tables.keys()) {
    if (!exportTables.some((t) => t.name === name)) throw invalid(`unknown table ${name}`);
  }

  const meta = new Map<string, number>();
  for (const row of tables.get('meta') ?? []) {
    if (!isRecord(row) || typeof row['name'] !== 'string' || !isRevision(row['value']))
      throw invalid('a meta row is not {name, value}');
    meta.set(row['name'], row['value']);
  }
  const revision = meta.get('revision') ?? 0;
  const compacted = meta.get('compacted') ?? 0;

  const keys = new Set<string>();
  const objects = (tables.get('objects') ?? []).map((row): StoredObject => {
    if (
      !isRecord(row) ||
      typeof row['key'] !== 'string' ||
      !isRevision(row['revision']) ||
      !isRecord(row['object'])
    )
      throw invalid('an objects row is not {key, revision, object}');
    if (keys.has(row['key'])) throw invalid(`object ${row['key']} appears twice`);
    keys.add(row['key']);
    if (row['revision'] > revision)
      throw invalid(`object ${row['key']} is newer than the revision ${revision}`);
    return { key: row['key'], revision: row['revision'], object: row['object'] as KubeObject };
  });
  const changes = (tables.get('changes') ?? []).map((row): ChangeRecord => {
    if (
      !isRecord(row) ||
      !isRevision(row['revision']) ||
      typeof row['key'] !== 'string' ||
      !isChangeType(row['type']) ||
      !isRecord(row['object'])
    )
      throw invalid('a changes row is not {revision, type, key, object}');
    const change: ChangeRecord = {
      revision: row['revision'],
      type: row['type'],
      key: row['key'],
      object: row['object'] as KubeObject,
    };
    if (isRecord(row['previous'])) change.previous = row['previous'] as KubeObject;
    return change;
  });
  changes.sort((a, b) => a.revision - b.revision);
  // Every write appends one change, and compaction drops only the ones before the compacted revision.
  const first = Math.max(compacted, 1);
  changes.forEach((change, i) => {
    if (change.revision !== first + i)
      throw invalid(
        `the history should run from revision ${first} to ${revision} without gaps (found ${change.revision})`,
      );
  });
  if (revision > 0 && changes.at(-1)?.revision !== revision)
    throw invalid(`the history should end at the revision ${revision}`);
  const settings = new Map<string, unknown>();
  for (const row of tables.get('settings') ?? []) {
    if (!isRecord(row) || typeof row['name'] !== 'string')
      throw invalid('a settings row is not {name, value}');
    settings.set(row['name'], row['value']);
  }
  return {
    databaseName: typeof data['databaseName'] === 'string' ? data['databaseName'] : '',
    objects,
    changes,
    revision,
    compacted,
    settings,
  };
}

/** Number of rows of an export document (for progress); 0 when it cannot tell. */
export function exportRowCount(state: ExportedState): number {
  return state.objects.length + state.changes.length + state.settings.size + 2;
}

function invalid(why: string): StorageError {
  return new StorageError('InvalidImport', `not a state export: ${why}`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isRevision(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function isChangeType(value: unknown): value is ChangeType {
  return value === 'ADDED' || value === 'MODIFIED' || value === 'DELETED';
}

/**
 * Undoes the addon's typeson encoding for the types a stored JSON-like value
 * can produce: `undef` (an own property holding undefined), NaN and the
 * infinities, dates, and `arrayNonindexKeys` (which it writes for arrays).
 * Key paths are dot-separated with `~1` for a dot and `~0` for a tilde.
 */
function revive(row: unknown): unknown {
  if (!isRecord(row) || !('$types' in row)) return row;
  const types = row['$types'];
  if (types === true) return row['$'];
  if (!isRecord(types)) throw invalid('a row has malformed $types');
  const { $types: _types, ...value } = row;
  const paths = Object.keys(types).sort((a, b) => b.split('.').length - a.split('.').length);
  for (const path of paths) {
    const type = types[path];
    const segments = path === '' ? [] : path.split('.').map((s) => s.replace(/~1/g, '.').replace(/~0/g, '~'));
    const last = segments.pop();
    let parent: unknown = value;
    for (const segment of segments)
      parent =
        isRecord(parent) || Array.isArray(parent) ? (parent as Record<string, unknown>)[segment] : undefined;
    if (last === undefined || (!isRecord(parent) && !Array.isArray(parent)))
      throw invalid(`$types path ${path} not found`);
    const holder = parent as Record<string, unknown>;
    holder[last] = reviveValue(type, holder[last], path);
  }
  return value;
}

function reviveValue(type: unknown, encoded: unknown, path: string): unknown {
  switch (type) {
    case 'undef':
      return undefined;
    case 'nan':
      return Number.NaN;
    case 'infinity':
      return Number.POSITIVE_INFINITY;
    case 'negativeInfinity':
      return Number.NEGATIVE_INFINITY;
    case 'date':
      return new Date(encoded === 'NaN' ? Number.NaN : Number(encoded));
    case 'arrayNonindexKeys':
      return Array.isArray(encoded) ? encoded : Object.values(encoded as Record<string, unknown>);
    default:
      throw invalid(`value type ${String(type)} at ${path} is not supported`);
  }
}
