/**
 * A kind's objects as a live Table: listed as a server-rendered Table (the
 * per-kind columns, or Name and Created At), then kept current by a watch
 * (list-then-watch, relist on 410). The watch asks for Tables too, so each
 * event carries its server-rendered row; a server that sends plain objects
 * instead gets one GET of the changed object as a Table (until it arrives
 * the row shows its new metadata). Each event changes the row store at once
 * (a map lookup and a binary insertion, whatever the list's length) but the
 * view is told at most once per animation frame and 100 ms, so a burst of
 * events costs one render, not one per event.
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
import { frameScheduler } from '../lib/frame-scheduler';
import { rowKey } from './live-rows';
import { RowStore } from './row-store';

export type LivePhase = 'listing' | 'live' | 'relisting' | 'retrying' | 'idle';

export interface LiveTable {
  columns: TableColumnDefinition[];
  /** The rows, mutated in place by the watch; read them during render only. */
  rows: RowStore;
  /** The rows' version when this render was asked for: changes whenever they do. */
  version: number;
  phase: LivePhase;
  error: unknown;
  /** Whether the server rendered the columns (false: the client's default Table). */
  serverColumns: boolean;
  resourceVersion: string | undefined;
  /** Lists again from scratch. */
  relist: () => void;
  /** Whether the rows are a listed state (false until the first list succeeds, e.g. while the list is refused). */
  listed: boolean;
}

interface Shown {
  version: number;
  resourceVersion: string | undefined;
}

export function useLiveTable(ref: ResourceRef | undefined, enabled: boolean): LiveTable {
  const client = useClient();
  const [columns, setColumns] = useState<TableColumnDefinition[]>([]);
  const [rows] = useState(() => new RowStore());
  const [shown, setShown] = useState<Shown>({ version: rows.version, resourceVersion: undefined });
  const [phase, setPhase] = useState<LivePhase>('idle');
  const [error, setError] = useState<unknown>(undefined);
  const [serverColumns, setServerColumns] = useState(false);
  const [listed, setListed] = useState(false);
  const [generation, setGeneration] = useState(0);
  const relist = useCallback(() => setGeneration((n) => n + 1), []);
  const refKey = ref === undefined ? '' : resourcePath(ref);
  const pending = useRef(new Set<string>());

  useEffect(() => {
    let resourceVersion: string | undefined;
    const publish = () => setShown({ version: rows.version, resourceVersion });
    rows.clear();
    setListed(false);
    if (ref === undefined || !enabled) {
      setPhase('idle');
      publish();
      return;
    }
    const abort = new AbortController();
    const signal = abort.signal;
    let rendered = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A frame at most every 100 ms: under a stream of creates, ten renders a second instead of sixty.
    const frame = frameScheduler(
      () => {
        if (!signal.aborted) publish();
      },
      { minInterval: 100 },
    );
    publish();
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
            if (row?.object !== undefined && !signal.aborted && rows.refresh(row.object, row.cells))
              frame.schedule();
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
        rows.reset(table.rows);
        resourceVersion = table.metadata.resourceVersion;
        publish();
        return table.metadata.resourceVersion ?? '';
      },
      handlers: {
        onList: (rv) => {
          setListed(true);
          resourceVersion = rv;
          frame.schedule();
          setError(undefined);
        },
        onWatching: () => setPhase('live'),
        onEvent: (event) => {
          if (event.type === 'BOOKMARK') return;
          if (isTable(event.object)) {
            // A one-row Table: the row as the server renders it, with the object's metadata.
            const row = event.object.rows[0];
            resourceVersion = event.object.metadata.resourceVersion;
            frame.schedule();
            const object = row?.object;
            if (object === undefined) return;
            if (event.type === 'DELETED') rows.remove(object);
            else rows.upsert(object, row?.cells);
            return;
          }
          resourceVersion = event.object.metadata?.resourceVersion;
          frame.schedule();
          if (event.type === 'DELETED') {
            rows.remove(event.object);
            return;
          }
          rows.upsert(event.object, undefined);
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
      frame.cancel();
      abort.abort();
    };
    // refKey stands for ref (a new object on every render); rows is one store for the hook's life.
  }, [client, refKey, enabled, generation, rows]);

  return {
    columns,
    rows,
    version: shown.version,
    phase,
    error,
    serverColumns,
    resourceVersion: shown.resourceVersion,
    relist,
    listed,
  };
}
