/**
 * `/metrics` after 100,000 requests to made-up paths, against the Node host
 * in its own process (issue 25: 13,000 anonymous requests had made a 187 MB
 * `/metrics` whose scrape blocked every client for 9–12 s). The requests
 * are the reproduction and its neighbours: anonymous ones for a
 * made-up resource in a real namespace (403) and the administrator's for a
 * made-up group (404), each path new. The figures are the size of the
 * answer a Prometheus scrape gets (gzip, which it always accepts) and of
 * the plain text, beside the 1 MB bound; the series count beside
 * the fresh host's; the scrape time before and after.
 */

import { startServerProcess, TimedConnection, type ServerProcess } from './server-process';
import type { Figure } from './report';

const section = 'metrics size (node host)';
const total = 100_000;
const connections = 4;
const window = 64;

interface Scrape {
  bytes: number;
  ms: number;
  /** Series lines (not comments) of the plain text. */
  series: number;
  /** Size of the gzip answer a Prometheus scrape (Accept-Encoding: gzip) gets. */
  gzipBytes: number;
}

/**
 * One scrape in each encoding, each on a new connection: a connection kept from before the requests
 * would have been closed by the server's idle deadline (90 s) while they ran — the reason this bench
 * hung when it reused one.
 */
async function scrape(server: ServerProcess): Promise<Scrape> {
  const get = async (extra: string): Promise<{ status: number; ms: number; body: string }> => {
    const c = await TimedConnection.open(server.port);
    try {
      return await c.request(
        `GET /metrics HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.token}\r\n${extra}\r\n`,
      );
    } finally {
      c.close();
    }
  };
  const plain = await get('');
  if (plain.status !== 200) throw new Error(`/metrics: ${plain.status}`);
  const zipped = await get('Accept-Encoding: gzip\r\n');
  if (zipped.status !== 200) throw new Error(`/metrics (gzip): ${zipped.status}`);
  const text = plain.body;
  let series = 0;
  for (const line of text.split('\n')) if (line !== '' && !line.startsWith('#')) series++;
  return {
    bytes: Buffer.byteLength(text, 'latin1'),
    ms: plain.ms,
    series,
    gzipBytes: Buffer.byteLength(zipped.body, 'latin1'),
  };
}

/** Sends requests `from`, `from + step`, … below `total`, `window` in flight on one connection. */
async function send(server: ServerProcess, from: number, step: number): Promise<void> {
  const c = await TimedConnection.open(server.port);
  try {
    for (let i = from; i < total; i += step * window) {
      const batch: Promise<{ status: number }>[] = [];
      for (let k = i; k < Math.min(total, i + step * window); k += step) {
        const head =
          k % 2 === 0
            ? `GET /api/v1/namespaces/default/r${k} HTTP/1.1\r\nHost: x\r\n\r\n`
            : `GET /apis/made${k}.example.com/v1/things HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.token}\r\n\r\n`;
        batch.push(c.request(head));
      }
      for (const r of await Promise.all(batch))
        if (r.status >= 500) throw new Error(`made-up path answered ${r.status}`);
    }
  } finally {
    c.close();
  }
}

export async function runMetricsSizeBench(): Promise<Figure[]> {
  const server = await startServerProcess();
  try {
    // Let the controllers' first lists and watches settle before the fresh figure.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await scrape(server);
    const fresh = await scrape(server);
    const started = performance.now();
    await Promise.all(Array.from({ length: connections }, (_, i) => send(server, i, connections)));
    const sendMs = performance.now() - started;
    const after = await scrape(server);
    const mb = (b: number): number => b / 1e6;
    return [
      {
        section,
        name: `/metrics size (gzip, as Prometheus scrapes) after ${total.toLocaleString('en')} made-up paths`,
        value: mb(after.gzipBytes),
        unit: 'MB',
        floor: 1,
        floorName: 'bound: 1 MB (issue 25)',
      },
      {
        section,
        name: `/metrics size (plain text) after ${total.toLocaleString('en')} made-up paths`,
        value: mb(after.bytes),
        unit: 'MB',
        floor: 1,
        floorName: 'bound: 1 MB (issue 25)',
      },
      {
        section,
        name: `/metrics series after ${total.toLocaleString('en')} made-up paths`,
        value: after.series,
        unit: 'series',
        floor: fresh.series,
        floorName: "the fresh host's series",
      },
      {
        section,
        name: `/metrics size after ${total.toLocaleString('en')} made-up paths`,
        value: mb(after.bytes),
        unit: 'MB',
        floor: mb(fresh.bytes),
        floorName: "the fresh host's /metrics",
      },
      {
        section,
        name: `/metrics scrape after ${total.toLocaleString('en')} made-up paths`,
        value: after.ms,
        unit: 'ms',
        floor: fresh.ms,
        floorName: 'scrape of the fresh host',
      },
      {
        section,
        name: 'made-up path requests (4 connections, 64 in flight each)',
        value: total / (sendMs / 1000),
        unit: 'req/s',
        higherIsBetter: true,
      },
    ];
  } finally {
    await server.stop();
  }
}
