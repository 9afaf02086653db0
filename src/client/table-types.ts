/**
 * The server-rendered Table representation (`Accept:
 * application/json;as=Table;v=v1;g=meta.orch.io`): column definitions and
 * rows, as kubectl prints them. Also the client-side default Table (Name,
 * Created At) for a plain list, which is what the server itself serves for
 * a kind without custom columns, so callers can treat both alike.
 */

import type { KubeList, KubeObject, ListMeta } from '../api/meta';
import { PROFILES } from '../machinery/naming';

export interface TableColumnDefinition {
  name: string;
  type: string;
  format?: string;
  description?: string;
  /** 0 for the columns `kubectl get` shows; higher ones appear with `-o wide`. */
  priority?: number;
}

export interface TableRow {
  cells: unknown[];
  /** The row's object: PartialObjectMetadata unless `includeObject=Object` was asked for. */
  object?: KubeObject;
}

export interface Table {
  kind: 'Table';
  apiVersion: string;
  metadata: ListMeta;
  columnDefinitions: TableColumnDefinition[];
  rows: TableRow[];
}

/**
 * Table first in either profile's group name, then plain JSON: a server
 * that cannot render a Table for the kind answers with the list instead of
 * 406 (content negotiation with fallback).
 */
export const TABLE_ACCEPT = `${PROFILES.orch.tableMediaType}, ${PROFILES.kubernetes.tableMediaType}, application/json`;

export function isTable(value: unknown): value is Table {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { kind?: unknown }).kind === 'Table' &&
    Array.isArray((value as { rows?: unknown }).rows)
  );
}

/** The default Table of a list, with the same two columns the server uses when a kind has none of its own. */
export function defaultTable(list: KubeList): Table {
  return {
    kind: 'Table',
    apiVersion: `${PROFILES.orch.metaGroup}/v1`,
    metadata: list.metadata,
    columnDefinitions: [
      { name: 'Name', type: 'string', format: 'name', priority: 0 },
      { name: 'Created At', type: 'date', priority: 0 },
    ],
    rows: list.items.map((object) => ({
      cells: [object.metadata?.name ?? '', object.metadata?.creationTimestamp ?? ''],
      object,
    })),
  };
}
