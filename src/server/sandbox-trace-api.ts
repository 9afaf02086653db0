/**
 * The admission-trace part of the sandbox API, so a learner (or the UI) can
 * see what admission did with any write, by the `Audit-Id` its answer
 * carried:
 * - `GET /sandbox/v1/traces/<Audit-Id>`: that request's record;
 * - `GET /sandbox/v1/traces[?limit=N]`: the kept records, newest first;
 * - `GET /sandbox/v1/traces?watch=true`: each record as its request
 *   completes, one JSON object a line, until the client goes away or the
 *   server stops (like the API's watch, minus event wrappers: a trace is
 *   only ever added).
 * Authorized like the rest of the sandbox API (see `openSandboxApi`).
 */

import type { AdmissionTraceRecord } from '../api/admission-trace';
import type { Status } from '../api/meta';
import { badRequest, methodNotAllowed, pathNotFound, StatusError } from '../machinery/errors';
import { parseGoBool } from '../machinery/query-bool';
import type { RequestContext } from '../http/context';
import { baseHeaders, respondValue } from '../http/respond';

export const tracesPath = '/sandbox/v1/traces';

/** What this API reads of the trace store (see admission/trace-store.ts). */
export interface TraceReader {
  get(auditId: string): AdmissionTraceRecord | undefined;
  /** Newest last. */
  list(): AdmissionTraceRecord[];
  subscribe(listener: (record: AdmissionTraceRecord) => void): () => void;
}

/** True for the paths this module serves (trailing slashes already removed). */
export function isTraceApiPath(path: string): boolean {
  return path === tracesPath || path.startsWith(`${tracesPath}/`);
}

// Async so that a refusal is a rejected promise like the other sandbox handlers', never a synchronous throw.
export async function handleTraceApi(
  traces: TraceReader,
  ctx: RequestContext,
  onShutdown: (callback: (reason?: Status) => void) => () => void,
): Promise<Response> {
  const path = ctx.url.pathname.replace(/\/+$/, '');
  if (ctx.request.method.toUpperCase() !== 'GET') throw methodNotAllowed();
  if (path === tracesPath) {
    if (parseGoBool(ctx.query.get('watch') ?? '') === true) return watchTraces(traces, ctx, onShutdown);
    const limit = parseLimit(ctx.query.get('limit'));
    const newestFirst = traces.list().reverse();
    return respondValue(ctx, 200, {
      items: limit === undefined ? newestFirst : newestFirst.slice(0, limit),
    });
  }
  const id = decodeURIComponent(path.slice(tracesPath.length + 1));
  if (id === '' || id.includes('/')) throw pathNotFound();
  const record = traces.get(id);
  if (record === undefined)
    throw new StatusError(
      404,
      'NotFound',
      `no admission trace for Audit-Id "${id}": only requests that reached admission (writes, not reads) ` +
        'are traced, and only the most recent ones are kept',
      { name: id, kind: 'traces' },
    );
  return respondValue(ctx, 200, record);
}

function parseLimit(raw: string | null): number | undefined {
  if (raw === null || raw === '') return undefined;
  const limit = Number(raw);
  if (!Number.isInteger(limit) || limit < 1)
    throw badRequest(`limit must be a positive integer, not "${raw}"`);
  return limit;
}

/** Streams each record as its request completes; the stream closes with the client or the server. */
function watchTraces(
  traces: TraceReader,
  ctx: RequestContext,
  onShutdown: (callback: (reason?: Status) => void) => () => void,
): Response {
  const encoder = new TextEncoder();
  let stop = (): void => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let open = true;
      const unsubscribe = traces.subscribe((record) => {
        if (open) controller.enqueue(encoder.encode(`${JSON.stringify(record)}\n`));
      });
      const removeShutdown = onShutdown(() => stop());
      stop = () => {
        if (!open) return;
        open = false;
        unsubscribe();
        removeShutdown();
        ctx.signal.removeEventListener('abort', stop);
        try {
          controller.close();
        } catch {
          // The reader cancelled the stream: it is closed already.
        }
      };
      if (ctx.signal.aborted) stop();
      else ctx.signal.addEventListener('abort', stop);
    },
    cancel() {
      stop();
    },
  });
  return new Response(body, { status: 200, headers: baseHeaders(ctx, 'application/x-ndjson') });
}
