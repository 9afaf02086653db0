/**
 * `apiserver_storage_objects` as the store changes: counted once, then moved
 * by the store's commits (creates and deletes, not updates), and counted
 * again when the store moved underneath without them (an import replaces
 * the state without a commit).
 */

import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApiServer, type ApiServer } from '../src/server/index';
import { createMemoryStorage } from '../src/storage/memory/memory-storage';
import type { Storage } from '../src/storage/types';

const token = 'object-counts-admin';
const CMS = '/api/v1/namespaces/default/configmaps';
let storage: Storage;
let api: ApiServer;

beforeAll(async () => {
  storage = createMemoryStorage();
  api = createApiServer({ storage, profile: 'kubernetes', adminTokens: [token], controllers: false });
  await api.ready;
});

afterAll(async () => {
  await api?.close();
});

async function send(method: string, path: string, body?: unknown): Promise<Response> {
  return api.fetch(
    new Request(`http://sandbox.test${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    }),
  );
}

async function configMaps(): Promise<number> {
  const text = await (await send('GET', '/metrics')).text();
  const line = text
    .split('\n')
    .find((l) => l.startsWith('apiserver_storage_objects{resource="configmaps"} '));
  return Number(line?.split(' ')[1]);
}

it('follows creates and deletes, and counts again after an import', async () => {
  const before = await configMaps();
  for (const name of ['c1', 'c2', 'c3'])
    expect((await send('POST', CMS, { metadata: { name }, data: { a: '1' } })).status).toBe(201);
  expect(await configMaps()).toBe(before + 3);
  expect((await send('PUT', `${CMS}/c1`, { metadata: { name: 'c1' }, data: { a: '2' } })).status).toBe(200);
  expect((await send('DELETE', `${CMS}/c2`)).status).toBe(200);
  expect(await configMaps()).toBe(before + 2);
  const saved = await storage.exportState();
  expect((await send('POST', CMS, { metadata: { name: 'c4' } })).status).toBe(201);
  expect(await configMaps()).toBe(before + 3);
  // The state as it was before c4, without a commit: the revision moved back, so the counter counts again.
  await storage.importState(saved);
  expect(await configMaps()).toBe(before + 2);
});
