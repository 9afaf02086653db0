/**
 * The history as the Dexie backend stores it: a change row keeps what only it
 * knows (type, key, revision and the object before the change) and not the
 * object the change wrote, which IndexedDB already holds elsewhere: in
 * `objects` while the change is the key's latest, and as `previous` of the
 * key's next change after that (every change after an ADDED or MODIFIED one of
 * the same key is a MODIFIED or DELETED one, and both keep `previous`). A
 * DELETED change's object is its `previous` stamped with the deletion's
 * revision. A write thus serialises each object once instead of twice
 * (decision 0079). Rows written by earlier builds and rows an import brings
 * in keep their `object`, which is then read as it is.
 *
 * Compaction drops changes below a revision, never after one, so what a
 * change's object is resolved from (its key's later change, or the current
 * row) is still there whenever the change itself is readable.
 */

import type { KubeObject } from '../../api/meta';
import type { ChangeRecord } from '../types';
import { cloneValue } from '../memory/clone';
import type { ChangeRow, MetaRow, ObjectRow } from './schema';

/** The row stored for `change`: without the object wherever it can be found again. */
export function historyRow(change: ChangeRecord): ChangeRow {
  if (change.type === 'DELETED') {
    if (change.previous === undefined) return change;
    return { revision: change.revision, type: change.type, key: change.key, previous: change.previous };
  }
  const row: ChangeRow = { revision: change.revision, type: change.type, key: change.key };
  if (change.previous !== undefined) row.previous = change.previous;
  return row;
}

/** Where a change's object is found when neither its row nor a later row read with it has it. */
export interface HistoryLookups {
  /** The current row of `key`. */
  current(key: string): Promise<ObjectRow | undefined>;
  /** The first change of `key` after `revision`. */
  nextChange(key: string, revision: number): Promise<ChangeRow | undefined>;
}

/**
 * Change records of `rows` (consecutive in revision order, as read), each with its object: from the row itself,
 * from a later row of the same key among `rows`, or through `lookups`. Every record gets objects of its own.
 */
export async function withObjects(
  rows: readonly ChangeRow[],
  lookups: HistoryLookups,
): Promise<ChangeRecord[]> {
  const out = new Array<ChangeRecord>(rows.length);
  const missing: number[] = [];
  resolveBackwards(rows, (i, row, object, later) => {
    // A later row's `previous` is that row's own: the record gets a copy.
    const own = object !== undefined && later ? cloneValue(object) : object;
    if (own === undefined) missing.push(i);
    else out[i] = record(row, own);
  });
  await Promise.all(
    missing.map(async (i) => {
      const row = rows[i] as ChangeRow;
      const current = await lookups.current(row.key);
      const object =
        current?.revision === row.revision
          ? current.object
          : (await lookups.nextChange(row.key, row.revision))?.previous;
      if (object === undefined)
        throw new Error(`the history lost the object of revision ${row.revision} (${row.key})`);
      out[i] = record(row, object);
    }),
  );
  return out;
}

/**
 * The export document (the Dexie export addon's JSON) with every change row's object filled in from the same
 * document, as the rows were before this format: exports read the same from every backend and every build. The
 * addon exports in one read transaction, so the document holds everything a row's object is resolved from.
 */
export function completeExportedHistory(text: string): string {
  const document = JSON.parse(text) as {
    data?: {
      tables?: { name?: string; rowCount?: number }[];
      data?: { tableName?: string; rows?: unknown[] }[];
    };
  };
  const tables = document.data?.data ?? [];
  const rowsOf = (name: string) => tables.find((t) => t.tableName === name)?.rows ?? [];
  const changes = rowsOf('changes') as ChangeRow[];
  exportRevision(document.data ?? {}, changes);
  const current = new Map((rowsOf('objects') as ObjectRow[]).map((row) => [row.key, row]));
  resolveBackwards(changes, (i, row, object) => {
    if (row.object !== undefined) return;
    const own = current.get(row.key);
    const found = object ?? (own?.revision === row.revision ? own.object : undefined);
    // The addon's rows keep their key order; `object` goes where the older format had it (after `key`).
    if (found !== undefined) changes[i] = withObjectAfterKey(row, found);
  });
  return JSON.stringify(document);
}

/**
 * Sets the export's `meta` revision row to the store's revision: no batch writes that row any more (decision
 * 0086), the history's last key is the revision (write-batch.ts, `storeRevision`), and the export format states
 * it in `meta`, as every earlier export did and as every backend's import checks the rows against.
 */
function exportRevision(
  data: {
    tables?: { name?: string; rowCount?: number }[];
    data?: { tableName?: string; rows?: unknown[] }[];
  },
  changes: readonly ChangeRow[],
): void {
  const table = data.data?.find((t) => t.tableName === 'meta');
  if (table === undefined) return;
  const rows = (table.rows ??= []) as MetaRow[];
  let revision = 0;
  for (const change of changes) revision = Math.max(revision, change.revision);
  for (const row of rows)
    if (row.name === 'revision' || row.name === 'compacted') revision = Math.max(revision, row.value);
  const saved = rows.find((row) => row.name === 'revision');
  if (saved !== undefined) saved.value = revision;
  else if (revision > 0) rows.push({ name: 'revision', value: revision });
  const counted = data.tables?.find((t) => t.name === 'meta');
  if (counted !== undefined) counted.rowCount = rows.length;
}

/**
 * Walks `rows` (consecutive in revision order) from the newest back, handing each its object as the rows alone
 * determine it: the row's own, a deletion's `previous` stamped with its revision, else the `previous` of the
 * same key's next change among `rows` (`later` true; that object is the later row's). Undefined when none has
 * it: the key's current row or a change beyond `rows` holds it. Reads and exports resolve by this one rule.
 */
function resolveBackwards(
  rows: readonly ChangeRow[],
  visit: (index: number, row: ChangeRow, object: KubeObject | undefined, later: boolean) => void,
): void {
  const later = new Map<string, KubeObject>();
  for (let i = rows.length - 1; i >= 0; i--) {
    const row = rows[i] as ChangeRow;
    const own = row.object ?? objectOf(row);
    const next = own === undefined ? later.get(row.key) : undefined;
    visit(i, row, own ?? next, next !== undefined);
    if (row.previous !== undefined) later.set(row.key, row.previous);
    else later.delete(row.key);
  }
}

/** The object a row determines by itself: a deletion's is its `previous` stamped with its revision. */
function objectOf(row: ChangeRow): KubeObject | undefined {
  if (row.type !== 'DELETED' || row.previous === undefined) return undefined;
  const object = cloneValue(row.previous);
  object.metadata = { ...object.metadata, resourceVersion: String(row.revision) };
  return object;
}

function record(row: ChangeRow, object: KubeObject): ChangeRecord {
  const change: ChangeRecord = { revision: row.revision, type: row.type, key: row.key, object };
  if (row.previous !== undefined) change.previous = row.previous;
  return change;
}

function withObjectAfterKey(row: ChangeRow, object: KubeObject): ChangeRow {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(row)) {
    out[name] = value;
    if (name === 'key') out['object'] = object;
  }
  if (!('object' in out)) out['object'] = object;
  return out as unknown as ChangeRow;
}
