/**
 * Storage benchmark: write throughput (one at a time and 16 in flight), point
 * read latency, and reading one 500-item page of a 10,000-object collection,
 * for the Dexie backend over fake-indexeddb and for the in-memory backend.
 * `runStorageBench` returns the numbers for the project's bench runner;
 * `npx tsx bench/storage.ts` prints them.
 */

import { pathToFileURL } from 'node:url';
import { indexedDB, IDBKeyRange } from 'fake-indexeddb';
import type { KubeObject } from '../src/api/meta';
import { createDexieStorage } from '../src/storage/dexie/dexie-storage';
import { createMemoryStorage } from '../src/storage/memory/memory-storage';
import type { Storage } from '../src/storage/types';

export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  /** The same work on the memory store in the same run, when the figure is compared with it. */
  floor?: number;
  floorName?: string;
}

const writes = 2000;
const reads = 2000;
const collection = 10_000;
const pageSize = 500;
const pageReads = 20;

export async function runStorageBench(): Promise<BenchResult[]> {
  const backends: Array<[string, () => Storage]> = [
    [
      'dexie+fake-indexeddb',
      () =>
        createDexieStorage({ name: `storage-bench-${Date.now()}-${Math.random()}`, indexedDB, IDBKeyRange }),
    ],
    ['memory', () => createMemoryStorage()],
  ];
  const results: BenchResult[] = [];
  const pagedList = new Map<string, number>();
  for (const [name, open] of backends) {
    const store = open();
    try {
      results.push(...(await benchBackend(name, store)));
      pagedList.set(name, await listInPages(store));
    } finally {
      await store.close();
    }
  }
  results.push({
    name: `list ${listed.toLocaleString('en')} in pages of ${pageSize}, dexie vs memory (median)`,
    value: round(pagedList.get('dexie+fake-indexeddb') ?? NaN, 2),
    unit: 'ms',
    floor: round(pagedList.get('memory') ?? NaN, 2),
    floorName: 'memory store, same run',
  });
  return results;
}

const listed = 2000;
const listRounds = 30;

/** Median time to read a 2,000-object collection whole, in pages of 500 at the first page's revision. */
async function listInPages(store: Storage): Promise<number> {
  await inFlight(16, listed, (i) => store.create(`/paged/${key(i)}`, pod(i)));
  const times: number[] = [];
  for (let round = 0; round < listRounds; round++) {
    const start = performance.now();
    let after: string | undefined;
    let revision: number | undefined;
    let seen = 0;
    for (;;) {
      const page = await store.list({
        prefix: '/paged/',
        after,
        revision,
        limit: pageSize,
        countRemaining: true,
      });
      seen += page.items.length;
      revision = page.revision;
      after = page.items.at(-1)?.key;
      if (!page.more) break;
    }
    times.push(performance.now() - start);
    if (seen !== listed) throw new Error(`listed ${seen} of ${listed}`);
  }
  times.sort((a, b) => a - b);
  return percentile(times, 0.5);
}

async function benchBackend(name: string, store: Storage): Promise<BenchResult[]> {
  const sequential = await timed(async () => {
    for (let i = 0; i < writes; i++) await store.create(`/seq/${key(i)}`, pod(i));
  });
  const parallel = await timed(() => inFlight(16, writes, (i) => store.create(`/par/${key(i)}`, pod(i))));

  const latencies: number[] = [];
  for (let i = 0; i < reads; i++) {
    const k = `/seq/${key((i * 7919) % writes)}`;
    const start = performance.now();
    await store.get(k);
    latencies.push(performance.now() - start);
  }
  latencies.sort((a, b) => a - b);

  await inFlight(16, collection, (i) => store.create(`/big/${key(i)}`, pod(i)));
  const pageTimes: number[] = [];
  for (let i = 0; i < pageReads; i++) {
    const after = `/big/${key(Math.floor((i * collection) / pageReads / 2))}`;
    const start = performance.now();
    const page = await store.list({ prefix: '/big/', after, limit: pageSize, countRemaining: true });
    pageTimes.push(performance.now() - start);
    if (page.items.length !== pageSize) throw new Error(`short page: ${page.items.length}`);
  }
  pageTimes.sort((a, b) => a - b);

  return [
    { name: `${name} create sequential`, value: round(writes / (sequential / 1000)), unit: 'ops/s' },
    { name: `${name} create 16 in flight`, value: round(writes / (parallel / 1000)), unit: 'ops/s' },
    { name: `${name} get p50`, value: round(percentile(latencies, 0.5), 3), unit: 'ms' },
    { name: `${name} get p99`, value: round(percentile(latencies, 0.99), 3), unit: 'ms' },
    {
      name: `${name} list ${pageSize} of ${collection} (median)`,
      value: round(percentile(pageTimes, 0.5), 2),
      unit: 'ms',
    },
  ];
}

/** Runs `count` tasks with at most `width` of them in flight. */
async function inFlight(width: number, count: number, task: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: width }, worker));
}

async function timed(run: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
}

function round(value: number, digits = 0): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

function key(i: number): string {
  return `default/pod-${String(i).padStart(6, '0')}`;
}

/** A pod of typical size (about 1 KB of JSON). */
function pod(i: number): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `pod-${i}`,
      namespace: 'default',
      uid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      labels: { app: 'bench', shard: String(i % 16) },
      annotations: { 'example.com/note': 'benchmark object' },
      creationTimestamp: '2024-01-01T00:00:00Z',
    },
    spec: {
      containers: [
        {
          name: 'app',
          image: 'registry.example.com/app:1.0',
          ports: [{ containerPort: 8080, protocol: 'TCP' }],
          resources: { requests: { cpu: '100m', memory: '128Mi' } },
          env: [{ name: 'INDEX', value: String(i) }],
        },
      ],
      restartPolicy: 'Always',
      nodeName: `node-${i % 3}`,
    },
    status: { phase: 'Running', podIP: `10.0.${(i >> 8) & 255}.${i & 255}` },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const results = await runStorageBench();
  const width = Math.max(...results.map((r) => r.name.length));
  for (const r of results) console.log(`${r.name.padEnd(width)}  ${String(r.value).padStart(10)} ${r.unit}`);
}
