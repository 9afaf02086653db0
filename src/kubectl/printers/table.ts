/**
 * The human-readable printer of `kubectl get` (cli-runtime's
 * HumanReadablePrinter): a server Table is decorated (a NAMESPACE column
 * first with `-A`, `-L` columns and LABELS last, `kind/` before names when
 * several kinds print) and printed with its priority-0 columns (all of them
 * with `-o wide`); an object that is not a Table — what a server that
 * cannot render Tables for the requested group returns — prints with the
 * default NAME/AGE handler, headers once per printer. Cells are joined by
 * tabs; the caller aligns them with the tab writer.
 */

import type { KubeObject } from '../../api/meta';
import type { Table, TableColumnDefinition } from '../../client';
import { ageSince } from './age';

export interface HumanOptions {
  noHeaders: boolean;
  wide: boolean;
  withNamespace: boolean;
  /** Prefix names with `kind/` (lowercase `kind.group`) when set. */
  kind?: string;
  showLabels: boolean;
  columnLabels: string[];
}

/** One printer per resource mapping, as kubectl makes one per mapping. */
export class HumanPrinter {
  private lastColumns: TableColumnDefinition[] | undefined;
  private printedHeaders = false;
  private printedDefault = false;

  constructor(
    private readonly options: HumanOptions,
    private readonly now: Date,
  ) {}

  /** Tab-separated lines for one Table or object. */
  print(obj: Table | KubeObject): string {
    if (isTableObject(obj)) return this.printTable(obj);
    return this.printDefault(obj);
  }

  private printTable(source: Table): string {
    const table: Table = { ...source, rows: source.rows.map((r) => ({ ...r, cells: [...r.cells] })) };
    const options = { ...this.options };
    if (
      this.printedHeaders &&
      (table.columnDefinitions.length === 0 || sameColumns(table.columnDefinitions, this.lastColumns))
    )
      options.noHeaders = true;
    if (table.columnDefinitions.length === 0) table.columnDefinitions = this.lastColumns ?? [];
    else if (!sameColumns(table.columnDefinitions, this.lastColumns)) {
      this.lastColumns = table.columnDefinitions;
      this.printedHeaders = false;
    }
    if (table.rows.length > 0) this.printedHeaders = true;
    decorate(table, options);
    let out = '';
    if (!options.noHeaders) {
      if (table.rows.length === 0) return '';
      out +=
        table.columnDefinitions
          .filter((c) => options.wide || (c.priority ?? 0) === 0)
          .map((c) => c.name.toUpperCase())
          .join('\t') + '\n';
    }
    for (const row of table.rows) {
      const cells: string[] = [];
      row.cells.forEach((cell, i) => {
        const column = table.columnDefinitions[i];
        if (column === undefined) return;
        if (!options.wide && (column.priority ?? 0) !== 0) return;
        cells.push(cellText(cell));
      });
      out += cells.join('\t') + '\n';
    }
    return out;
  }

  private printDefault(obj: KubeObject): string {
    const o = this.options;
    let out = '';
    if (!this.printedDefault && !o.noHeaders) {
      const headers = ['NAME', 'AGE', ...labelHeaders(o.columnLabels)];
      if (o.showLabels) headers.push('LABELS');
      if (o.withNamespace) headers.unshift('NAMESPACE');
      out += headers.join('\t') + '\n';
    }
    this.printedDefault = true;
    const cells: string[] = [];
    if (o.withNamespace) cells.push(obj.metadata?.namespace ?? '');
    const name = obj.metadata?.name ?? '';
    cells.push(o.kind !== undefined ? `${o.kind}/${name}` : name);
    cells.push(ageSince(obj.metadata?.creationTimestamp, this.now));
    const labels = (obj.metadata?.labels ?? {}) as Record<string, string>;
    for (const l of o.columnLabels) cells.push(labels[l] ?? '');
    if (o.showLabels) cells.push(formatLabels(labels));
    return out + cells.join('\t') + '\n';
  }
}

