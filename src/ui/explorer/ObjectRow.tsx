/**
 * One row of the object table, memoised: under a stream of watch events
 * the table re-renders a few times a second, and a row whose object,
 * selection, busy state and clock are unchanged is skipped, so a render
 * costs the rows that changed rather than every row in the window.
 * Callbacks must therefore be stable (the table passes ref-backed ones).
 */

import { memo } from 'react';
import type { TableColumnDefinition } from '../../client/index';
import { formatAge } from '../lib/age';
import { localCells, type LiveRow } from './live-rows';

export interface RowActions {
  onToggle: (key: string) => void;
  onOpen: (row: LiveRow) => void;
  onDelete: (row: LiveRow) => void;
}

interface Props {
  row: LiveRow;
  /** 1-based position in the whole table, header row included (aria-rowindex). */
  rowIndex: number;
  columns: TableColumnDefinition[];
  /** The columns after Name, with their index in the server's cells. */
  others: readonly { column: TableColumnDefinition; index: number }[];
  showNamespace: boolean;
  selected: boolean;
  open: boolean;
  busy: boolean;
  now: number;
  actions: RowActions;
}

export const ObjectRow = memo(function ObjectRow(props: Props) {
  const { row, rowIndex, columns, others, showNamespace, selected, open, busy, now, actions } = props;
  const name = row.object.metadata?.name ?? '';
  const cells = row.cells ?? localCells(columns, row.object);
  const terminating = row.object.metadata?.deletionTimestamp != null;
  return (
    <tr aria-rowindex={rowIndex} aria-selected={open ? true : undefined}>
      <td className="select-cell">
        <input
          type="checkbox"
          aria-label={`Select ${name}`}
          checked={selected}
          onChange={() => actions.onToggle(row.key)}
        />
      </td>
      <th scope="row">
        <button type="button" className="link-button" onClick={() => actions.onOpen(row)}>
          {name}
        </button>
      </th>
      {showNamespace ? <td>{row.object.metadata?.namespace}</td> : null}
      {others.map(({ column, index }) => {
        const text = formatCell(column, cells[index], row, now);
        return (
          <td
            key={column.name}
            className={column.type === 'integer' || column.type === 'number' ? 'numeric' : undefined}
            // Cells are capped in width so every column fits; the full value stays one hover away.
            title={text.length > 16 ? text : undefined}
          >
            {text}
          </td>
        );
      })}
      <td className="numeric">{row.object.metadata?.resourceVersion ?? ''}</td>
      <td className="actions-cell">
        <button
          type="button"
          className="danger"
          aria-label={`Delete ${name}`}
          disabled={busy || terminating}
          onClick={() => actions.onDelete(row)}
        >
          {terminating ? 'Terminating' : 'Delete'}
        </button>
      </td>
    </tr>
  );
});

function formatCell(column: TableColumnDefinition, value: unknown, row: LiveRow, now: number): string {
  // The server renders Age once; recomputing it keeps the column current between renderings.
  if (column.name === 'Age') return formatAge(row.object.metadata?.creationTimestamp, now);
  if (value === undefined || value === null) return '';
  if (column.type === 'date' && typeof value === 'string' && value !== '') {
    const time = Date.parse(value);
    return Number.isNaN(time) ? value : new Date(time).toLocaleString();
  }
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
