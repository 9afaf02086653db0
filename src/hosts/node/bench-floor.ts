/**
 * The benches' floor inside the Node host: with `benchFloor` on, a request
 * carrying `x-bench-floor: 1` is answered by a trivial handler instead of
 * the core, after the same TLS, HTTP server, adapter and target rewriting
 * as every other request. A GET answers a constant; a watch GET opens a
 * stream; a POST echoes its body and writes it, as one watch-style line
 * encoded once, to every open floor stream. So a figure divided by its
 * floor is what the core costs on top of the host's own plumbing. Off by
 * default: a served host never answers for a header.
 */

/** The header that sends a request to the floor. */
export const benchFloorHeader = 'x-bench-floor';

const encoder = new TextEncoder();

export interface BenchFloor {
  /** True when `request` is meant for the floor. */
  matches(request: Request): boolean;
  fetch(request: Request): Promise<Response>;
}

export function createBenchFloor(): BenchFloor {
  const streams = new Set<ReadableStreamDefaultController<Uint8Array>>();
  const constant = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'floor' } });
  const json = { 'content-type': 'application/json' };
  return {
    matches: (request) => request.headers.get(benchFloorHeader) === '1',
    async fetch(request) {
      if (request.method === 'POST') {
        const body = await request.text();
        const line = encoder.encode(`{"type":"ADDED","object":${body}}\n`);
        for (const c of streams) c.enqueue(line);
        return new Response(body, { status: 201, headers: json });
      }
      if (new URL(request.url).searchParams.get('watch') !== null) {
        let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
        const stream = new ReadableStream<Uint8Array>(
          {
            start(c) {
              controller = c;
              streams.add(c);
              request.signal.addEventListener('abort', () => {
                streams.delete(c);
                try {
                  c.close();
                } catch {
                  // already closed by the consumer
                }
              });
            },
            cancel() {
              if (controller !== undefined) streams.delete(controller);
            },
          },
          { highWaterMark: 0 },
        );
        return new Response(stream, { status: 200, headers: json });
      }
      return new Response(constant, { status: 200, headers: json });
    },
  };
}
