// The garbage collector against an in-process server, with its client's requests intercepted so that a race
// happens exactly where it can: between the collector's check of a dependent's owner and its delete. An owner
// deleted with Orphan takes its reference out of its dependents before it goes; a check that began before that
// must not delete the dependent, which no longer names it. A dependent whose owner is really gone still goes.
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../src/api/meta';
import { createClient, type ApiClient } from '../src/client/client';
import { namingProfile } from '../src/machinery/naming';
import { present } from './support/present';
import { createApiServer, type ApiServer } from '../src/server/index';
import { createMemoryStorage } from '../src/storage/memory/memory-storage';
import { garbageCollector } from '../src/controllers/garbage-collector';
import type { Controller } from '../src/controllers/types';

const token = 'garbage-collector-tests';
const profile = namingProfile('orch');
const configmaps = { group: '', version: 'v1', resource: 'configmaps', namespace: 'default' };

let api: ApiServer | undefined;
let gc: Controller | undefined;
afterEach(async () => {
  gc?.stop();
  await api?.close();
});

/** Runs before the collector's request that `when` picks is sent (once). */
type Hook = { when: (request: Request) => boolean; before: () => Promise<void> };

async function start(hook: Hook): Promise<{ admin: ApiClient; gc: Controller }> {
  api = createApiServer({ storage: createMemoryStorage(), controllers: false, adminTokens: [token] });
  await api.ready;
  const server = api;
  const headers = { authorization: `Bearer ${token}` };
  const admin = createClient({ baseUrl: 'https://orch.test', fetch: (r) => server.fetch(r), headers });
  let armed = true;
  const collectorClient = createClient({
    baseUrl: 'https://orch.test',
    headers,
    fetch: async (request) => {
      if (armed && hook.when(request)) {
        armed = false;
        await hook.before();
      }
      return server.fetch(request);
    },
  });
  gc = garbageCollector({
    client: collectorClient,
    profile,
    now: () => new Date(),
    clock: {
      now: () => new Date(),
      setTimer: (ms, fn) => {
        const handle = setTimeout(fn, ms);
        return () => clearTimeout(handle);
      },
    },
  });
  gc.start();
  return { admin, gc };
}

const ownerGet = (request: Request) =>
  request.method === 'GET' && new URL(request.url).pathname === '/api/v1/namespaces/default/configmaps/owner';

async function ownerAndDependent(admin: ApiClient): Promise<void> {
  const owner: KubeObject = await admin.create(configmaps, {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'owner' },
  });
  const ownerReferences = [
    { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata?.uid ?? '' },
  ];
  await admin.create(configmaps, {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'dep', ownerReferences },
  });
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('garbage collector', () => {
  it('keeps a dependent orphaned while its owner check was under way', async () => {
    let orphaned = false;
    const { admin, gc } = await start({
      // The check of the dependent's owner, made when the dependent appeared: before it reaches the server,
      // the owner is orphaned and deleted, as the orphan finalizer's handling does it (reference out, then gone).
      when: ownerGet,
      before: async () => {
        await admin.patch(
          { ...configmaps, name: 'dep' },
          { metadata: { ownerReferences: null } },
          'application/merge-patch+json',
        );
        await admin.delete({ ...configmaps, name: 'owner' });
        orphaned = true;
      },
    });
    await ownerAndDependent(admin);
    await until(async () => orphaned, 'the owner orphaned and deleted');
    await gc.idle();
    const dep = await present(admin, configmaps, 'dep');
    expect(dep?.metadata?.ownerReferences).toBeUndefined();
    expect(dep?.metadata?.name).toBe('dep');
  });

  it('deletes a dependent whose owner is gone and which still names it', async () => {
    const { admin, gc } = await start({ when: () => false, before: async () => undefined });
    await ownerAndDependent(admin);
    await gc.idle();
    await admin.delete({ ...configmaps, name: 'owner' });
    await until(
      async () => (await present(admin, configmaps, 'dep')) === undefined,
      'the dependent collected',
    );
    await gc.idle();
    expect(await present(admin, configmaps, 'owner')).toBeUndefined();
  });
});
