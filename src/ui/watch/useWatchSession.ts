/**
 * One watch as the inspector runs it: the request, then every event as it
 * arrives (type, resourceVersion, object, time), with the previous state of
 * each object kept so a MODIFIED can be diffed. A 410 Gone (an ERROR event,
 * or the HTTP status) is shown, followed, if asked, by the relist and the
 * new watch from the list's version, each as its own line. Pausing holds
 * incoming lines in a buffer; nothing is lost. Lines are kept in a ref and
 * published at most once per animation frame, so a burst of events costs
 * one render.
 */

import { useCallback, useEffect, useRef, useState } from 'react';
import type { KubeObject, Status } from '../../api/meta';
import {
  ApiError,
  isStatus,
  resourcePath,
  withQuery,
  type ApiClient,
  type ResourceRef,
} from '../../client/index';
import { inspectorFeed } from '../lib/inspector-feed';
import type { ResourceChoice } from '../lib/resource-choice';
import type { JsonValue } from '../../api/meta';
import type { InspectorEvent } from '../../lessons/inspector';
import { selectorQuery, watchQuery, watchRef, type WatchOptions } from './watch-options';

export type LineType =
  'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR' | 'REQUEST' | 'RELIST' | 'END' | 'NOTE';

export interface InspectorLine {
  seq: number;
  /** Epoch milliseconds when it arrived. */
  at: number;
  type: LineType;
  resourceVersion?: string;
  namespace?: string;
  name?: string;
  object?: KubeObject | Status;
  /** For MODIFIED and DELETED: the state the inspector last saw of the object. */
  previous?: KubeObject;
  text?: string;
}

const maxLines = 5000;

