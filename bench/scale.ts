/**
 * `npm run bench -- scale`: what one request, a start and the server's memory
 * cost as the store grows, with 1k, 10k and 100k ConfigMaps already stored.
 * Each figure is printed beside the same figure at 1k objects, so the ratio
 * is the growth: per-request costs (creates/s, GET p50, one page of 500)
 * should stay flat, a cold start should not grow with the store (no full
 * scan at start), and memory should grow with the watch cache's window, not
 * with the store. A full list grows with the store by nature; it is printed
 * for scale. The Node host's stores (memory, Dexie over fake-indexeddb) are
 * seeded directly through the storage interface and a server is then
 * started on them, as a restart over that store would; the browser's store
 * is seeded through the sandbox's import endpoint, then its service worker
 * is stopped and the first request after that pays for the start.
 */

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { randomUUID } from 'node:crypto';
import { indexedDB, IDBKeyRange } from 'fake-indexeddb';
import type { KubeObject } from '../src/api/meta';
import { createApiServer, type ApiServer } from '../src/server/index';
import { createDexieStorage } from '../src/storage/dexie/dexie-storage';
import { createMemoryStorage } from '../src/storage/memory/memory-storage';
import type { Storage } from '../src/storage/types';
import { summarize, type Figure } from './report';
import { runBrowserScale } from './scale-browser';

export const scaleSizes = (process.env.SCALE_SIZES ?? '1000,10000,100000').split(',').map(Number);
const creates = 300;
const gets = 300;
const path = '/api/v1/namespaces/default/configmaps';

/** One seeded ConfigMap, shaped as the registry stores it. */
export function seedObject(i: number): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: `scale-${i}`,
      namespace: 'default',
      uid: randomUUID(),
      creationTimestamp: '2026-01-01T00:00:00Z',
      labels: { app: 'scale' },
    },
    data: { key: `value-${i}`, other: 'x'.repeat(64) },
  };
}

export function seedKey(i: number): string {
  return `/core/configmaps/default/scale-${i}`;
}

/** Writes `count` ConfigMaps straight into the store, 32 in flight (seeding is not measured). */
export async function seedStore(storage: Storage, from: number, count: number): Promise<void> {
  let next = from;
  const end = from + count;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < end) {
        const i = next++;
        await storage.create(seedKey(i), seedObject(i));
      }
    }),
  );
}

function createBody(i: number): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `new-${i}`, labels: { app: 'scale' } },
    data: { key: `value-${i}`, other: 'x'.repeat(64) },
  });
}

/** The V8 collector, callable without `--expose-gc` on the command line (the flag set at run time). */
function collector(): (() => void) | undefined {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (existing !== undefined) return existing;
  try {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  } catch {
    return undefined;
  }
}

async function heapUsed(): Promise<number> {
  const gc = collector();
  if (gc !== undefined) {
    // Twice, with a turn between, so weak caches and finalizers settle.
    gc();
    await new Promise((resolve) => setTimeout(resolve, 50));
    gc();
  }
  return process.memoryUsage().heapUsed;
}

interface Measured {
  creates: number;
  getP50: number;
  page: number;
  list: number;
  ready: number;
  settled: number;
  firstGet: number;
  heapMB: number;
  /** Browser: the first request after the worker was stopped. */
  cold: number;
  /** Browser: after the first answer, until five GETs in a row answer within 25 ms. */
  busy: number;
  /** Browser: creates/s again at the end, once the controllers' start-up lists are surely done. */
  createsLater: number;
  /** Browser: the worker's used heap after a collection. */
  workerHeapMB: number;
}

