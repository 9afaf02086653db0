/**
 * An informer of the official JavaScript client library
 * (@kubernetes/client-node 1.x: list, then watch) runs while another client
 * creates, updates and deletes 1,000 objects, with a forced history
 * compaction in between; it must end with exactly the server's state.
 */

import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  CoreV1Api,
  KubeConfig,
  makeInformer,
  type ListWatch,
  type V1ConfigMap,
} from '@kubernetes/client-node';
import { startTestHost, type TestHost } from './support/host';

let host: TestHost;
beforeAll(async () => {
  host = await startTestHost();
  await host.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'inf' } } });
});
afterAll(async () => {
  await host.close();
});

async function inParallel<T>(items: T[], width: number, fn: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await fn(items[next++] as T);
    }),
  );
}

it(
  'ends with exactly the server state after 1,000 objects churn and a compaction',
  { timeout: 120_000 },
  async () => {
    const kc = new KubeConfig();
    kc.loadFromFile(host.kubeconfigPath);
    const api = kc.makeApiClient(CoreV1Api);
    const informer = makeInformer<V1ConfigMap>(kc, '/api/v1/namespaces/inf/configmaps', () =>
      api.listNamespacedConfigMap({ namespace: 'inf' }),
    );
    const errors: unknown[] = [];
    informer.on('error', (e) => {
      errors.push(e);
      // The library's own advice: restart after an error.
      setTimeout(() => void informer.start(), 100);
    });
    await informer.start();

    const base = '/api/v1/namespaces/inf/configmaps';
    const names = Array.from({ length: 1000 }, (_, i) => `obj-${String(i).padStart(4, '0')}`);
    await inParallel(names.slice(0, 500), 16, (n) =>
      host.request('POST', base, { body: { metadata: { name: n }, data: { v: '0' } } }),
    );
    await host.api.compact();
    await inParallel(names.slice(500), 16, (n) =>
      host.request('POST', base, { body: { metadata: { name: n }, data: { v: '0' } } }),
    );
    await inParallel(
      names.filter((_, i) => i % 3 === 0),
      16,
      (n) =>
        host.request('PATCH', `${base}/${n}`, {
          body: { data: { v: '1' } },
          contentType: 'application/merge-patch+json',
        }),
    );
    await host.api.compact();
    await inParallel(
      names.filter((_, i) => i % 5 === 0),
      16,
      (n) => host.request('DELETE', `${base}/${n}`),
    );

    const server = await host.request('GET', base);
    const expected = new Map<string, string>(
      server.body.items.map((i: V1ConfigMap) => [i.metadata?.name ?? '', i.metadata?.resourceVersion ?? '']),
    );
    // Besides the churned objects, the root CA ConfigMap the publisher keeps in every namespace.
    expect([...expected.keys()].filter((n) => n !== 'orch-root-ca.crt')).toHaveLength(800);
    const cache = informer as unknown as ListWatch<V1ConfigMap>;
    const deadline = Date.now() + 60_000;
    const snapshot = () =>
      new Map(cache.list('inf').map((o) => [o.metadata?.name ?? '', o.metadata?.resourceVersion ?? '']));
    while (Date.now() < deadline) {
      const s = snapshot();
      if (s.size === expected.size && [...expected].every(([k, v]) => s.get(k) === v)) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(snapshot()).toEqual(expected);
    await informer.stop();
  },
);
