/**
 * A kind's objects as a live Table: listed as a server-rendered Table (the
 * per-kind columns, or Name and Created At), then kept current by a watch
 * (list-then-watch, relist on 410). The watch asks for Tables too, so each
 * event carries its server-rendered row; a server that sends plain objects
 * instead gets one GET of the changed object as a Table (until it arrives
 * the row shows its new metadata). Row changes are applied at most once per
 * animation frame, so a burst of events costs one render, not one per event.
 */

import { useCallback, useEffect, useRef, useState } from 'react';
import type { KubeList, KubeObject } from '../../api/meta';
import {
  defaultTable,
  isTable,
  listWatch,
  resourcePath,
  TABLE_ACCEPT,
  type ResourceRef,
  type Table,
  type TableColumnDefinition,
} from '../../client/index';
import { useClient } from '../client-context';
import { removeRow, rowKey, rowsFromTable, upsertRow, type LiveRows } from './live-rows';

export type LivePhase = 'listing' | 'live' | 'relisting' | 'retrying' | 'idle';

export interface LiveTable {
  columns: TableColumnDefinition[];
  rows: LiveRows;
  phase: LivePhase;
  error: unknown;
  /** Whether the server rendered the columns (false: the client's default Table). */
  serverColumns: boolean;
  resourceVersion: string | undefined;
  /** Lists again from scratch. */
  relist: () => void;
}

const empty: LiveRows = new Map();

export function useLiveTable(ref: ResourceRef | undefined, enabled: boolean): LiveTable {
  const client = useClient();
  const [columns, setColumns] = useState<TableColumnDefinition[]>([]);
  const [rows, setRows] = useState<LiveRows>(empty);
  const [phase, setPhase] = useState<LivePhase>('idle');
  const [error, setError] = useState<unknown>(undefined);
  const [serverColumns, setServerColumns] = useState(false);
  const [resourceVersion, setResourceVersion] = useState<string | undefined>(undefined);
  const [generation, setGeneration] = useState(0);
  const relist = useCallback(() => setGeneration((n) => n + 1), []);
  const refKey = ref === undefined ? '' : resourcePath(ref);
  const pending = useRef(new Set<string>());

  useEffect(() => {
    if (ref === undefined || !enabled) {
      setPhase('idle');
      setRows(empty);
      return;
    }
    const abort = new AbortController();
    const signal = abort.signal;
    let rendered = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Row changes waiting for the next frame.
    let queued: ((rows: LiveRows) => LiveRows)[] = [];
    let frame: number | undefined;
    const update = (change: (rows: LiveRows) => LiveRows): void => {
      queued.push(change);
      frame ??= requestAnimationFrame(() => {
        frame = undefined;
        const changes = queued;
        queued = [];
        if (!signal.aborted) setRows((current) => changes.reduce((rows, apply) => apply(rows), current));
      });
    };
    setRows(empty);
    setPhase('listing');
    setError(undefined);

    const fetchTable = async (path: string): Promise<{ table: Table; server: boolean }> => {
      const answer = await client.send<Table | KubeList | KubeObject>('GET', path, {
        accept: TABLE_ACCEPT,
        signal,
      });
      if (isTable(answer.body)) return { table: answer.body, server: true };
      const body = answer.body;
      const list: KubeList = Array.isArray(body['items'])
        ? (body as KubeList)
        : { apiVersion: 'v1', kind: 'List', metadata: {}, items: [body as KubeObject] };
      return { table: defaultTable(list), server: false };
    };

    // Re-render changed rows on the server, a batch at a time.
    const flush = () => {
      const keys = [...pending.current];
      pending.current.clear();
      for (const key of keys) {
        const [namespace = '', name = ''] = key.split('/');
        const path = resourcePath({ ...ref, ...(namespace === '' ? {} : { namespace }), name });
        fetchTable(path).then(
          ({ table }) => {
            const row = table.rows[0];
            if (row?.object !== undefined && !signal.aborted)
              setRows((current) =>
                current.has(key) ? upsertRow(current, row.object ?? {}, row.cells) : current,
              );
          },
          () => undefined,
        );
      }
    };

    void listWatch({
      client,
      ref,
      signal,
      accept: TABLE_ACCEPT,
      list: async () => {
        const { table, server } = await fetchTable(resourcePath(ref));
        if (signal.aborted) return '';
        rendered = server;
        setServerColumns(server);
        setColumns(table.columnDefinitions.filter((c) => (c.priority ?? 0) === 0));
        setRows(rowsFromTable(table.rows));
        return table.metadata.resourceVersion ?? '';
      },
      handlers: {
        onList: (rv) => {
          setResourceVersion(rv);
          setError(undefined);
        },
        onWatching: () => setPhase('live'),
        onEvent: (event) => {
          if (event.type === 'BOOKMARK') return;
          if (isTable(event.object)) {
            // A one-row Table: the row as the server renders it, with the object's metadata.
            const row = event.object.rows[0];
            setResourceVersion(event.object.metadata.resourceVersion);
            const object = row?.object;
            if (object === undefined) return;
            if (event.type === 'DELETED') update((current) => removeRow(current, object));
            else update((current) => upsertRow(current, object, row?.cells));
            return;
          }
          setResourceVersion(event.object.metadata?.resourceVersion);
          if (event.type === 'DELETED') {
            update((current) => removeRow(current, event.object));
            return;
          }
          update((current) => upsertRow(current, event.object, undefined));
          if (rendered) {
            pending.current.add(rowKey(event.object));
            clearTimeout(timer);
            timer = setTimeout(flush, 60);
          }
        },
        onGone: () => setPhase('relisting'),
        onError: (e) => {
          setError(e);
          setPhase('retrying');
        },
      },
    });
    return () => {
      clearTimeout(timer);
      if (frame !== undefined) cancelAnimationFrame(frame);
      abort.abort();
    };
    // refKey stands for ref (a new object on every render).
  }, [client, refKey, enabled, generation]);

  return { columns, rows, phase, error, serverColumns, resourceVersion, relist };
}
