/**
 * The objects of the chosen kind as the server's Table (its per-kind
 * columns, or Name and Created At), plus the resourceVersion of each row,
 * which makes the store's one revision sequence visible. Rows can be
 * selected for a bulk delete, opened, or deleted one by one. Row heights are
 * fixed so that rows changing under a live watch never shift the layout,
 * and so that only the rows in view (plus overscan) are rendered: a kind
 * with thousands of objects costs the DOM and each render a few dozen rows.
 * Spacer rows stand for the others; aria-rowcount and aria-rowindex tell
 * assistive technology where the rendered rows sit in the whole list.
 */

import { useMemo, useRef } from 'react';
import type { TableColumnDefinition } from '../../client/index';
import { Breakable } from '../common/Breakable';
import { useRowWindow } from '../hooks/useRowWindow';
import { EmptyGuide } from './EmptyGuide';
import type { LiveRow } from './live-rows';
import { ObjectRow, type RowActions } from './ObjectRow';
import type { RowStore } from './row-store';
import './object-table.css';

const windowing = {
  estimate: 34,
  overscan: 12,
  initial: 40,
  rowSelector: 'tr[aria-rowindex]',
};

interface Props {
  kindLabel: string;
  columns: TableColumnDefinition[];
  rows: RowStore;
  /** The rows' version this render shows (the store itself is mutated in place). */
  version: number;
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
  const count = rows.size;
  const { listRef, start, end, rowHeight } = useRowWindow(count, windowing);
  const others = useMemo(() => {
    const nameIndex = Math.max(
      0,
      columns.findIndex((c) => c.name === 'Name'),
    );
    return columns.map((column, index) => ({ column, index })).filter(({ index }) => index !== nameIndex);
  }, [columns]);
  // Stable callbacks that call the latest props, so memoised rows are not re-rendered for new closures.
  const latest = useRef(props);
  latest.current = props;
  const actions = useMemo<RowActions>(
    () => ({
      onToggle: (key) => latest.current.onToggle(key),
      onOpen: (row) => latest.current.onOpen(row),
      onDelete: (row) => latest.current.onDelete(row),
    }),
    [],
  );
  if (count === 0) return <EmptyGuide kindLabel={kindLabel} />;
  let selectedPresent = 0;
  for (const key of selected) if (rows.has(key)) selectedPresent++;
  const allSelected = selectedPresent === count;
  const columnCount = 4 + (showNamespace ? 1 : 0) + others.length;
  const spacer = (rowsHidden: number) =>
    rowsHidden === 0 ? null : (
      <tr aria-hidden="true" className="row-spacer" style={{ height: rowsHidden * rowHeight }}>
        <td colSpan={columnCount} />
      </tr>
    );
  return (
    <table className="objects" aria-rowcount={count + 1}>
      <caption className="visually-hidden">{kindLabel}</caption>
      <thead>
        <tr aria-rowindex={1}>
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
      <tbody ref={listRef}>
        {spacer(start)}
        {rows.slice(start, end).map((row, offset) => (
          <ObjectRow
            key={row.key}
            row={row}
            rowIndex={start + offset + 2}
            columns={columns}
            others={others}
            showNamespace={showNamespace}
            selected={selected.has(row.key)}
            open={row.key === openKey}
            busy={busyKeys.has(row.key)}
            now={now}
            actions={actions}
          />
        ))}
        {spacer(count - end)}
      </tbody>
    </table>
  );
}
