/**
 * Replica figures: creates per second (16 in flight) and watch p99 (from sending a create to its event arriving on
 * a watch) with one replica, then with two replicas over the same store, in the same run — writes spread over both
 * and the watch on the replica that did not take the write. Over the in-process memory store, and over a throwaway
 * etcd member when /usr/bin/etcd runs. The replicas share this process (and its two cores), so two replicas show
 * what sharing a store costs, not what a second machine would add.
 */

import type { KubeObject } from '../src/api/meta';
import {
  etcdStore,
  etcdStoreSkipReason,
  memoryStore,
  startReplicas,
  type Replica,
  type SharedStore,
} from '../test/support/replicas';
import { summarize, type Figure } from './report';

const creates = 600;
const watchSamples = 200;
const configmaps = { group: '', version: 'v1', resource: 'configmaps', namespace: 'default' };

const configMap = (name: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, labels: { app: 'bench' } },
  data: { key: name, other: 'x'.repeat(64) },
});

/** Creates with 16 in flight, the i-th through `writers[i % writers.length]`. */
async function createRate(writers: Replica[], prefix: string): Promise<number> {
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < creates) {
        const i = next++;
        await writers[i % writers.length]!.client.create(configmaps, configMap(`${prefix}-${i}`));
      }
    }),
  );
  return (creates / (performance.now() - start)) * 1000;
}

/** Sequential creates through `writer`; each sample is send-to-event on `watcher`'s watch. */
async function watchLatencies(
  writer: Replica,
  watcher: Replica,
  prefix: string,
): Promise<{ p50: number; p99: number }> {
  const from = (await watcher.client.list(configmaps, { limit: 1 })).metadata?.resourceVersion;
  const abort = new AbortController();
  const arrived = new Map<string, () => void>();
  const watching = (async () => {
    for await (const event of watcher.client.watch(configmaps, { resourceVersion: from }, abort.signal))
      arrived.get((event.object as KubeObject).metadata?.name ?? '')?.();
  })().catch(() => undefined);
  const samples: number[] = [];
  for (let i = 0; i < watchSamples; i++) {
    const name = `${prefix}-${i}`;
    const seen = new Promise<void>((resolve) => arrived.set(name, resolve));
    const t = performance.now();
    await writer.client.create(configmaps, configMap(name));
    await seen;
    samples.push(performance.now() - t);
    arrived.delete(name);
  }
  abort.abort();
  await watching;
  return summarize(samples);
}

async function figuresFor(open: () => Promise<SharedStore>, label: string): Promise<Figure[]> {
  const store = await open();
  try {
    const [a, b] = await startReplicas(store, ['a', 'b'], () => ({ controllers: false }));
    if (a === undefined || b === undefined) throw new Error('replicas did not start');
    const oneRate = await createRate([a], 'one');
    const oneWatch = await watchLatencies(a, a, 'one-watch');
    const twoRate = await createRate([a, b], 'two');
    const twoWatch = await watchLatencies(a, b, 'two-watch');
    await a.kill();
    await b.kill();
    const section = `replicas (${label})`;
    const floorName = '1 replica, same run';
    return [
      {
        section,
        name: 'creates/s, 16 in flight, 1 replica',
        value: oneRate,
        unit: '/s',
        higherIsBetter: true,
      },
      {
        section,
        name: 'creates/s, 16 in flight, 2 replicas',
        value: twoRate,
        unit: '/s',
        floor: oneRate,
        floorName,
        higherIsBetter: true,
      },
      { section, name: 'watch p99 (create → event), 1 replica', value: oneWatch.p99, unit: 'ms' },
      {
        section,
        name: 'watch p99 (create on A → event on B), 2 replicas',
        value: twoWatch.p99,
        unit: 'ms',
        floor: oneWatch.p99,
        floorName,
      },
    ];
  } finally {
    await store.close();
  }
}

export async function runReplicasBench(): Promise<Figure[]> {
  const figures = await figuresFor(async () => memoryStore(), 'memory store, in process');
  const skip = etcdStoreSkipReason();
  if (skip !== undefined) process.stderr.write(`replicas over etcd skipped: ${skip}\n`);
  else figures.push(...(await figuresFor(etcdStore, 'etcd, one local member')));
  return figures;
}
