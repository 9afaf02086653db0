/**
 * The sandbox OIDC issuer's key is made on its first use, not at start (a fresh start then waits for one RSA
 * generation, the service-account signer's): kept in a setting of its own, made once however many first uses
 * race (replicas on one store keep the first stored), unchanged by a restart, and an older store's key (kept
 * in the identity state) still signs. Through the sandbox API of in-process servers, as the hosts serve it.
 */

import { describe, expect, it } from 'vitest';
import type { ApiServer } from '../src/server/index';
import { closeSandboxServers, startSandboxServer } from './support/sandbox-servers';
import { createMemoryStorage } from '../src/storage/memory/memory-storage';
import { generateIssuerKey } from '../src/auth/oidc-issuer/index';
import { generateServiceAccountKey } from '../src/server/identity';
import { namingProfile } from '../src/machinery/naming';

const keySetting = 'sandbox.identity.oidcIssuerKey';
const stateSetting = 'sandbox.identity';

const start = startSandboxServer;

const base = 'https://sandbox.test';

async function jwksModulus(api: ApiServer): Promise<string> {
  const res = await api.fetch(new Request(`${base}/sandbox/v1/oidc/jwks`));
  expect(res.status).toBe(200);
  const body = (await res.json()) as { keys: { kty: string; alg: string; n: string }[] };
  expect(body.keys).toHaveLength(1);
  expect(body.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256' });
  return body.keys[0]?.n ?? '';
}

async function mint(api: ApiServer, sub: string): Promise<string> {
  const res = await api.fetch(
    new Request(`${base}/sandbox/v1/oidc/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sub, groups: ['learners'] }),
    }),
  );
  expect(res.status).toBe(200);
  return ((await res.json()) as { id_token: string }).id_token;
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

describe('the sandbox OIDC issuer key', () => {
  it('is made by its first use, once, kept across a restart, and its tokens authenticate', async () => {
    const storage = createMemoryStorage();
    const first = await start(storage);
    // Serving and ready without it (nor the service-account key: a fresh state holds the tokens only).
    expect(await storage.getSetting(keySetting)).toBeUndefined();
    expect(await storage.getSetting<Record<string, unknown>>(stateSetting)).not.toHaveProperty(
      'oidcIssuerKey',
    );

    // A second replica on the same store: the two first uses race, one key is kept.
    const second = await start(storage);
    const [n1, n2, token] = await Promise.all([jwksModulus(first), jwksModulus(second), mint(second, 'bob')]);
    const stored = await storage.getSetting<{ n: string }>(keySetting);
    expect(stored?.n).toBe(n1);
    expect(n2).toBe(n1);
    expect(await readAs(first, token)).toMatchObject({
      status: 403,
      message: expect.stringContaining('"oidc:bob"'),
    });
    expect((await readAs(first, `${token.slice(0, -4)}AAAA`)).status).toBe(401);

    await closeSandboxServers();
    const again = await start(storage);
    expect(await jwksModulus(again)).toBe(n1);
    expect((await readAs(again, token)).status).toBe(403);
  });

  it('of an older store, kept in the identity state, still signs and is not copied to a setting', async () => {
    // The identity state as an older server wrote it: both keys in it.
    const older = await generateIssuerKey();
    const storage = createMemoryStorage();
    await storage.setSetting(stateSetting, {
      adminToken: 'older-admin-token',
      aliceToken: 'older-alice-token',
      serviceAccountKey: await generateServiceAccountKey(namingProfile('orch')),
      oidcIssuerKey: older,
    });
    const api = await start(storage);
    expect(await jwksModulus(api)).toBe(older.n);
    expect((await readAs(api, await mint(api, 'carol'))).status).toBe(403);
    expect(await storage.getSetting(keySetting)).toBeUndefined();
  });
});
