/**
 * Wide objects against the Node host in its own process: creating a
 * ConfigMap of 10,000 and of 100,000 keys, and patching one key of the
 * 100,000-key one, while another client times `/livez` every 20 ms. The
 * issue's bounds are the floors of two figures: a 100k-key create costs at
 * most 15× a 10k-key one (linear growth, with room for the fixed part), and
 * `/livez` answers within 100 ms while the big request runs (the server
 * yields). The time to JSON-parse and -stringify the same body in the
 * bench's process is printed as the floor of each request's time.
 */

import { startServerProcess, pollLivez, TimedConnection, type ServerProcess } from './server-process';
import type { Figure } from './report';

const section = 'wide objects (node host)';
const path = '/api/v1/namespaces/default/configmaps';

function body(name: string, keys: number): string {
  const data: Record<string, string> = {};
  for (let i = 0; i < keys; i++) data[`k${i}`] = 'v';
  return JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });
}

function parseAndStringify(text: string): number {
  const t = performance.now();
  JSON.stringify(JSON.parse(text));
  return performance.now() - t;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

async function timed(
  server: ServerProcess,
  c: TimedConnection,
  method: string,
  target: string,
  contentType: string,
  payload: string,
): Promise<number> {
  const head =
    `${method} ${target} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.token}\r\n` +
    `Content-Type: ${contentType}\r\nContent-Length: ${Buffer.byteLength(payload)}\r\n\r\n`;
  const r = await c.request(head, payload);
  if (r.status >= 300) throw new Error(`${method} ${target}: ${r.status} ${r.body.slice(0, 300)}`);
  return r.ms;
}

/** Runs `work` while polling /livez; returns the work's times and every /livez time seen meanwhile. */
async function withLivez(
  server: ServerProcess,
  work: () => Promise<number[]>,
): Promise<{ times: number[]; livez: number[] }> {
  const poll = await pollLivez(server.port, 20);
  const times = await work();
  return { times, livez: await poll.stop() };
}

export async function runWideObjectsBench(): Promise<Figure[]> {
  const server = await startServerProcess();
  try {
    const c = await TimedConnection.open(server.port);
    const runs = 3;
    const small = Array.from({ length: runs }, (_, i) => body(`w10k-${i}`, 10_000));
    const big = Array.from({ length: runs }, (_, i) => body(`w100k-${i}`, 100_000));
    // Warm up the server's code paths on a small wide object.
    await timed(server, c, 'POST', path, 'application/json', body('warm', 10_000));

    const create10k = await withLivez(server, async () => {
      const out: number[] = [];
      for (const b of small) out.push(await timed(server, c, 'POST', path, 'application/json', b));
      return out;
    });
    const create100k = await withLivez(server, async () => {
      const out: number[] = [];
      for (const b of big) out.push(await timed(server, c, 'POST', path, 'application/json', b));
      return out;
    });
    const patch100k = await withLivez(server, async () => {
      const out: number[] = [];
      for (let i = 0; i < runs; i++)
        out.push(
          await timed(
            server,
            c,
            'PATCH',
            `${path}/w100k-0`,
            'application/merge-patch+json',
            `{"data":{"k5":"p${i}"}}`,
          ),
        );
      return out;
    });
    c.close();

    const floor10k = median(small.map(parseAndStringify));
    const floor100k = median(big.map(parseAndStringify));
    const max = (xs: number[]): number => Math.max(...xs);
    const c10 = median(create10k.times);
    const c100 = median(create100k.times);
    return [
      {
        section,
        name: 'create 10k-key ConfigMap',
        value: c10,
        unit: 'ms',
        floor: floor10k,
        floorName: 'JSON.parse+stringify of the body',
      },
      {
        section,
        name: 'create 100k-key ConfigMap',
        value: c100,
        unit: 'ms',
        floor: floor100k,
        floorName: 'JSON.parse+stringify of the body',
      },
      {
        section,
        name: 'create 100k ÷ create 10k',
        value: c100 / c10,
        unit: '×',
        floor: 15,
        floorName: 'bound: 15× (issue 25)',
      },
      {
        section,
        name: 'patch one key of the 100k-key ConfigMap',
        value: median(patch100k.times),
        unit: 'ms',
        floor: floor100k,
        floorName: 'JSON.parse+stringify of the object',
      },
      {
        section,
        name: '/livez max while 100k-key creates run',
        value: max(create100k.livez),
        unit: 'ms',
        floor: 100,
        floorName: 'bound: 100 ms (issue 25)',
      },
      {
        section,
        name: '/livez max while 100k-key patches run',
        value: max(patch100k.livez),
        unit: 'ms',
        floor: 100,
        floorName: 'bound: 100 ms (issue 25)',
      },
      {
        section,
        name: '/livez max while 10k-key creates run',
        value: max(create10k.livez),
        unit: 'ms',
        floor: 100,
        floorName: 'bound: 100 ms (issue 25)',
      },
    ];
  } finally {
    await server.stop();
  }
}
