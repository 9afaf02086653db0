/**
 * One row of a live object table, keyed by namespace and name: the
 * object's metadata (from the list or the latest watch event) and the cells
 * the server rendered for it, plus the cells shown when the server has not
 * rendered them. The rows themselves live in a RowStore.
 */

import type { KubeObject } from '../../api/meta';
import type { TableColumnDefinition } from '../../client/index';

export interface LiveRow {
  key: string;
  object: KubeObject;
  /** Server-rendered cells; undefined until the server rendered this version. */
  cells: unknown[] | undefined;
}

export function rowKey(object: KubeObject | undefined): string {
  return `${object?.metadata?.namespace ?? ''}/${object?.metadata?.name ?? ''}`;
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
