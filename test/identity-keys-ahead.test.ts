/**
 * A host expecting an empty store (the browser's first install, `freshStoreExpected`) has the identity keys
 * generated before the store is read: on an empty store those keys are the state's (the service account's
 * token they sign authenticates), and on a store that holds a state they are dropped (the stored tokens and
 * keys stay, so a token handed out before still authenticates). In process, as the browser host starts it.
 */

import { afterEach, describe, expect, it } from 'vitest';
import { createApiServer, type ApiServer } from '../src/server/index';
import { createMemoryStorage } from '../src/storage/memory/memory-storage';
import type { Storage } from '../src/storage/types';

interface Listed {
  name: string;
  token?: string;
}

let servers: ApiServer[] = [];
afterEach(async () => {
  for (const s of servers) await s.close();
  servers = [];
});

function start(storage: Storage): ApiServer {
  const api = createApiServer({
    storage,
    profile: 'orch',
    openSandboxApi: true,
    controllers: false,
    freshStoreExpected: true,
  });
  servers.push(api);
  return api;
}

async function identities(api: ApiServer): Promise<Listed[]> {
  const res = await api.fetch(
    new Request('https://sandbox.test/sandbox/v1/identities?certificates=deferred'),
  );
  expect(res.status).toBe(200);
  return ((await res.json()) as { items: Listed[] }).items;
}

/** 403 for a token that authenticates (no rights on kube-system's Secrets), 401 for one that does not. */
async function statusAs(api: ApiServer, token: string): Promise<number> {
  const res = await api.fetch(
    new Request('https://sandbox.test/api/v1/namespaces/kube-system/secrets', {
      headers: { authorization: `Bearer ${token}` },
    }),
  );
  return res.status;
}

const tokenOf = (list: Listed[], name: string): string => list.find((i) => i.name === name)?.token ?? '';

describe('identity keys generated ahead', () => {
  it('are the fresh state, and are dropped when the store holds one', async () => {
    const storage = createMemoryStorage();
    const first = start(storage);
    const before = await identities(first);
    const account = tokenOf(before, 'service-account');
    expect(account).not.toBe('');
    expect(await statusAs(first, account)).toBe(403);
    await first.close();
    servers = [];

    // Started again on the same store.
    const again = start(storage);
    const after = await identities(again);
    expect(tokenOf(after, 'admin')).toBe(tokenOf(before, 'admin'));
    expect(await statusAs(again, account)).toBe(403);
    expect(await statusAs(again, `${account.slice(0, -4)}AAAA`)).toBe(401);
  });
});
