/**
 * The service-account signer's key is made on its first use, not at start (a fresh start then waits for no RSA
 * generation): kept in a setting of its own, made once however many first uses race (replicas on one store keep
 * the first stored, and each verifies the other's tokens), unchanged by a restart, carried by an export while an
 * import keeps the running server's, and an older store's key (kept in the identity state) still signs. Through
 * the HTTP API of in-process servers, as the hosts serve it.
 */

import { describe, expect, it } from 'vitest';
import type { ApiServer } from '../src/server/index';
import { closeSandboxServers, startSandboxServer } from './support/sandbox-servers';
import { createMemoryStorage } from '../src/storage/memory/memory-storage';
import { generateServiceAccountKey } from '../src/server/identity';
import { namingProfile } from '../src/machinery/naming';

const keySetting = 'sandbox.identity.serviceAccountKey';
const stateSetting = 'sandbox.identity';
const base = 'https://sandbox.test';
const learner = 'system:serviceaccount:default:sandbox-learner';

const start = startSandboxServer;

interface Listed {
  name: string;
  token?: string;
  serviceAccountToken?: string;
}

async function identities(api: ApiServer, deferred: boolean): Promise<Listed[]> {
  const query = deferred ? '?certificates=deferred' : '';
  const res = await api.fetch(new Request(`${base}/sandbox/v1/identities${query}`));
  expect(res.status).toBe(200);
  return ((await res.json()) as { items: Listed[] }).items;
}

const named = (list: Listed[], name: string): Listed | undefined => list.find((i) => i.name === name);

async function adminToken(api: ApiServer): Promise<string> {
  return named(await identities(api, true), 'admin')?.token ?? '';
}

/** The service-account issuer's published key set (read as the admin): one RS256 key, its modulus. */
async function jwksModulus(api: ApiServer): Promise<string> {
  const res = await api.fetch(
    new Request(`${base}/openid/v1/jwks`, {
      headers: { authorization: `Bearer ${await adminToken(api)}` },
    }),
  );
  expect(res.status).toBe(200);
  const body = (await res.json()) as { keys: { kty: string; alg: string; n: string }[] };
  expect(body.keys).toHaveLength(1);
  expect(body.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256' });
  return body.keys[0]?.n ?? '';
}

/** A bound token for the sandbox's service account (TokenRequest, as the admin). */
async function tokenRequest(api: ApiServer): Promise<string> {
  const res = await api.fetch(
    new Request(`${base}/api/v1/namespaces/default/serviceaccounts/sandbox-learner/token`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await adminToken(api)}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        apiVersion: 'authentication.orch.io/v1',
        kind: 'TokenRequest',
        spec: { expirationSeconds: 3600 },
      }),
    }),
  );
  expect(res.status).toBe(201);
  return ((await res.json()) as { status: { token: string } }).status.token;
}

/** The answer to a read of kube-system's Secrets with a bearer token: 403 names an authenticated user. */
async function readAs(api: ApiServer, token: string): Promise<{ status: number; message: string }> {
  const res = await api.fetch(
    new Request(`${base}/api/v1/namespaces/kube-system/secrets`, {
      headers: { authorization: `Bearer ${token}` },
    }),
  );
  return { status: res.status, message: ((await res.json()) as { message: string }).message };
}

/** A token of this server's key that authenticates as the sandbox's service account. */
async function expectAuthenticates(api: ApiServer, token: string): Promise<void> {
  expect(await readAs(api, token)).toMatchObject({
    status: 403,
    message: expect.stringContaining(`"${learner}"`),
  });
}

