/**
 * Watches over large collections and long timeouts (regressions of the
 * reliability issue): a watch without a resourceVersion over more than
 * 10,000 objects delivers every initial event and stays open, a connected
 * watcher survives a deletecollection of 12,000 objects, and a
 * timeoutSeconds beyond what one JavaScript timer holds keeps the watch
 * open. The objects are seeded into the host's store directly (fast); every
 * assertion is over HTTP.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from './support/host';
import { openWatch } from './support/watch';

async function seed(host: TestHost, namespace: string, count: number): Promise<void> {
  const r = await host.request('POST', '/api/v1/namespaces', {
    body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } },
  });
  expect(r.status).toBe(201);
  for (let i = 0; i < count; i++) {
    const name = `cm-${String(i).padStart(5, '0')}`;
    await host.storage.create(`/core/configmaps/${namespace}/${name}`, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace, uid: `uid-${i}`, creationTimestamp: '2026-01-01T00:00:00Z' },
      data: { i: String(i) },
    });
  }
}

describe.each(['memory', 'dexie'] as const)('a watch over 10,001 objects (%s store)', (storage) => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost({ storage });
    await seed(host, 'many', 10_001);
  }, 120_000);
  afterAll(() => host.close());

  it.each(['', '&resourceVersion=0'])('sends every initial event and stays open (watch=1%s)', async (rv) => {
    const count = (await host.request('GET', '/api/v1/namespaces/many/configmaps')).body.items
      .length as number;
    expect(count).toBeGreaterThan(10_000);
    const w = await openWatch(host.url, `/api/v1/namespaces/many/configmaps?watch=1${rv}`);
    expect(w.status).toBe(200);
    const events = await w.waitFor(count, 60_000);
    expect(events.filter((e) => e.type === 'ADDED')).toHaveLength(count);
    await host.request('POST', '/api/v1/namespaces/many/configmaps', {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `after${rv === '' ? '' : '-rv0'}` } },
    });
    const all = await w.waitFor(count + 1, 10_000);
    expect(all[count]?.type).toBe('ADDED');
    expect(all.some((e) => e.type === 'ERROR')).toBe(false);
    w.abort();
  });
});

describe('a connected watcher and a deletecollection of 12,000 objects (memory store)', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost({ storage: 'memory' });
    await seed(host, 'burst', 12_000);
  }, 120_000);
  afterAll(() => host.close());

  it('receives every DELETED event and no ERROR', async () => {
    const list = await host.request('GET', '/api/v1/namespaces/burst/configmaps?limit=1');
    const w = await openWatch(
      host.url,
      `/api/v1/namespaces/burst/configmaps?watch=1&resourceVersion=${list.body.metadata.resourceVersion}`,
    );
    const r = await host.request('DELETE', '/api/v1/namespaces/burst/configmaps');
    expect(r.status).toBe(200);
    const events = await w.waitFor(12_000, 60_000);
    // The root CA ConfigMap the publisher keeps in the namespace goes too (and comes back): not counted.
    const deleted = events.filter(
      (e) => e.type === 'DELETED' && e.object.metadata.name !== 'orch-root-ca.crt',
    );
    expect(deleted).toHaveLength(12_000);
    expect(events.some((e) => e.type === 'ERROR')).toBe(false);
    w.abort();
  }, 120_000);
});

describe('timeoutSeconds beyond one timer', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost();
  });
  afterAll(() => host.close());

  it.each(['2147484', '4294967296'])('keeps a watch with timeoutSeconds=%s open', async (timeout) => {
    const rv = (await host.request('GET', '/api/v1/namespaces/default/configmaps')).body.metadata
      .resourceVersion;
    const w = await openWatch(
      host.url,
      `/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${rv}&timeoutSeconds=${timeout}`,
    );
    expect(w.status).toBe(200);
    const name = `t-${timeout}`;
    await host.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } },
    });
    const events = await w.waitFor(1);
    expect(events.map((e) => [e.type, e.object.metadata.name])).toEqual([['ADDED', name]]);
    w.abort();
  });
});