function isTableObject(obj: unknown): obj is Table {
  return (
    typeof obj === 'object' &&
    obj !== null &&
    (obj as { kind?: unknown }).kind === 'Table' &&
    Array.isArray((obj as { columnDefinitions?: unknown }).columnDefinitions)
  );
}

function sameColumns(a: TableColumnDefinition[], b: TableColumnDefinition[] | undefined): boolean {
  return b !== undefined && JSON.stringify(a) === JSON.stringify(b);
}

function decorate(table: Table, options: HumanOptions): void {
  const columns = table.columnDefinitions;
  let nameColumn = -1;
  if (options.kind !== undefined)
    nameColumn = columns.findIndex((c) => c.format === 'name' && c.type === 'string');
  const extra = options.columnLabels.length + (options.withNamespace ? 1 : 0) + (options.showLabels ? 1 : 0);
  if (extra > 0) {
    table.columnDefinitions = [
      ...(options.withNamespace ? [{ name: 'Namespace', type: 'string' }] : []),
      ...columns,
      ...labelHeaders(options.columnLabels).map((name) => ({ name, type: 'string' })),
      ...(options.showLabels ? [{ name: 'Labels', type: 'string' }] : []),
    ];
  }
  const includeLabels = options.columnLabels.length > 0 || options.showLabels;
  if (!includeLabels && !options.withNamespace && nameColumn === -1) return;
  for (const row of table.rows) {
    if (nameColumn !== -1) row.cells[nameColumn] = `${options.kind}/${cellText(row.cells[nameColumn])}`;
    const meta = row.object?.metadata;
    if (meta === undefined) {
      if (options.withNamespace) row.cells.unshift(null);
      while (row.cells.length < table.columnDefinitions.length) row.cells.push(null);
      continue;
    }
    if (options.withNamespace) row.cells.unshift(meta.namespace ?? '');
    if (includeLabels) {
      const labels = (meta.labels ?? {}) as Record<string, string>;
      for (const l of options.columnLabels) row.cells.push(labels[l] ?? '');
      if (options.showLabels) row.cells.push(formatLabels(labels));
    }
  }
}

/** `-L app.kubernetes.io/name` heads its column NAME: the last path segment, upper-cased. */
function labelHeaders(labels: string[]): string[] {
  return labels.map((l) => (l.split('/').pop() as string).toUpperCase());
}

/** labels.FormatLabels: sorted `k=v` pairs joined by commas, `<none>` for none. */
export function formatLabels(labels: Record<string, string>): string {
  const keys = Object.keys(labels).sort();
  if (keys.length === 0) return '<none>';
  return keys.map((k) => `${k}=${labels[k]}`).join(',');
}

/** A cell as fmt.Sprint prints it, cut at the first line break (with `...`), tabs and breaks escaped. */
function cellText(cell: unknown): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'string') {
    const cut = cell.search(/[\f\n\r]/);
    const text = cut >= 0 ? cell.slice(0, cut) : cell;
    return escapeTerminal(text) + (cut >= 0 ? '...' : '');
  }
  if (typeof cell === 'object') return goSprint(cell);
  return String(cell);
}

function escapeTerminal(text: string): string {
  // printers.WriteEscaped: control characters other than tab and newline are quoted.
  let out = '';
  for (const c of text) {
    const code = c.charCodeAt(0);
    out += (code < 0x20 && c !== '\t' && c !== '\n') || code === 0x7f ? JSON.stringify(c).slice(1, -1) : c;
  }
  return out;
}

/** fmt.Sprint of a JSON value: maps as map[k:v], lists as [a b]. */
function goSprint(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(goSprint).join(' ')}]`;
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    return `map[${Object.keys(record)
      .sort()
      .map((k) => `${k}:${goSprint(record[k])}`)
      .join(' ')}]`;
  }
  return value === null || value === undefined ? '<nil>' : String(value);
}