async function send(
  api: ApiServer,
  token: string,
  method: string,
  url: string,
  body?: string,
): Promise<Response> {
  return api.fetch(
    new Request(`http://orch.internal${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body !== undefined ? { body } : {}),
    }),
  );
}

function median(samples: number[]): number {
  return summarize(samples).p50;
}

/** Times the requests of one size against a started server. */
async function measureRequests(api: ApiServer, token: string, n: number) {
  const start = performance.now();
  for (let i = 0; i < creates; i++) {
    const r = await send(api, token, 'POST', path, createBody(i));
    if (r.status !== 201) throw new Error(`create answered ${r.status}: ${await r.text()}`);
    await r.arrayBuffer();
  }
  const rate = (creates / (performance.now() - start)) * 1000;
  const samples: number[] = [];
  for (let i = 0; i < gets; i++) {
    const name = `scale-${(i * 7919) % n}`;
    const t = performance.now();
    const r = await send(api, token, 'GET', `${path}/${name}`);
    if (r.status !== 200) throw new Error(`get answered ${r.status}`);
    await r.arrayBuffer();
    samples.push(performance.now() - t);
  }
  const pages: number[] = [];
  for (let i = 0; i < 7; i++) {
    const t = performance.now();
    const r = await send(api, token, 'GET', `${path}?limit=500`);
    await r.arrayBuffer();
    pages.push(performance.now() - t);
  }
  const lists: number[] = [];
  for (let i = 0; i < (n >= 100_000 ? 2 : 3); i++) {
    const t = performance.now();
    const r = await send(api, token, 'GET', path);
    await r.arrayBuffer();
    lists.push(performance.now() - t);
  }
  return { creates: rate, getP50: median(samples), page: median(pages), list: median(lists) };
}

/** Seeds a store of `n` objects behind a server's start-up state, restarts a server on it and measures. */
async function measureNode(kind: 'memory' | 'dexie', n: number): Promise<Partial<Measured>> {
  const token = 'scale-admin-token';
  const dbName = `scale-${kind}-${n}-${Date.now()}`;
  const open = (): Storage =>
    kind === 'memory' ? shared : createDexieStorage({ name: dbName, indexedDB, IDBKeyRange });
  const shared = createMemoryStorage();
  // The start-up objects first (namespaces, RBAC, …), as on a store a server already ran on.
  const first = createApiServer({ storage: open(), profile: 'orch', adminTokens: [token] });
  await first.ready;
  await first.controllersIdle();
  await first.close();
  const seeding = open();
  await seedStore(seeding, 0, n);
  if (kind === 'dexie') await seeding.close();

  const storage = open();
  const before = await heapUsed();
  const t0 = performance.now();
  const api = createApiServer({ storage, profile: 'orch', adminTokens: [token] });
  await api.ready;
  const ready = performance.now() - t0;
  // The first request right after the start, while the controllers' informers list (the browser's cold start).
  const t1 = performance.now();
  const firstAnswer = await send(api, token, 'GET', `${path}/scale-0`);
  await firstAnswer.arrayBuffer();
  const firstGet = performance.now() - t1;
  // The controllers' informers list at start too; the server has settled once they are idle.
  await api.controllersIdle();
  const settled = performance.now() - t0;
  const heapMB = ((await heapUsed()) - before) / 2 ** 20;
  try {
    const measured = { ...(await measureRequests(api, token, n)), ready, firstGet, settled };
    // The memory store lives in the same heap, and the server's start compacts the seeded history, so the
    // difference says nothing about what the server holds: reported for the Dexie store only.
    return kind === 'memory' ? measured : { ...measured, heapMB };
  } finally {
    await api.close();
  }
}

/** Figures of one size beside the same figures at the smallest size. */
export function scaleFigures(
  section: string,
  sizes: number[],
  results: Map<number, Partial<Measured>>,
): Figure[] {
  const base = results.get(sizes[0] ?? 0) ?? {};
  const label = (n: number) => `${n >= 1000 ? `${n / 1000}k` : n} objects`;
  const rows: Array<[keyof Measured, string, string, boolean?]> = [
    ['creates', 'creates/s sequential', '/s', true],
    ['createsLater', 'creates/s sequential, after the other figures', '/s', true],
    ['getP50', 'GET p50', 'ms'],
    ['page', 'one page of 500 (?limit=500)', 'ms'],
    ['list', 'full list', 'ms'],
    ['ready', 'cold start (until ready)', 'ms'],
    ['firstGet', 'first GET right after the start', 'ms'],
    ['settled', 'cold start (until controllers idle)', 'ms'],
    ['heapMB', 'heap held by the server', 'MB'],
    ['cold', 'cold start (first request after the worker stopped)', 'ms'],
    ['busy', 'busy after the cold start (until 5 GETs in a row < 25 ms)', 'ms'],
    ['workerHeapMB', 'worker heap (used, after a collection)', 'MB'],
  ];
  const figures: Figure[] = [];
  for (const [key, name, unit, higherIsBetter] of rows)
    for (const n of sizes) {
      const value = results.get(n)?.[key];
      if (value === undefined) continue;
      figures.push({
        section,
        name: `${label(n)}: ${name}`,
        value,
        unit,
        ...(base[key] !== undefined
          ? { floor: base[key], floorName: `same at ${label(sizes[0] ?? 0)}` }
          : {}),
        ...(higherIsBetter === true ? { higherIsBetter } : {}),
      });
    }
  return figures;
}

export async function runScaleBench(): Promise<Figure[]> {
  const figures: Figure[] = [];
  if (collector() === undefined)
    process.stderr.write('scale: no access to the collector; heap figures include garbage\n');
  process.stderr.write(
    'scale: etcd skipped (needs an etcd server; the etcd section measures it separately)\n',
  );
  const only = process.env.SCALE_HOSTS?.split(',');
  for (const kind of ['memory', 'dexie'] as const) {
    if (only !== undefined && !only.includes(kind)) continue;
    const results = new Map<number, Partial<Measured>>();
    for (const n of scaleSizes) {
      process.stderr.write(`scale: node host, ${kind} store, ${n} objects…\n`);
      results.set(n, await measureNode(kind, n));
    }
    const section = `scale, node host (${kind === 'memory' ? 'memory store' : 'Dexie + fake-indexeddb'})`;
    figures.push(...scaleFigures(section, scaleSizes, results));
  }
  if (only === undefined || only.includes('browser')) figures.push(...(await runBrowserScale()));
  return figures;
}
