/**
 * One read of a collection (or object) as a Table, as the explorer shows
 * it: the server's Table when it renders one, else the client's default
 * Table built from the plain list (or the one object) it sent.
 */

import type { KubeList, KubeObject } from '../../api/meta';
import { defaultTable, isTable, TABLE_ACCEPT, type ApiClient, type Table } from '../../client/index';

export interface ReadTable {
  table: Table;
  /** Whether the server rendered it (false: the client's default Table). */
  server: boolean;
}

export async function readTable(client: ApiClient, path: string, signal?: AbortSignal): Promise<ReadTable> {
  const answer = await client.send<Table | KubeList | KubeObject>('GET', path, {
    accept: TABLE_ACCEPT,
    ...(signal !== undefined ? { signal } : {}),
  });
  if (isTable(answer.body)) return { table: answer.body, server: true };
  const body = answer.body;
  const list: KubeList = Array.isArray(body['items'])
    ? (body as KubeList)
    : { apiVersion: 'v1', kind: 'List', metadata: {}, items: [body as KubeObject] };
  return { table: defaultTable(list), server: false };
}
