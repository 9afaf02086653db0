// The browser host's watch fan-out (`watchesAfterAnswer`): the in-process controllers' watches get their changes
// once the clients' requests pause (decision 0111), a client's watch in a later turn. Against an in-process server
// with its controllers running: a client's watch sees every change in order, and the garbage collector, whose
// informer now learns of changes behind the clients, still collects a dependent whose owner went — also while the
// client keeps asking without a pause, since the wait is bounded.
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../src/api/meta';
import { createClient, type ApiClient } from '../src/client/client';
import { present } from './support/present';
import { createApiServer, type ApiServer } from '../src/server/index';
import { createMemoryStorage } from '../src/storage/memory/memory-storage';

const token = 'watch-behind-clients-tests';
const configmaps = { group: '', version: 'v1', resource: 'configmaps', namespace: 'default' };

let api: ApiServer | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

async function start(): Promise<ApiClient> {
  api = createApiServer({ storage: createMemoryStorage(), adminTokens: [token], watchesAfterAnswer: true });
  await api.ready;
  const server = api;
  return createClient({
    baseUrl: 'https://orch.test',
    fetch: (r) => server.fetch(r),
    headers: { authorization: `Bearer ${token}` },
  });
}

async function ownerAndDependent(admin: ApiClient, suffix: string): Promise<void> {
  const owner: KubeObject = await admin.create(configmaps, {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `owner-${suffix}` },
  });
  const ownerReferences = [
    { apiVersion: 'v1', kind: 'ConfigMap', name: `owner-${suffix}`, uid: owner.metadata?.uid ?? '' },
  ];
  await admin.create(configmaps, {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `dep-${suffix}`, ownerReferences },
  });
}

describe('in-process watches behind the clients', () => {
  it('a client watch sees every change in order; the collector collects a dependent whose owner went', async () => {
    const admin = await start();
    // Watched from the list's revision: every change after it, whenever the watch's request is answered.
    const list = await admin.list(configmaps);
    const seen: string[] = [];
    const abort = new AbortController();
    const consumed = (async () => {
      const events = admin.watch(
        configmaps,
        { resourceVersion: list.metadata?.resourceVersion },
        abort.signal,
      );
      try {
        for await (const event of events) {
          const name = (event.object as KubeObject).metadata?.name ?? '';
          if (name.startsWith('owner-') || name.startsWith('dep-')) seen.push(`${event.type} ${name}`);
          if (seen.length === 4) return;
        }
      } catch (e) {
        if (!abort.signal.aborted) throw e;
      }
    })();
    await ownerAndDependent(admin, 'a');
    await admin.delete({ ...configmaps, name: 'owner-a' });
    const deadline = Date.now() + 10_000;
    while ((await present(admin, configmaps, 'dep-a')) !== undefined) {
      if (Date.now() > deadline) throw new Error('timed out waiting for the dependent to be collected');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await consumed;
    abort.abort();
    expect(seen).toEqual(['ADDED owner-a', 'ADDED dep-a', 'DELETED owner-a', 'DELETED dep-a']);
  });

  it('a client that never pauses holds the controllers back only for a while', async () => {
    const admin = await start();
    await ownerAndDependent(admin, 'b');
    await admin.delete({ ...configmaps, name: 'owner-b' });
    // Sixteen clients asking without a pause as long as the one the controllers wait for: the collector's
    // informer still learns of the owner's delete (the wait for a pause is bounded), and the dependent goes.
    // (Each asker lets the event loop turn between its requests, as a network client's would: the in-memory
    // server answers within microtasks, and a loop of them alone would starve every timer.)
    const deadline = Date.now() + 10_000;
    let gone = false;
    const asker = async (): Promise<void> => {
      while (!gone && Date.now() < deadline) {
        gone = (await present(admin, configmaps, 'dep-b')) === undefined || gone;
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
    };
    await Promise.all(Array.from({ length: 16 }, asker));
    expect(gone).toBe(true);
  });
});
