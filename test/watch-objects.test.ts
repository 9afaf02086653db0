/**
 * A client in the server's process reads a JSON watch's events as objects
 * beside the response (machinery/watch-objects.ts) instead of decoding its
 * bytes: it must see exactly what a client reading the bytes sees — the
 * plain form and the metadata-only form, every event type, in order — and
 * leaving the watch early must stop it on the server. A client over the
 * wire is not offered the objects.
 */

import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApiServer, type ApiServer } from '../src/server/index';
import { createMemoryStorage } from '../src/storage/memory/memory-storage';
import { createClient, type ApiClient } from '../src/client/client';
import type { WatchEvent } from '../src/api/meta';
import { watchEventsOf } from '../src/machinery/watch-objects';

const origin = 'http://in-process.test';
let api: ApiServer;
let token = '';
beforeAll(async () => {
  api = createApiServer({ storage: createMemoryStorage(), profile: 'kubernetes', advertisedURL: origin });
  await api.ready;
  token = (await api.identities()).find((i) => i.name === 'admin')?.token ?? '';
});
afterAll(async () => {
  await api.close();
});

/** Watch responses that carried their events as objects. */
let objectWatches = 0;

function client(inProcess: boolean): ApiClient {
  return createClient({
    baseUrl: origin,
    headers: { authorization: `Bearer ${token}` },
    fetch: async (request) => {
      const response = await api.fetch(request, inProcess ? { watchEventsAsObjects: true } : undefined);
      if (watchEventsOf(response) !== undefined) objectWatches++;
      return response;
    },
  });
}

const metadataOnly = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';
const cms = { group: '', version: 'v1', resource: 'configmaps', namespace: 'objects' };

async function collect(c: ApiClient, rv: string, count: number, accept?: string): Promise<WatchEvent[]> {
  const events: WatchEvent[] = [];
  const abort = new AbortController();
  // Only this test's objects (the namespace's own ConfigMap is published meanwhile).
  const query = { resourceVersion: rv, labelSelector: 'test=objects' };
  for await (const event of c.watch(cms, query, abort.signal, accept)) {
    events.push(event);
    if (events.length === count) break;
  }
  return events;
}

it('an in-process client reads the same events as objects as a client decoding the bytes', async () => {
  const admin = client(false);
  await admin.create({ group: '', version: 'v1', resource: 'namespaces' }, { metadata: { name: 'objects' } });
  const rv = (await admin.list(cms)).metadata?.resourceVersion ?? '';
  const watches = [
    collect(client(false), rv, 5),
    collect(client(true), rv, 5),
    collect(client(false), rv, 5, metadataOnly),
    collect(client(true), rv, 5, metadataOnly),
  ];
  await admin.create(cms, { metadata: { name: 'a', labels: { test: 'objects' } }, data: { k: 'ü\n"' } });
  await admin.create(cms, { metadata: { name: 'b', labels: { test: 'objects' } } });
  await admin.patch({ ...cms, name: 'a' }, { data: { k: '2' } }, 'application/merge-patch+json');
  await admin.delete({ ...cms, name: 'b' });
  await admin.delete({ ...cms, name: 'a' });
  const [bytes, objects, bytesMeta, objectsMeta] = await Promise.all(watches);
  expect(objectWatches).toBe(2);
  expect(bytes?.map((e) => `${e.type} ${(e.object.metadata as { name?: string }).name ?? ''}`)).toEqual([
    'ADDED a',
    'ADDED b',
    'MODIFIED a',
    'DELETED b',
    'DELETED a',
  ]);
  expect(objects).toEqual(bytes);
  expect(bytesMeta?.[0]?.object.kind).toBe('PartialObjectMetadata');
  expect(objectsMeta).toEqual(bytesMeta);

  // The same events replayed to one watcher at a time: the watch metrics count an in-process watcher's
  // events at the bytes the stream would have carried (the line's UTF-8 length, a non-ASCII value included).
  const sizes = async (): Promise<string> => {
    const text = await (await admin.raw('GET', '/metrics')).text();
    return text
      .split('\n')
      .filter((l) => l.startsWith('apiserver_watch_events_sizes_') && l.includes('kind="ConfigMap"'))
      .join('\n');
  };
  const delta = async (watch: () => Promise<WatchEvent[]>): Promise<number[]> => {
    const before = await sizes();
    await watch();
    const after = await sizes();
    const values = (t: string) => t.split('\n').map((l) => Number(l.split(' ').pop()));
    return values(after).map((v, i) => v - (values(before)[i] ?? 0));
  };
  for (const accept of [undefined, metadataOnly]) {
    const overBytes = await delta(() => collect(client(false), rv, 5, accept));
    const asObjects = await delta(() => collect(client(true), rv, 5, accept));
    expect(asObjects).toEqual(overBytes);
    expect(overBytes.some((v) => v > 0)).toBe(true);
  }
});

it('leaving an in-process watch early stops it on the server; a client over the wire gets no objects', async () => {
  const longRunning = async () => {
    const text = await (await client(false).raw('GET', '/metrics')).text();
    return text
      .split('\n')
      .filter((l) => l.startsWith('apiserver_longrunning_requests{') && l.includes('resource="configmaps"'))
      .reduce((sum, l) => sum + Number(l.split(' ').pop()), 0);
  };
  const before = await longRunning();
  const response = await api.fetch(
    new Request(`${origin}/api/v1/namespaces/objects/configmaps?watch=1`, {
      headers: { authorization: `Bearer ${token}` },
    }),
  );
  expect(watchEventsOf(response)).toBeUndefined();
  await response.body?.cancel();
  const c = client(true);
  const rv = (await c.list(cms)).metadata?.resourceVersion ?? '';
  const watching = collect(c, rv, 1);
  await expect.poll(longRunning).toBe(before + 1);
  await c.create(cms, { metadata: { name: 'early', labels: { test: 'objects' } } });
  expect((await watching).map((e) => e.type)).toEqual(['ADDED']);
  await expect.poll(longRunning).toBe(before);
});
