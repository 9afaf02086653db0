/**
 * Watch and paging figures over real HTTPS against the Node host (as `npm
 * run serve` runs it). Watch latency, p50/p99, from a write request leaving
 * the client to its event arriving at each of 1 and of 100 concurrent
 * watchers, on the memory store and on the Dexie store; its floor is the
 * host's own trivial streaming handler (`benchFloor`, header
 * `x-bench-floor: 1`) on the same path through the same TLS, HTTP server
 * and adapter, which writes each POSTed body as one line to every open
 * floor stream, with figure and floor writes interleaved in one run. The
 * write's own round trip (request sent → response read) is reported too.
 * Paging: the time to page through 10,000 objects with limit=500, against
 * the same pages read from the store without HTTP.
 */

import { Agent } from 'undici';
import { startNodeHost, type NodeHost } from '../src/hosts/node/host';
import { createMemoryStorage } from '../src/storage/memory/memory-storage';
import type { Dispatcher } from './host-client';
import { summarize, type Figure } from './report';

const writes = 300;
const warmup = 30;
const path = '/api/v1/namespaces/default/configmaps';
const floorHeaders = { 'x-bench-floor': '1' };

type Latency = { p50: number; p99: number };

interface WatchFigures {
  event: Latency;
  floorEvent: Latency;
  write: Latency;
}

/**
 * Opens a watch and calls `arrived(name, time)` for every event line, timed
 * when its chunk is read. Lines are scanned for their first `"name"` (the
 * object's metadata.name leads its metadata) rather than parsed, to keep
 * the client's own work small beside what is measured.
 */
async function openWatch(
  host: NodeHost,
  dispatcher: Dispatcher,
  extra: Record<string, string>,
  signal: AbortSignal,
  arrived: (name: string, time: number) => void,
): Promise<void> {
  const res = await fetch(`${host.url}${path}?watch=1`, {
    signal,
    dispatcher,
    headers: { authorization: `Bearer ${host.token}`, ...extra },
  });
  if (res.status !== 200 || res.body === null) throw new Error(`watch answered ${res.status}`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  void (async () => {
    let buf = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        const now = performance.now();
        buf += decoder.decode(value, { stream: true });
        let nl;
        while ((nl = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          const m = /"name":"([^"]*)"/.exec(line);
          if (m?.[1] !== undefined) arrived(m[1], now);
        }
      }
    } catch {
      // aborted at the end
    }
  })();
}

