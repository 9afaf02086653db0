/**
 * The rows a live object table holds, keyed by namespace and name: each
 * with the object's metadata (from the list or the latest watch event) and
 * the cells the server rendered for it. Pure functions over an immutable
 * map, so React sees every change as a new value.
 */

import type { KubeObject } from '../../api/meta';
import type { TableColumnDefinition, TableRow } from '../../client/index';

export interface LiveRow {
  key: string;
  object: KubeObject;
  /** Server-rendered cells; undefined until the server rendered this version. */
  cells: unknown[] | undefined;
}

export type LiveRows = ReadonlyMap<string, LiveRow>;

export function rowKey(object: KubeObject | undefined): string {
  return `${object?.metadata?.namespace ?? ''}/${object?.metadata?.name ?? ''}`;
}

export function rowsFromTable(rows: TableRow[]): Map<string, LiveRow> {
  const out = new Map<string, LiveRow>();
  for (const row of rows) {
    const object = row.object ?? {};
    const key = rowKey(object);
    out.set(key, { key, object, cells: row.cells });
  }
  return out;
}

export function upsertRow(
  rows: LiveRows,
  object: KubeObject,
  cells: unknown[] | undefined,
): Map<string, LiveRow> {
  const next = new Map(rows);
  const key = rowKey(object);
  next.set(key, { key, object, cells: cells ?? next.get(key)?.cells });
  return next;
}

export function removeRow(rows: LiveRows, object: KubeObject): Map<string, LiveRow> {
  const next = new Map(rows);
  next.delete(rowKey(object));
  return next;
}

/** Rows in the server's list order: by namespace, then name. */
export function sortedRows(rows: LiveRows): LiveRow[] {
  return [...rows.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** Cells for an object when the server has not rendered them (default Table columns, or a fresh event). */
export function localCells(columns: TableColumnDefinition[], object: KubeObject): unknown[] {
  return columns.map((column) => {
    if (column.name === 'Name') return object.metadata?.name ?? '';
    if (column.name === 'Created At') return object.metadata?.creationTimestamp ?? '';
    if (column.name === 'Namespace') return object.metadata?.namespace ?? '';
    return undefined;
  });
}
