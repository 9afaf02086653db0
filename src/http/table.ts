/**
 * Server-side Table rendering (`Accept: application/json;as=Table;...`).
 * Kinds with a printer (`table-columns/`, loaded by the pipeline when a
 * request asks for a Table) get their own columns, as the real server
 * prints them; every other resource the default columns Name and Created At. Each row carries the object's metadata
 * (includeObject=Metadata, the default), or the whole object or nothing as
 * `includeObject` asks.
 */

import type { KubeObject, ListMeta } from '../api/meta';
import type { ResourceType } from '../registry/resource-type';
import type { RequestContext } from './context';
import type { ServerContext } from './server-context';
import type { RowCondition } from './table-columns';
import { tablePrinters } from './table-columns/library';
import { customPrinter } from './table-columns/custom';
import { partialObjectMetadata } from './partial-metadata';

export interface TableColumn {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

export interface TableRow {
  cells: unknown[];
  conditions?: RowCondition[];
  object?: KubeObject;
}

const defaultColumns: TableColumn[] = [
  {
    name: 'Name',
    type: 'string',
    format: 'name',
    description: 'The name of the object, unique within its namespace (or the cluster).',
    priority: 0,
  },
  {
    name: 'Created At',
    type: 'date',
    format: '',
    description: 'When the server created the object (RFC 3339).',
    priority: 0,
  },
];

export function tableFor(
  server: ServerContext,
  ctx: RequestContext,
  rt: ResourceType,
  items: KubeObject[],
  listMeta: ListMeta,
): KubeObject {
  const include = ctx.query.get('includeObject') ?? 'Metadata';
  const metaVersion = ctx.output?.metaVersion ?? 'v1';
  const printer =
    rt.crd !== undefined ? customPrinter(rt.crd) : tablePrinters.get().printerFor(server.profile, rt);
  const print = { now: ctx.now, profile: server.profile };
  const rows: TableRow[] = items.map((obj) => {
    const fields = obj as unknown as Record<string, unknown>;
    const row: TableRow = {
      cells:
        printer !== undefined
          ? printer.cells(fields, print)
          : [obj.metadata?.name ?? '', obj.metadata?.creationTimestamp ?? ''],
    };
    const conditions = printer?.conditions?.(fields);
    if (conditions !== undefined) row.conditions = conditions;
    if (include === 'Object') row.object = obj;
    else if (include !== 'None') row.object = partialObjectMetadata(server.profile, metaVersion, obj);
    return row;
  });
  return {
    kind: 'Table',
    apiVersion: `${server.profile.metaGroup}/${metaVersion}`,
    metadata: listMeta,
    columnDefinitions: printer?.columns ?? defaultColumns,
    rows,
  };
}