describe('the service-account signing key', () => {
  it('is not made at start; the deferred identities list leaves the token out until it exists', async () => {
    const storage = createMemoryStorage();
    const api = await start(storage);
    expect(await storage.getSetting(keySetting)).toBeUndefined();
    expect(await storage.getSetting<Record<string, unknown>>(stateSetting)).not.toHaveProperty(
      'serviceAccountKey',
    );
    expect(named(await identities(api, true), 'service-account')).toEqual({
      name: 'service-account',
      username: learner,
      groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
      serviceAccountToken: 'deferred',
    });
    // A token verified before the key exists fails (its key id names no key), and makes no key.
    const foreign = await start(createMemoryStorage());
    expect((await readAs(api, await tokenRequest(foreign))).status).toBe(401);
    expect(await storage.getSetting(keySetting)).toBeUndefined();

    // The full list signs the account's token: that makes the key, and the deferred list carries it since.
    const token = named(await identities(api, false), 'service-account')?.token ?? '';
    expect(await storage.getSetting(keySetting)).toBeDefined();
    await expectAuthenticates(api, token);
    expect(named(await identities(api, true), 'service-account')?.token).toEqual(expect.any(String));
  });

  it('is made once when replicas race their first uses, and each verifies the tokens of the other', async () => {
    const storage = createMemoryStorage();
    const first = await start(storage);
    const second = await start(storage);
    const third = await start(storage);
    // Signing (TokenRequest), publishing (the key set) and the identities list race on three replicas.
    const [fromFirst, n2, listed] = await Promise.all([
      tokenRequest(first),
      jwksModulus(second),
      identities(third, false),
    ]);
    const stored = await storage.getSetting<{ n: string }>(keySetting);
    expect(stored?.n).toBe(n2);
    expect(await jwksModulus(first)).toBe(n2);
    expect(await jwksModulus(third)).toBe(n2);
    await expectAuthenticates(second, fromFirst);
    await expectAuthenticates(first, named(listed, 'service-account')?.token ?? '');
    expect((await readAs(third, `${fromFirst.slice(0, -4)}AAAA`)).status).toBe(401);

    // A replica that never used the key verifies a token another one signed (it reads the stored key).
    const fourth = await start(storage);
    await expectAuthenticates(fourth, await tokenRequest(second));

    // Restarted, the replicas keep it: the key set and the tokens signed before.
    await closeSandboxServers();
    const again = await start(storage);
    expect(await jwksModulus(again)).toBe(n2);
    await expectAuthenticates(again, fromFirst);
  });

  it('is carried by an export, and an import keeps the running server its own key', async () => {
    const source = createMemoryStorage();
    const exporter = await start(source);
    const token = await tokenRequest(exporter);
    const exported = await (await exporter.fetch(new Request(`${base}/sandbox/v1/export`))).text();
    const importInto = async (api: ApiServer): Promise<void> => {
      const res = await api.fetch(
        new Request(`${base}/sandbox/v1/import`, { method: 'POST', body: exported }),
      );
      expect(res.status).toBe(200);
    };

    // Restored on a new store (a stopped server's import), the export's key signs and verifies as before.
    const restoredStore = createMemoryStorage();
    await restoredStore.importState(await source.exportState());
    const restored = await start(restoredStore);
    expect(await jwksModulus(restored)).toBe(await jwksModulus(exporter));
    await expectAuthenticates(restored, token);

    // Imported into a running server that never used its key: the key made for it stays, not the export's.
    const targetStore = createMemoryStorage();
    const target = await start(targetStore);
    await importInto(target);
    const own = await jwksModulus(target);
    expect(own).not.toBe(await jwksModulus(exporter));
    expect((await targetStore.getSetting<{ n: string }>(keySetting))?.n).toBe(own);
    await expectAuthenticates(target, await tokenRequest(target));
    expect((await readAs(target, token)).status).toBe(401);
  });

  it('of an older store, kept in the identity state, still signs and is not copied to a setting', async () => {
    const older = await generateServiceAccountKey(namingProfile('orch'));
    const storage = createMemoryStorage();
    await storage.setSetting(stateSetting, {
      adminToken: 'older-admin-token',
      aliceToken: 'older-alice-token',
      serviceAccountKey: older,
    });
    const api = await start(storage);
    // Known from the start: the deferred list carries the account's token at once.
    const token = named(await identities(api, true), 'service-account')?.token ?? '';
    await expectAuthenticates(api, token);
    expect(await jwksModulus(api)).toBe(older['n']);
    await expectAuthenticates(api, await tokenRequest(api));
    expect(await storage.getSetting(keySetting)).toBeUndefined();
  });
});
