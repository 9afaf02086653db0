/**
 * One watch as a streamed response: the storage's watch (which orders and
 * filters the events, see `registry/generic/watch.ts`) written as one JSON
 * document per line, or one length-prefixed protobuf frame, in the
 * negotiated form (object, one-row Table, or metadata only). The stream
 * adds periodic bookmarks, ends on `timeoutSeconds` and on client abort
 * (releasing the watch at once), and cuts off a client that falls too far
 * behind with a 410 ERROR event.
 */

import type { KubeObject, Status, WatchEvent, WatchEventType } from '../../api/meta';
import { resourceExpired } from '../../machinery/errors';
import type { RestStorage, Watcher, WatchHandle, WatchRequest } from '../../registry/rest/capabilities';
import type { RequestScope } from '../../registry/rest/scope';
import type { ResourceType } from '../../registry/resource-type';
import type { RequestContext } from '../context';
import type { ServerContext } from '../server-context';
import { baseHeaders } from '../respond';
import { watchEncoding } from '../protobuf/http';
import { tableFor } from '../table';
import { partialObjectMetadata } from '../partial-metadata';
import { requestLabelsOf } from '../request-labels';
import { sharedFrame, sharedText } from './shared-frames';
import { WatchEventChannel, withWatchEvents } from '../../machinery/watch-objects';

export interface WatchSpec {
  rt: ResourceType;
  request: WatchRequest;
  /** After the initial events, send one BOOKMARK marking their end (streaming lists). */
  initialEventsEndBookmark: boolean;
  allowBookmarks: boolean;
  timeoutMs: number;
}

/**
 * Live events a watcher may have queued and unread before it is cut off:
 * the upper bound of the real watch cache's capacity, so a burst the real
 * cache holds (a deletecollection of many thousands) does not drop a
 * connected watcher. Initial events never count: they are the watcher's
 * own snapshot.
 */
const maxBacklog = 100 * 1024;

/** The longest single timer a JavaScript host runs; longer timeouts are re-armed. */
const maxTimerMs = 2 ** 31 - 1;

const textDecoder = new TextDecoder();
/** The last frame read as text: a shared frame goes to every in-process watcher of a change in one pass. */
let lastFrame: Uint8Array | undefined;
let lastText = '';

/** The UTF-8 length of a string (JSON.stringify's output has no lone surrogates; one is counted as U+FFFD). */
export function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      // A pair: two UTF-16 units, four bytes.
      n += 2;
      i++;
    } else n += 2;
  }
  return n;
}

function frameText(frame: Uint8Array): string {
  if (frame !== lastFrame) {
    lastText = textDecoder.decode(frame);
    lastFrame = frame;
  }
  return lastText;
}