export function useWatchSession(client: ApiClient) {
  const lines = useRef<InspectorLine[]>([]);
  const buffer = useRef<InspectorLine[]>([]);
  const known = useRef(new Map<string, KubeObject>());
  const abort = useRef<AbortController | undefined>(undefined);
  const pausedRef = useRef(false);
  const seq = useRef(0);
  const frame = useRef<number | undefined>(undefined);
  // The newest resourceVersion, published with the lines: a state update per event would render per event.
  const newestVersion = useRef<string | undefined>(undefined);
  const [snapshot, setSnapshot] = useState<readonly InspectorLine[]>([]);
  const [buffered, setBuffered] = useState(0);
  const [running, setRunning] = useState(false);
  const [paused, setPaused] = useState(false);
  const [firstVersion, setFirstVersion] = useState<string | undefined>(undefined);
  const [lastVersion, setLastVersion] = useState<string | undefined>(undefined);

  const publish = useCallback(() => {
    if (frame.current !== undefined) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = undefined;
      setSnapshot(lines.current.slice());
      setBuffered(buffer.current.length);
      setLastVersion(newestVersion.current);
    });
  }, []);

  const add = useCallback(
    (line: Omit<InspectorLine, 'seq' | 'at'>) => {
      const full: InspectorLine = { ...line, seq: ++seq.current, at: Date.now() };
      inspectorFeed.add(feedEvent(full));
      if (pausedRef.current) buffer.current.push(full);
      else lines.current.push(full);
      if (lines.current.length > maxLines) lines.current.splice(0, lines.current.length - maxLines);
      if (full.resourceVersion !== undefined && full.resourceVersion !== '')
        newestVersion.current = full.resourceVersion;
      publish();
    },
    [publish],
  );

  useEffect(
    () => () => {
      abort.current?.abort();
      if (frame.current !== undefined) cancelAnimationFrame(frame.current);
    },
    [],
  );

  const stop = useCallback(() => {
    abort.current?.abort();
    abort.current = undefined;
    setRunning(false);
  }, []);

  const start = useCallback(
    (choice: ResourceChoice, options: WatchOptions, from?: string) => {
      abort.current?.abort();
      const controller = new AbortController();
      abort.current = controller;
      const { signal } = controller;
      const ref = watchRef(choice, options);
      setRunning(true);
      setFirstVersion(undefined);

      const relist = async (): Promise<string> => {
        const query = selectorQuery(options);
        add({ type: 'RELIST', text: `GET ${withQuery(resourcePath(ref), query)}` });
        const list = await client.list(ref, query);
        known.current = new Map(list.items.map((item) => [keyOf(item), asEvented(item, list)]));
        const rv = list.metadata.resourceVersion ?? '';
        add({
          type: 'RELIST',
          resourceVersion: rv,
          text: `listed ${list.items.length} object${list.items.length === 1 ? '' : 's'} at resourceVersion ${rv}`,
        });
        return rv;
      };

      const run = async (): Promise<void> => {
        let version: string | undefined =
          from ??
          (options.startAt === 'zero'
            ? '0'
            : options.startAt === 'exact'
              ? options.resourceVersion.trim()
              : undefined);
        if (from === undefined && options.startAt === 'list') version = await relist();
        if (from === undefined && options.startAt === 'unset') known.current = new Map();
        setFirstVersion(version);
        for (;;) {
          const gone = await watchOnce(ref, options, version, signal);
          if (gone === undefined) return;
          if (!options.relistOnGone) return;
          version = await relist();
        }
      };

      const watchOnce = async (
        target: ResourceRef,
        opts: WatchOptions,
        version: string | undefined,
        sig: AbortSignal,
      ): Promise<Status | undefined> => {
        const query = watchQuery(opts, version);
        add({ type: 'REQUEST', text: `GET ${withQuery(resourcePath(target), { ...query, watch: true })}` });
        try {
          for await (const event of client.watch(target, query, sig)) {
            if (event.type === 'ERROR') {
              const status = isStatus(event.object) ? event.object : undefined;
              add({ type: 'ERROR', object: event.object, text: describeStatus(status) });
              if (status?.code === 410) return status;
              continue;
            }
            const object = event.object as KubeObject;
            const key = keyOf(object);
            const line: Omit<InspectorLine, 'seq' | 'at'> = {
              type: event.type,
              resourceVersion: object.metadata?.resourceVersion ?? '',
              object,
            };
            if (object.metadata?.name !== undefined) line.name = object.metadata.name;
            if (object.metadata?.namespace !== undefined) line.namespace = object.metadata.namespace;
            const previous = known.current.get(key);
            if (event.type !== 'BOOKMARK') {
              if (previous !== undefined) line.previous = previous;
              if (event.type === 'DELETED') known.current.delete(key);
              else known.current.set(key, object);
            }
            add(line);
          }
          add({ type: 'END', text: 'the server ended the stream (timeout, or the server closed it)' });
          return undefined;
        } catch (error) {
          if (sig.aborted) {
            add({ type: 'END', text: 'stopped' });
            return undefined;
          }
          if (error instanceof ApiError && error.code === 410) {
            add({ type: 'ERROR', object: error.status, text: `HTTP 410: ${describeStatus(error.status)}` });
            return error.status;
          }
          add({ type: 'END', text: `failed: ${error instanceof Error ? error.message : String(error)}` });
          return undefined;
        }
      };

      run()
        .catch((error: unknown) => {
          if (!signal.aborted)
            add({ type: 'END', text: `failed: ${error instanceof Error ? error.message : String(error)}` });
        })
        .finally(() => {
          if (abort.current === controller) setRunning(false);
        });
    },
    [add, client],
  );

  const setPause = useCallback(
    (next: boolean) => {
      pausedRef.current = next;
      setPaused(next);
      if (!next) {
        lines.current.push(...buffer.current);
        buffer.current = [];
        publish();
      }
    },
    [publish],
  );

  const clear = useCallback(() => {
    lines.current = [];
    buffer.current = [];
    publish();
  }, [publish]);

  return {
    lines: snapshot,
    buffered,
    running,
    paused,
    firstVersion,
    lastVersion,
    start,
    stop,
    setPause,
    clear,
    note: (text: string) => add({ type: 'NOTE', text }),
  };
}

/**
 * A list's items carry no kind or apiVersion (the list has them) while watch
 * events do; the item gets them from the list, so a later MODIFIED is diffed
 * like with like instead of showing both lines as added.
 */
function asEvented(item: KubeObject, list: { apiVersion?: string; kind?: string }): KubeObject {
  const kind = item.kind ?? list.kind?.replace(/List$/, '');
  const apiVersion = item.apiVersion ?? list.apiVersion;
  return {
    ...(apiVersion === undefined ? {} : { apiVersion }),
    ...(kind === undefined ? {} : { kind }),
    ...item,
  };
}

function keyOf(object: KubeObject): string {
  return `${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''}`;
}

function describeStatus(status: Status | undefined): string {
  if (status === undefined) return 'an ERROR event without a Status';
  return `${status.code} ${status.reason ?? ''}: ${status.message ?? ''}`.trim();
}

/** A line as the course's checks read it (see lib/inspector-feed.ts). */
function feedEvent(line: InspectorLine): InspectorEvent {
  const status = line.type === 'ERROR' && isStatus(line.object) ? line.object : undefined;
  return {
    at: line.at,
    type: line.type,
    ...(line.resourceVersion !== undefined ? { resourceVersion: line.resourceVersion } : {}),
    ...(line.namespace !== undefined ? { namespace: line.namespace } : {}),
    ...(line.name !== undefined ? { name: line.name } : {}),
    ...(line.object !== undefined ? { object: line.object as unknown as JsonValue } : {}),
    ...(status?.code !== undefined ? { code: status.code } : {}),
    ...(line.text !== undefined ? { text: line.text } : {}),
  };
}
