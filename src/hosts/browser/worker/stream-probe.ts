/**
 * A diagnostic endpoint that proves the worker sees a client going away: a
 * response body that streams until its `cancel()` runs, and a status route
 * that reports whether it did. The e2e suite aborts a fetch (and closes a
 * tab) and asserts the cancel arrives; watch streams of the server core rely
 * on the same path to stop. It holds no state beyond a few ids in memory.
 */

import { http, type HttpHandler } from 'msw';

export const PROBE_PREFIX = '/__sandbox/probe';

type ProbeState = 'streaming' | 'cancelled';
const probes = new Map<string, ProbeState>();
const MAX_PROBES = 64;

export function probeHandlers(origin: string): HttpHandler[] {
  return [
    http.get(`${origin}${PROBE_PREFIX}/stream/:id`, ({ params }) =>
      streamUntilCancelled(String(params['id'])),
    ),
    http.get(`${origin}${PROBE_PREFIX}/status/:id`, ({ params }) =>
      Response.json({ state: probes.get(String(params['id'])) ?? 'unknown' }),
    ),
  ];
}

function streamUntilCancelled(id: string): Response {
  if (probes.size >= MAX_PROBES) probes.delete(probes.keys().next().value ?? '');
  probes.set(id, 'streaming');
  const encoder = new TextEncoder();
  let timer: ReturnType<typeof setInterval> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`started ${id}\n`));
      timer = setInterval(() => controller.enqueue(encoder.encode('tick\n')), 250);
    },
    cancel() {
      clearInterval(timer);
      probes.set(id, 'cancelled');
    },
  });
  return new Response(body, {
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  });
}