export function openWatchStream(
  server: ServerContext,
  ctx: RequestContext,
  storage: RestStorage & Watcher,
  scope: RequestScope,
  spec: WatchSpec,
): Response {
  // JSON lines, or length-prefixed protobuf frames when the client negotiated protobuf.
  const encoding = watchEncoding(ctx, server.profile);
  const { rt } = spec;
  let closed = false;
  let handle: WatchHandle | undefined;
  const cleanups: (() => void)[] = [];
  let controllerRef: ReadableStreamDefaultController<Uint8Array> | undefined;
  // An in-process client of a JSON watch reads each event as the object its line parses to, not through the
  // stream's bytes (machinery/watch-objects.ts); the body then only ends with the watch and stops it when cancelled.
  const objects =
    ctx.conn?.watchEventsAsObjects === true && encoding.contentType === 'application/json'
      ? new WatchEventChannel()
      : undefined;

  const endLongRunning = ctx.info.isResourceRequest
    ? server.metrics.longRunningStarted(requestLabelsOf(ctx.info, ctx.request.headers.get('content-type')))
    : () => undefined;
  const cleanup = (): void => {
    if (closed) return;
    closed = true;
    endLongRunning();
    handle?.stop();
    objects?.end();
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
  let columnsSent = false;
  const present = (type: WatchEventType, object: KubeObject | Status): KubeObject | Status => {
    if (type === 'ERROR') return object;
    const out = ctx.output;
    const obj = object as KubeObject;
    if (out?.kind === 'table') {
      const table = tableFor(server, ctx, rt, type === 'BOOKMARK' ? [] : [obj], {
        resourceVersion: obj.metadata?.resourceVersion,
      });
      // As the real watch encoder does, only the first event carries the column definitions (later ones: null).
      if (!columnsSent) {
        columnsSent = true;
        return table;
      }
      return { ...table, columnDefinitions: null };
    }
    if (out?.kind === 'partial')
      return partialObjectMetadata(
        server.profile,
        out.metaVersion ?? 'v1',
        obj,
        ctx.conn?.trimsManagedFields === true,
      );
    return object;
  };

  const send = (type: WatchEventType, object: KubeObject | Status): void => {
    const c = controllerRef;
    if (closed || c === undefined) return;
    const shown = present(type, object);
    const text = encoding.text;
    if (objects !== undefined && text !== undefined) {
      // An in-process client gets the JSON line parsed: its text is made, never its bytes (counted as the
      // stream would have counted them, newline included).
      const line =
        shown === object
          ? sharedText(type, object, encoding.contentType, () => text(type, object))
          : text(type, shown);
      server.metrics.watchEventSent(rt.group, rt.version, rt.kind, utf8Length(line) + 1);
      objects.push(JSON.parse(line) as WatchEvent);
    } else {
      // The object as stored (no Table, no metadata-only view) is the same for every watcher: encode it once.
      const frame =
        shown === object
          ? sharedFrame(type, object, encoding.contentType, () => encoding.encode(type, object))
          : encoding.encode(type, shown);
      server.metrics.watchEventSent(rt.group, rt.version, rt.kind, frame.byteLength);
      write(c, frame);
    }
    const backlog = objects !== undefined ? objects.backlog : -(c.desiredSize ?? 0);
    if (handle?.isLive() === true && backlog > maxBacklog) {
      write(
        c,
        encoding.encode(
          'ERROR',
          resourceExpired(`too old resource version: ${handle.lastRevision()} (watcher fell behind)`).status,
        ),
      );
      close();
    }
  };

  // The frame's bytes to the stream, or the event they encode to an in-process client (the JSON line, parsed).
  const write = (c: ReadableStreamDefaultController<Uint8Array>, frame: Uint8Array): void => {
    if (objects === undefined) c.enqueue(frame);
    else objects.push(JSON.parse(frameText(frame)) as WatchEvent);
  };

  const bookmark = (annotations?: Record<string, string>): void => {
    send('BOOKMARK', {
      kind: rt.kind,
      apiVersion: rt.apiVersion,
      metadata: {
        resourceVersion: String(handle?.lastRevision() ?? 0),
        ...(annotations !== undefined ? { annotations } : {}),
      },
    });
  };

  const armTimeout = (remainingMs: number): void => {
    const step = Math.min(remainingMs, maxTimerMs);
    const timer = setTimeout(() => (remainingMs > step ? armTimeout(remainingMs - step) : close()), step);
    cleanups.push(() => clearTimeout(timer));
  };

  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controllerRef = controller;
        armTimeout(spec.timeoutMs);
        if (spec.allowBookmarks) {
          const every = setInterval(() => {
            if (handle?.isLive() === true) bookmark();
          }, server.bookmarkIntervalMs);
          cleanups.push(() => clearInterval(every));
        }
        // In Node a `Request`'s signal follows its caller's only while the `Request` lives (nodejs/node#55428):
        // an in-process client's abort arrives because this watch's closures hold `ctx`, and `ctx.request` with
        // it, until the watch ends (test/watch-end-after-gc.test.ts; decision 0096).
        const onAbort = (): void => close();
        ctx.signal.addEventListener('abort', onAbort);
        cleanups.push(() => ctx.signal.removeEventListener('abort', onAbort));
        cleanups.push(
          server.onShutdown((reason) => {
            if (reason !== undefined) send('ERROR', reason);
            close();
          }),
        );
        // An in-process component's live events may wait for a pause in the clients' requests (0111).
        const request =
          ctx.conn?.behindClients === true ? { ...spec.request, behindClients: true } : spec.request;
        handle = storage.watch(scope, request, {
          emit: (type, object) => send(type, object),
          fail: (status) => {
            send('ERROR', status);
            close();
          },
          initialEventsEnd: () => {
            if (spec.initialEventsEndBookmark && spec.allowBookmarks)
              bookmark({ [server.profile.groupPrefixed('initial-events-end')]: 'true' });
          },
        });
        // The watch can fail (and the stream close) before `handle` is assigned; release it now then.
        if (closed) handle.stop();
      },
      cancel() {
        cleanup();
      },
    },
    { highWaterMark: 0 },
  );
  const response = new Response(stream, { status: 200, headers: baseHeaders(ctx, encoding.contentType) });
  return objects !== undefined ? withWatchEvents(response, objects) : response;
}
