/**
 * A kind's objects as a live Table: listed as a server-rendered Table (the
 * per-kind columns, or Name and Created At), then kept current by a watch
 * (list-then-watch, relist on 410). The watch asks for Tables too, so each
 * event carries its server-rendered row; a server that sends plain objects
 * instead gets one GET of the changed object as a Table (until it arrives
 * the row shows its new metadata). The first screen's list, read before the
 * first render (lib/first-screen-data.ts), is the first list: shown at once
 * when it is there at mount, awaited instead of asked again when it is under
 * way. Each event changes the row store at once
 * (a map lookup and a binary insertion, whatever the list's length) but the
 * view is told at most once per animation frame and 100 ms, so a burst of
 * events costs one render, not one per event.
 */

import { useCallback, useEffect, useRef, useState } from 'react';
import {
  isTable,
  listWatch,
  resourcePath,
  TABLE_ACCEPT,
  type ResourceRef,
  type TableColumnDefinition,
} from '../../client/index';
import { useClient } from '../client-context';
import { useIdentityStore } from '../identity/IdentityContext';
import { peekPreparedList, takePreparedList } from '../lib/first-screen-data';
import { frameScheduler } from '../lib/frame-scheduler';
import { readTable, type ReadTable } from '../lib/read-table';
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

/** The columns a Table shows by default (the others are for the wide output). */
function shownColumns(read: ReadTable): TableColumnDefinition[] {
  return read.table.columnDefinitions.filter((c) => (c.priority ?? 0) === 0);
}

export function useLiveTable(ref: ResourceRef | undefined, enabled: boolean): LiveTable {
  const client = useClient();
  const identity = useIdentityStore();
  const refKey = ref === undefined ? '' : resourcePath(ref);
  // The list read before the first render, when it is done at mount: the first render shows it, live.
  const [listedAtMount] = useState(() =>
    ref === undefined || !enabled ? undefined : peekPreparedList(refKey, identity.version())?.done?.value,
  );
  const mounted = useRef(listedAtMount === undefined ? undefined : { path: refKey, read: listedAtMount });
  const [columns, setColumns] = useState<TableColumnDefinition[]>(() =>
    listedAtMount === undefined ? [] : shownColumns(listedAtMount),
  );
  const [rows] = useState(() => {
    const store = new RowStore();
    if (listedAtMount !== undefined) store.reset(listedAtMount.table.rows);
    return store;
  });
  const [shown, setShown] = useState<Shown>(() => ({
    version: rows.version,
    resourceVersion: listedAtMount?.table.metadata.resourceVersion,
  }));
  const [phase, setPhase] = useState<LivePhase>(listedAtMount === undefined ? 'idle' : 'live');
  const [error, setError] = useState<unknown>(undefined);
  const [serverColumns, setServerColumns] = useState(listedAtMount?.server ?? false);
  const [listed, setListed] = useState(listedAtMount !== undefined);
  const [generation, setGeneration] = useState(0);
  const relist = useCallback(() => setGeneration((n) => n + 1), []);
  const pending = useRef(new Set<string>());

  useEffect(() => {
    let resourceVersion: string | undefined;
    // An unchanged version and resourceVersion are the same state: no render for them.
    const publish = () =>
      setShown((previous) =>
        previous.version === rows.version && previous.resourceVersion === resourceVersion
          ? previous
          : { version: rows.version, resourceVersion },
      );
    // Taken once: a later list (another kind, a relist, a resumed watch) asks the server.
    const early = ref === undefined ? undefined : takePreparedList(refKey, identity.version());
    // The rows shown at mount, when this is still the collection they were listed from.
    const shownFirst = mounted.current?.path === refKey ? mounted.current.read : undefined;
    mounted.current = undefined;
    let listedFirst = shownFirst !== undefined;
    if (shownFirst === undefined) {
      rows.clear();
      setListed(false);
    }
    if (ref === undefined || !enabled) {
      setPhase('idle');
      publish();
      return;
    }
    const abort = new AbortController();
    const signal = abort.signal;
    let rendered = shownFirst?.server ?? false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A frame at most every 100 ms: under a stream of creates, ten renders a second instead of sixty.
    const frame = frameScheduler(
      () => {
        if (!signal.aborted) publish();
      },
      { minInterval: 100 },
    );
    if (shownFirst === undefined) {
      publish();
      setPhase('listing');
      setError(undefined);
    } else resourceVersion = shownFirst.table.metadata.resourceVersion;

    const fetchTable = (path: string) => readTable(client, path, signal);
    // The first list: the rows shown at mount, else the early read under way (asked again if it failed).
    let first: Promise<ReadTable> | undefined =
      shownFirst !== undefined ? undefined : early?.promise.catch(() => fetchTable(resourcePath(ref)));

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
        if (listedFirst) {
          // Listed before the first render and shown since: the watch goes on from that list.
          listedFirst = false;
          return resourceVersion ?? '';
        }
        const read = first ?? fetchTable(resourcePath(ref));
        first = undefined;
        const { table, server } = await read;
        if (signal.aborted) return '';
        rendered = server;
        setServerColumns(server);
        setColumns(shownColumns({ table, server }));
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
  }, [client, refKey, enabled, generation, rows, identity]);

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
