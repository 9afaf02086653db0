/**
 * A diagnostic endpoint that proves the worker sees a client going away: a
 * response body that streams until its `cancel()` runs, and a status route
 * that reports whether it did, and whether the request's `signal` aborted
 * too. The e2e suite aborts a fetch (and closes a tab) and asserts the cancel
 * arrives; watch streams of the server core rely on the same path to stop.
 * It holds no state beyond a few ids in memory.
 */

import { http, type HttpHandler } from 'msw';

export const PROBE_PREFIX = '/__sandbox/probe';

interface ProbeRecord {
  state: 'streaming' | 'cancelled';
  signalAborted: boolean;
}

const probes = new Map<string, ProbeRecord>();
const MAX_PROBES = 64;

export function probeHandlers(origin: string): HttpHandler[] {
  return [
    http.get(`${origin}${PROBE_PREFIX}/stream/:id`, ({ params, request }) =>
      streamUntilCancelled(String(params['id']), request.signal),
    ),
    http.get(`${origin}${PROBE_PREFIX}/status/:id`, ({ params }) =>
      Response.json(probes.get(String(params['id'])) ?? { state: 'unknown' }),
    ),
  ];
}

function streamUntilCancelled(id: string, signal: AbortSignal): Response {
  if (probes.size >= MAX_PROBES) probes.delete(probes.keys().next().value ?? '');
  const record: ProbeRecord = { state: 'streaming', signalAborted: false };
  probes.set(id, record);
  signal.addEventListener('abort', () => (record.signalAborted = true), { once: true });
  const encoder = new TextEncoder();
  let timer: ReturnType<typeof setInterval> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`started ${id}\n`));
      timer = setInterval(() => controller.enqueue(encoder.encode('tick\n')), 250);
    },
    cancel() {
      clearInterval(timer);
      record.state = 'cancelled';
    },
  });
  return new Response(body, {
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  });
}
