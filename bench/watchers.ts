/**
 * Many watchers under a steady write load, against the Node host in its
 * own process: 1,000 watch connections on ConfigMaps (raw TLS sockets in
 * two client processes, watch-clients.ts, so that the clients' work neither
 * shares the server's event loop nor the probe's), a writer creating
 * ConfigMaps at 44 per second for 10 s, and a client timing `/livez` every
 * 50 ms.
 * Delivery lag is the time from a create leaving the writer to its event
 * reaching each watcher; every event must reach every watcher. Floors: the
 * same fan-out through the host's trivial streaming handler (`benchFloor`,
 * which writes each POSTed body as one line to every open floor stream) for
 * the lag, and `/livez` on the idle server for the probe.
 */

import { fork } from 'node:child_process';
import { pollLivez, startServerProcess, TimedConnection, type ServerProcess } from './server-process';
import { summarize, type Figure } from './report';

const section = 'watchers (node host)';
const path = '/api/v1/namespaces/default/configmaps';

interface Run {
  lag: number[];
  missing: number;
  livez: number[];
}

interface ClientReport {
  arrivals: [number, number[]][];
  closed: number;
}

/** Opens `n` watches spread over two client processes; resolves once all are open. */
async function openWatchers(
  server: ServerProcess,
  n: number,
  floor: boolean,
): Promise<{ collect(): Promise<ClientReport[]> }> {
  const children = [Math.ceil(n / 2), Math.floor(n / 2)].map((count) =>
    fork('bench/watch-clients.ts', [String(server.port), server.token, String(count), floor ? '1' : '0'], {
      execArgv: ['--import', 'tsx'],
    }),
  );
  await Promise.all(children.map((c) => new Promise<void>((resolve) => c.once('message', () => resolve()))));
  // Let every watch be established before the first write.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  return {
    collect: () =>
      Promise.all(
        children.map(
          (c) =>
            new Promise<ClientReport>((resolve) => {
              c.once('message', (m: unknown) => resolve(m as ClientReport));
              c.send({ stop: true });
            }),
        ),
      ),
  };
}

async function run(
  server: ServerProcess,
  watchers: number,
  floor: boolean,
  rate: number,
  seconds: number,
): Promise<Run> {
  const sent = new Map<number, number>();
  const clients = await openWatchers(server, watchers, floor);
  const writer = await TimedConnection.open(server.port);
  const livez = await pollLivez(server.port, 50);
  const total = Math.round(rate * seconds);
  const start = performance.now();
  const tag = floor ? 'f' : 'o';
  const answers: Promise<unknown>[] = [];
  for (let i = 0; i < total; i++) {
    // Paced by the clock, not by the answers: a slow server gets the writes at the same rate.
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const body = JSON.stringify({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `ev-${i}` },
      data: { tag },
    });
    sent.set(i, performance.timeOrigin + performance.now());
    answers.push(
      // A write whose connection closed before its answer counts as not delivered, not as a crash.
      writer
        .request(
          `POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.token}\r\nContent-Type: application/json\r\n` +
            (floor ? 'x-bench-floor: 1\r\n' : '') +
            `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
          body,
        )
        .catch((e: unknown) => {
          process.stderr.write(`write ${i}: ${e instanceof Error ? e.message : String(e)}\n`);
        }),
    );
  }
  // Every write answered (a minute at most: a bench reports, it does not hang).
  await Promise.race([Promise.all(answers), new Promise((resolve) => setTimeout(resolve, 60_000))]);
  // The last events' delivery: a few seconds at most on a server that keeps up.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const probes = await livez.stop();
  writer.close();
  const reports = await clients.collect();
  const lag: number[] = [];
  const got = new Map<number, number>();
  for (const r of reports)
    for (const [i, times] of r.arrivals) {
      const at = sent.get(i);
      if (at === undefined) continue;
      for (const t of times) lag.push(t - at);
      got.set(i, (got.get(i) ?? 0) + times.length);
    }
  let missing = 0;
  for (const i of sent.keys()) missing += Math.max(0, watchers - (got.get(i) ?? 0));
  return { lag, missing, livez: probes };
}

export async function runWatchersBench(): Promise<Figure[]> {
  const watchers = Number(process.env['ORCH_BENCH_WATCHERS'] ?? 1000);
  const rate = 44;
  const seconds = Number(process.env['ORCH_BENCH_SECONDS'] ?? 10);
  const server = await startServerProcess();
  try {
    const idle = await pollLivez(server.port, 20);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const idleLivez = summarize(await idle.stop());
    const floor = await run(server, watchers, true, rate, seconds);
    const real = await run(server, watchers, false, rate, seconds);
    const lag = summarize(real.lag);
    const floorLag = summarize(floor.lag);
    const livez = summarize(real.livez);
    const name = `${watchers} watchers, ${rate} writes/s`;
    return [
      {
        section,
        name: `${name}: delivery p50`,
        value: lag.p50,
        unit: 'ms',
        floor: floorLag.p50,
        floorName: 'trivial fan-out handler',
      },
      {
        section,
        name: `${name}: delivery p99`,
        value: lag.p99,
        unit: 'ms',
        floor: floorLag.p99,
        floorName: 'trivial fan-out handler',
      },
      {
        section,
        name: `${name}: /livez p50`,
        value: livez.p50,
        unit: 'ms',
        floor: idleLivez.p50,
        floorName: '/livez, idle server',
      },
      {
        section,
        name: `${name}: /livez p99`,
        value: livez.p99,
        unit: 'ms',
        floor: idleLivez.p99,
        floorName: '/livez, idle server',
      },
      {
        section,
        name: `${name}: /livez max`,
        value: Math.max(...real.livez),
        unit: 'ms',
        floor: 100,
        floorName: 'bound: 100 ms',
      },
      {
        section,
        name: `${name}: events not delivered`,
        value: real.missing,
        unit: 'events',
        floor: floor.missing,
        floorName: 'trivial fan-out handler',
      },
    ];
  } finally {
    await server.stop();
  }
}
