/**
 * The objects of the chosen kind as the server's Table (its per-kind
 * columns, or Name and Created At), plus the resourceVersion of each row,
 * which makes the store's one revision sequence visible. Rows can be
 * selected for a bulk delete, opened, or deleted one by one. Row heights are
 * fixed so that rows changing under a live watch never shift the layout.
 */

import type { TableColumnDefinition } from '../../client/index';
import { Breakable } from '../common/Breakable';
import { formatAge } from '../lib/age';
import { EmptyGuide } from './EmptyGuide';
import { localCells, type LiveRow } from './live-rows';

interface Props {
  kindLabel: string;
  columns: TableColumnDefinition[];
  rows: LiveRow[];
  showNamespace: boolean;
  selected: ReadonlySet<string>;
  openKey: string | undefined;
  busyKeys: ReadonlySet<string>;
  now: number;
  onToggle: (key: string) => void;
  onToggleAll: (select: boolean) => void;
  onOpen: (row: LiveRow) => void;
  onDelete: (row: LiveRow) => void;
}

export function ObjectTable(props: Props) {
  const { kindLabel, columns, rows, showNamespace, selected, openKey, busyKeys, now } = props;
  if (rows.length === 0) return <EmptyGuide kindLabel={kindLabel} />;
  const nameIndex = Math.max(
    0,
    columns.findIndex((c) => c.name === 'Name'),
  );
  const others = columns
    .map((column, index) => ({ column, index }))
    .filter(({ index }) => index !== nameIndex);
  const allSelected = rows.every((row) => selected.has(row.key));
  return (
    <table className="objects">
      <caption className="visually-hidden">{kindLabel}</caption>
      <thead>
        <tr>
          <th scope="col" className="select-cell">
            <input
              type="checkbox"
              aria-label={`Select all ${kindLabel}`}
              checked={allSelected}
              onChange={() => props.onToggleAll(!allSelected)}
            />
          </th>
          <th scope="col">Name</th>
          {showNamespace ? <th scope="col">Namespace</th> : null}
          {others.map(({ column }) => (
            <th scope="col" key={column.name} title={column.description}>
              <Breakable text={column.name} />
            </th>
          ))}
          <th scope="col" title="metadata.resourceVersion">
            <Breakable text="resourceVersion" />
          </th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => {
          const name = row.object.metadata?.name ?? '';
          const cells = row.cells ?? localCells(columns, row.object);
          const terminating = row.object.metadata?.deletionTimestamp != null;
          return (
            <tr key={row.key} aria-selected={row.key === openKey ? true : undefined}>
              <td className="select-cell">
                <input
                  type="checkbox"
                  aria-label={`Select ${name}`}
                  checked={selected.has(row.key)}
                  onChange={() => props.onToggle(row.key)}
                />
              </td>
              <th scope="row">
                <button type="button" className="link-button" onClick={() => props.onOpen(row)}>
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
                  disabled={busyKeys.has(row.key) || terminating}
                  onClick={() => props.onDelete(row)}
                >
                  {terminating ? 'Terminating' : 'Delete'}
                </button>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

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
