/**
 * Watch and paging figures over real HTTP against the Node host: the
 * latency from a write's response to its event arriving at 1 and at 100
 * concurrent watchers (p50/p99), and the time to page through 10,000
 * objects with limit=500. Floors: the same work done directly on the store
 * (commit listeners notified by the store's own write; `list` pages read
 * from the store without HTTP).
 */

import { startNodeHost } from '../src/hosts/node/host';
import { createMemoryStorage } from '../src/storage/memory/memory-storage';
import { summarize, type Figure } from './report';

const writes = 200;
const path = '/api/v1/namespaces/default/configmaps';

async function watchLatency(watchers: number): Promise<{ p50: number; p99: number }> {
  const host = await startNodeHost({ port: 0, storage: 'memory', insecureHttp: true });
  const arrived = new Map<string, number[]>();
  const aborts: AbortController[] = [];
  let ready = 0;
  await Promise.all(
    Array.from({ length: watchers }, async () => {
      const ac = new AbortController();
      aborts.push(ac);
      const res = await fetch(`${host.url}${path}?watch=1&resourceVersion=0`, {
        signal: ac.signal,
        headers: { authorization: `Bearer ${host.token}` },
      });
      ready++;
      void (async () => {
        const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
        let buf = '';
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) return;
            const now = performance.now();
            buf += value;
            let nl;
            while ((nl = buf.indexOf('\n')) >= 0) {
              const line = buf.slice(0, nl);
              buf = buf.slice(nl + 1);
              const name = (JSON.parse(line) as { object: { metadata: { name: string } } }).object.metadata
                .name;
              const list = arrived.get(name) ?? [];
              list.push(now);
              arrived.set(name, list);
            }
          }
        } catch {
          // aborted at the end
        }
      })();
    }),
  );
  while (ready < watchers) await new Promise((r) => setTimeout(r, 5));
  const samples: number[] = [];
  for (let i = 0; i < writes; i++) {
    const name = `w-${i}`;
    const r = await fetch(`${host.url}${path}`, {
      method: 'POST',
      body: JSON.stringify({ metadata: { name } }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${host.token}` },
    });
    await r.arrayBuffer();
    const responded = performance.now();
    while ((arrived.get(name)?.length ?? 0) < watchers) await new Promise((r2) => setTimeout(r2, 0));
    for (const t of arrived.get(name) ?? []) samples.push(Math.max(0, t - responded));
  }
  for (const a of aborts) a.abort();
  await host.close();
  return summarize(samples);
}

/** Floor: listeners on the store itself, timed from the store write's completion. */
async function storeLatency(watchers: number): Promise<{ p50: number; p99: number }> {
  const store = createMemoryStorage();
  const samples: number[] = [];
  const arrivals: number[] = [];
  for (let w = 0; w < watchers; w++) store.onCommit(() => arrivals.push(performance.now()));
  for (let i = 0; i < writes; i++) {
    arrivals.length = 0;
    await store.create(`/core/configmaps/default/w-${i}`, { metadata: { name: `w-${i}` } });
    const done = performance.now();
    while (arrivals.length < watchers) await new Promise((r) => setTimeout(r, 0));
    for (const t of arrivals) samples.push(Math.max(0, t - done));
  }
  await store.close();
  return summarize(samples);
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

export async function runWatchPagingBench(): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const n of [1, 100]) {
    const w = await watchLatency(n);
    const f = await storeLatency(n);
    const section = `watch delivery (${n} watcher${n === 1 ? '' : 's'})`;
    figures.push(
      {
        section,
        name: 'write response → event p50',
        value: w.p50,
        unit: 'ms',
        floor: f.p50,
        floorName: 'store commit → listener',
      },
      {
        section,
        name: 'write response → event p99',
        value: w.p99,
        unit: 'ms',
        floor: f.p99,
        floorName: 'store commit → listener',
      },
    );
  }
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
