/**
 * The server answers before its post-start writes are done, as the real
 * server serves while its `rbac/bootstrap-roles` hook runs: the admin
 * (`system:masters`) is answered at once on a fresh store, `/readyz` and its
 * per-check path report the unfinished hook, the full identities list (for
 * acting as identities that need the default policy) waits for readiness
 * while the admin's deferred list does not, and once the policy is written
 * `ready` resolves, `/readyz` passes and a non-admin is authorized by it.
 * The store holds the ClusterRoleBindings' writes until the test lets them
 * through, so nothing here depends on timing.
 */

import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApiServer, type ApiServer } from '../src/server/index';
import { createMemoryStorage } from '../src/storage/memory/memory-storage';
import type { Storage } from '../src/storage/types';
import { awaitedLater } from './support/awaited-later';

const token = 'post-start-admin';
let api: ApiServer;
let release: () => void = () => undefined;

beforeAll(async () => {
  const held = new Promise<void>((resolve) => (release = resolve));
  const inner = createMemoryStorage();
  const storage = new Proxy(inner, {
    get(target, name, receiver) {
      if (name === 'create')
        return async (key: string, object: Parameters<Storage['create']>[1]) => {
          if (key.includes('clusterrolebindings')) await held;
          return target.create(key, object);
        };
      const value: unknown = Reflect.get(target, name, receiver);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  api = createApiServer({ storage, profile: 'kubernetes', adminTokens: [token], controllers: false });
  await api.serving;
});

afterAll(async () => {
  release();
  await api?.close();
});

function send(path: string, bearer: string | undefined = token): Promise<Response> {
  return api.fetch(
    new Request(`http://sandbox.test${path}`, {
      headers: bearer !== undefined ? { authorization: `Bearer ${bearer}` } : {},
    }),
  );
}

it('answers the admin, reports the unfinished hook, and holds the full identities list until ready', async () => {
  const namespaces = await send('/api/v1/namespaces');
  expect(namespaces.status).toBe(200);
  const names = ((await namespaces.json()) as { items: { metadata: { name: string } }[] }).items.map(
    (n) => n.metadata.name,
  );
  expect(names).toEqual(expect.arrayContaining(['default', 'kube-system', 'kube-public']));

  for (const path of ['/api', '/apis', '/version', '/api/v1/namespaces/default/configmaps'])
    expect((await send(path)).status, path).toBe(200);

  const readyz = await send('/readyz?verbose');
  expect(readyz.status).toBe(500);
  const body = await readyz.text();
  expect(body).toContain('[-]poststarthook/rbac/bootstrap-roles failed: reason withheld');
  expect(body).toContain('[+]informer-sync ok');
  expect(body).toMatch(/readyz check failed\n$/);
  const one = await send('/readyz/poststarthook/rbac/bootstrap-roles');
  expect(one.status).toBe(500);
  expect(await one.text()).toContain('not finished');

  // The admin's token is answered at once; the full list waits for readiness.
  const deferred = await send('/sandbox/v1/identities?certificates=deferred');
  expect(deferred.status).toBe(200);
  let fullAnswered = false;
  const full = awaitedLater(
    send('/sandbox/v1/identities').then((r) => {
      fullAnswered = true;
      return r;
    }),
  );
  let readySettled = false;
  void api.ready.then(() => (readySettled = true));
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
  expect(fullAnswered).toBe(false);
  expect(readySettled).toBe(false);

  release();
  await api.ready;
  expect((await send('/readyz')).status).toBe(200);
  const listed = (await (await full).json()) as { items: { name: string; token?: string }[] };
  const alice = listed.items.find((i) => i.name === 'alice');
  expect(alice?.token).toBeDefined();
  // alice has no grants but the default policy's: discovery (system:discovery) is allowed, secrets are not.
  expect((await send('/api', alice?.token)).status).toBe(200);
  expect((await send('/api/v1/namespaces/default/secrets', alice?.token)).status).toBe(403);
});