async function watchLatency(storage: 'memory' | 'dexie', watchers: number): Promise<WatchFigures> {
  const host = await startNodeHost({ port: 0, storage, benchFloor: true });
  const connect = host.caPEM !== undefined ? { ca: host.caPEM } : {};
  // Watches on their own pool (one connection each), writes on a kept-alive one.
  const watchAgent = new Agent({ connect });
  const writeAgent = new Agent({ connect });
  const ac = new AbortController();
  const waiting = new Map<string, { times: number[]; done: () => void }>();
  const arrived = (name: string, time: number): void => {
    const w = waiting.get(name);
    if (w === undefined) return;
    w.times.push(time);
    if (w.times.length === watchers) w.done();
  };
  const opens: Promise<void>[] = [];
  for (let i = 0; i < watchers; i++) {
    for (const extra of [{}, floorHeaders])
      opens.push(openWatch(host, watchAgent as unknown as Dispatcher, extra, ac.signal, arrived));
  }
  await Promise.all(opens);

  const event: number[] = [];
  const floorEvent: number[] = [];
  const write: number[] = [];
  const once = async (name: string, floor: boolean, sample: boolean): Promise<void> => {
    let done!: () => void;
    const all = new Promise<void>((resolve) => (done = resolve));
    const times: number[] = [];
    waiting.set(name, { times, done });
    const sent = performance.now();
    const r = await fetch(`${host.url}${path}`, {
      method: 'POST',
      dispatcher: writeAgent as unknown as Dispatcher,
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: name } }),
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${host.token}`,
        ...(floor ? floorHeaders : {}),
      },
    });
    await r.arrayBuffer();
    const responded = performance.now();
    if (r.status !== 201) throw new Error(`create answered ${r.status}`);
    await all;
    waiting.delete(name);
    if (!sample) return;
    for (const t of times) (floor ? floorEvent : event).push(t - sent);
    if (!floor) write.push(responded - sent);
  };
  for (let i = 0; i < warmup + writes; i++) {
    const sample = i >= warmup;
    // Alternate which goes first, so that neither always runs in the other's wake.
    if (i % 2 === 0) {
      await once(`w-${i}`, false, sample);
      await once(`f-${i}`, true, sample);
    } else {
      await once(`f-${i}`, true, sample);
      await once(`w-${i}`, false, sample);
    }
  }
  ac.abort();
  await host.close();
  await Promise.all([watchAgent.close(), writeAgent.close()]);
  return { event: summarize(event), floorEvent: summarize(floorEvent), write: summarize(write) };
}

async function paging(): Promise<{ http: number; store: number }> {
  const host = await startNodeHost({ port: 0, storage: 'memory', insecureHttp: true });
  const storage = createMemoryStorage();
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < 10_000) {
        const i = next++;
        const name = `p-${String(i).padStart(5, '0')}`;
        const r = await fetch(`${host.url}${path}`, {
          method: 'POST',
          body: JSON.stringify({ metadata: { name }, data: { v: String(i) } }),
          headers: { 'content-type': 'application/json', authorization: `Bearer ${host.token}` },
        });
        await r.arrayBuffer();
        await storage.create(`/core/configmaps/default/${name}`, {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name, namespace: 'default' },
          data: { v: String(i) },
        });
      }
    }),
  );
  const runs = 3;
  let httpTotal = 0;
  let storeTotal = 0;
  for (let run = 0; run < runs; run++) {
    let t = performance.now();
    let token = '';
    let count = 0;
    do {
      const r = await fetch(
        `${host.url}${path}?limit=500${token === '' ? '' : `&continue=${encodeURIComponent(token)}`}`,
        { headers: { authorization: `Bearer ${host.token}` } },
      );
      const b = (await r.json()) as { items: unknown[]; metadata: { continue?: string } };
      count += b.items.length;
      token = b.metadata.continue ?? '';
    } while (token !== '');
    if (count < 10_000) throw new Error(`paged ${count} objects`);
    httpTotal += performance.now() - t;
    t = performance.now();
    let after: string | undefined;
    for (;;) {
      const page = await storage.list({
        prefix: '/core/configmaps/default/',
        limit: 500,
        countRemaining: true,
        ...(after !== undefined ? { after } : {}),
      });
      after = page.items[page.items.length - 1]?.key;
      if (!page.more) break;
    }
    storeTotal += performance.now() - t;
  }
  await host.close();
  await storage.close();
  return { http: httpTotal / runs, store: storeTotal / runs };
}

/** The watch figures of one store and watcher count, each beside its floor. */
export async function watchFigures(storage: 'memory' | 'dexie', n: number): Promise<Figure[]> {
  const w = await watchLatency(storage, n);
  const section = `watch, ${storage} store, HTTPS (${n} watcher${n === 1 ? '' : 's'})`;
  const floorName = 'trivial streaming handler in the host, same path';
  return [
    {
      section,
      name: 'request sent → event p50',
      value: w.event.p50,
      unit: 'ms',
      floor: w.floorEvent.p50,
      floorName,
    },
    {
      section,
      name: 'request sent → event p99',
      value: w.event.p99,
      unit: 'ms',
      floor: w.floorEvent.p99,
      floorName,
    },
    {
      section,
      name: 'request sent → event p99',
      value: w.event.p99,
      unit: 'ms',
      floor: w.write.p99,
      floorName: "the write's own round trip p99",
    },
  ];
}

export async function runWatchPagingBench(): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const storage of ['memory', 'dexie'] as const)
    for (const n of [1, 100]) figures.push(...(await watchFigures(storage, n)));
  const p = await paging();
  figures.push({
    section: 'paged list',
    name: '10,000 objects, limit=500',
    value: p.http,
    unit: 'ms',
    floor: p.store,
    floorName: 'same pages from the store',
  });
  return figures;
}
