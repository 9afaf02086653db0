/**
 * One watch as a streamed response. It subscribes to commits before reading
 * the starting state, so nothing falls between the initial state (or the
 * replayed history) and the live stream; events leave in resourceVersion
 * order, one JSON document per line (or one length-prefixed protobuf frame). The stream ends on `timeoutSeconds`,
 * on client abort (releasing the subscription at once), and with a 410
 * ERROR event when the start is older than the history or the client falls
 * too far behind.
 */

import type { KubeObject, Status, WatchEventType } from '../../api/meta';
import { resourceExpired, toStatusError } from '../../machinery/errors';
import type { ChangeRecord } from '../../storage/types';
import { toServedVersion } from '../../registry/conversion';
import type { ResourceType } from '../../registry/resource-type';
import type { RequestContext } from '../context';
import type { ServerContext } from '../server-context';
import { baseHeaders } from '../respond';
import { watchEncoding } from '../protobuf/http';
import { filterChange, type WatchFilter } from './event-filter';
import { tableFor } from '../table';

export interface WatchSpec {
  rt: ResourceType;
  filter: WatchFilter;
  /** Send the current state as ADDED events first. */
  initialEvents: boolean;
  /** After the initial events, send one BOOKMARK marking their end (streaming lists). */
  initialEventsEndBookmark: boolean;
  /** Replay changes after this revision (Start at Exact). */
  startRevision?: number;
  allowBookmarks: boolean;
  timeoutMs: number;
}

/** Events a watcher may have queued and unread before it is cut off (the real cache's per-watcher buffer is far smaller). */
const maxBacklog = 10_000;
const historyPage = 1_000;

export function openWatchStream(server: ServerContext, ctx: RequestContext, spec: WatchSpec): Response {
  // JSON lines, or length-prefixed protobuf frames when the client negotiated protobuf.
  const encoding = watchEncoding(ctx, server.profile);
  const { rt, filter } = spec;
  let closed = false;
  let live = false;
  let lastSeen = 0;
  const pending: ChangeRecord[] = [];
  const cleanups: (() => void)[] = [];
  let controllerRef: ReadableStreamDefaultController<Uint8Array> | undefined;

  server.metrics.watchOpened(rt.group, rt.version, rt.kind);
  const cleanup = (): void => {
    if (closed) return;
    closed = true;
    server.metrics.watchClosed(rt.group, rt.version, rt.kind);
    for (const c of cleanups.splice(0)) c();
  };

  const close = (): void => {
    const c = controllerRef;
    cleanup();
    try {
      c?.close();
    } catch {
      // already closed or errored by the consumer
    }
  };

  // Objects take the negotiated form: a one-row Table (no rows for a bookmark), metadata only, or as they are.
  const present = (type: WatchEventType, object: KubeObject | Status): KubeObject | Status => {
    if (type === 'ERROR') return object;
    const out = ctx.output;
    const obj = object as KubeObject;
    if (out?.kind === 'table')
      return tableFor(server, ctx, rt, type === 'BOOKMARK' ? [] : [obj], {
        resourceVersion: obj.metadata?.resourceVersion,
      });
    if (out?.kind === 'partial')
      return {
        kind: 'PartialObjectMetadata',
        apiVersion: `${server.profile.metaGroup}/${out.metaVersion ?? 'v1'}`,
        metadata: obj.metadata ?? {},
      };
    return object;
  };

  const send = (type: WatchEventType, object: KubeObject | Status): void => {
    const c = controllerRef;
    if (closed || c === undefined) return;
    c.enqueue(encoding.encode(type, present(type, object)));
    if ((c.desiredSize ?? 0) < -maxBacklog) {
      c.enqueue(
        encoding.encode(
          'ERROR',
          resourceExpired(`too old resource version: ${lastSeen} (watcher fell behind)`).status,
        ),
      );
      close();
    }
  };

  const deliver = (change: ChangeRecord): void => {
    if (change.revision <= lastSeen) return;
    lastSeen = change.revision;
    if (!change.key.startsWith(filter.prefix)) return;
    // Selectors and clients see objects in the served version.
    const served: ChangeRecord = {
      ...change,
      object: toServedVersion(rt, change.object),
      ...(change.previous !== undefined ? { previous: toServedVersion(rt, change.previous) } : {}),
    };
    const event = filterChange(filter, served);
    if (event !== undefined) send(event.type, event.object);
  };

  const bookmark = (annotations?: Record<string, string>): void => {
    send('BOOKMARK', {
      kind: rt.kind,
      apiVersion: rt.apiVersion,
      metadata: { resourceVersion: String(lastSeen), ...(annotations !== undefined ? { annotations } : {}) },
    });
  };

  const start = async (): Promise<void> => {
    cleanups.push(
      server.storage.onCommit((change) => {
        if (closed) return;
        if (live) deliver(change);
        else pending.push(change);
      }),
    );
    if (spec.initialEvents) {
      const snapshot = await server.storage.list({ prefix: filter.prefix });
      for (const item of snapshot.items) {
        if (filter.key !== undefined && item.key !== filter.key) continue;
        const object = toServedVersion(rt, item.object);
        if (filter.predicate !== undefined && !filter.predicate(object)) continue;
        send('ADDED', object);
      }
      lastSeen = snapshot.revision;
      if (spec.initialEventsEndBookmark && spec.allowBookmarks)
        bookmark({ [server.profile.groupPrefixed('initial-events-end')]: 'true' });
    } else {
      let after = spec.startRevision ?? 0;
      lastSeen = after;
      const compacted = await server.storage.compactedRevision();
      if (after < compacted) {
        send('ERROR', resourceExpired(`too old resource version: ${after} (${compacted})`).status);
        close();
        return;
      }
      // A start the store has not reached yet replays nothing: the live stream delivers what comes after it.
      const current = await server.storage.currentRevision();
      for (; after < current;) {
        const page = await server.storage.changesSince(after, historyPage);
        for (const change of page) deliver(change);
        if (page.length < historyPage) break;
        after = page[page.length - 1]?.revision ?? after;
      }
    }
    for (const change of pending.splice(0)) deliver(change);
    live = true;
  };

  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controllerRef = controller;
        const timeout = setTimeout(close, spec.timeoutMs);
        cleanups.push(() => clearTimeout(timeout));
        if (spec.allowBookmarks) {
          const every = setInterval(() => {
            if (live) bookmark();
          }, server.bookmarkIntervalMs);
          cleanups.push(() => clearInterval(every));
        }
        const onAbort = (): void => close();
        ctx.signal.addEventListener('abort', onAbort);
        cleanups.push(() => ctx.signal.removeEventListener('abort', onAbort));
        cleanups.push(
          server.onShutdown((reason) => {
            if (reason !== undefined) send('ERROR', reason);
            close();
          }),
        );
        start().catch((e: unknown) => {
          send('ERROR', toStatusError(e).status);
          close();
        });
      },
      cancel() {
        cleanup();
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(stream, { status: 200, headers: baseHeaders(ctx, encoding.contentType) });
}
