/**
 * The X.509 library and the cluster CA are off the path to a fresh
 * server's first response: a bare server (the core's `createApiServer`, as
 * the browser host starts it, without controllers or an advertised address
 * so that nothing asks for the CA) answers requests with neither, the
 * first CertificateSigningRequest write loads the library and is validated;
 * a server started as the browser host starts it publishes cluster-info and
 * the root CA ConfigMap with the CA it creates beside its start, and a
 * request is signed by that CA; a store written before the CA became lazy
 * keeps its CA. The requests go to `createApiServer` in process because the
 * Node host loads the library at its own start.
 * This file never loads the library through the server's own door
 * (`x509Library`), so the server's load is what is tested; the CSRs are made
 * with the test support's own import of the library.
 */

import { afterEach, describe, expect, it } from 'vitest';
import { X509Certificate } from '../src/auth/pki/x509.lazy';
import { x509Library } from '../src/auth/pki/x509';
import { clusterInfoConfigKey } from '../src/machinery/bootstrap-token';
import { namingProfile } from '../src/machinery/naming';
import { createApiServer, type ApiServer } from '../src/server/index';
import { createMemoryStorage } from '../src/storage/memory/memory-storage';
import type { Storage } from '../src/storage/types';
import { createTestCSR } from './support/csr';

const profile = namingProfile('orch');
const token = 'x509-lazy-admin';
const group = profile.suffixed('certificates');
const csrs = `/apis/${group}/v1/certificatesigningrequests`;
const caSetting = 'sandbox.identity.clusterCA';

let servers: ApiServer[] = [];
afterEach(async () => {
  for (const s of servers) await s.close();
  servers = [];
});

function start(storage: Storage, browserLike: boolean): ApiServer {
  const api = createApiServer({
    storage,
    profile: 'orch',
    adminTokens: [token],
    openSandboxApi: true,
    authentication: { bootstrapTokens: true },
    ...(browserLike ? { advertisedURL: 'https://sandbox.test' } : { controllers: false }),
  });
  servers.push(api);
  return api;
}

async function send(
  api: ApiServer,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await api.fetch(
    new Request(`https://sandbox.test${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    }),
  );
  const text = await res.text();
  return {
    status: res.status,
    body: text.startsWith('{') ? (JSON.parse(text) as Record<string, unknown>) : {},
  };
}

function csrBody(name: string, request: string) {
  return {
    apiVersion: `${group}/v1`,
    kind: 'CertificateSigningRequest',
    metadata: { name },
    spec: {
      request,
      signerName: profile.signers.apiserverClient,
      usages: ['digital signature', 'client auth'],
    },
  };
}

/** Polls until `get` returns a value (the controllers and the CA's creation run after the start). */
async function eventually<T>(what: string, get: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const value = await get();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`${what} never happened`);
}

const dataOf = (o: Record<string, unknown>): Record<string, string> =>
  (o['data'] as Record<string, string> | undefined) ?? {};

describe('the lazily loaded X.509 library and cluster CA', () => {
  it('a fresh server answers without them; the first request write loads the library and is validated', async () => {
    const storage = createMemoryStorage();
    const api = start(storage, false);
    await api.ready;
    expect((await send(api, 'GET', '/version')).status).toBe(200);
    expect((await send(api, 'GET', '/api/v1/namespaces')).status).toBe(200);
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c1' } };
    expect((await send(api, 'POST', '/api/v1/namespaces/default/configmaps', cm)).status).toBe(201);
    expect(x509Library.loaded).toBe(false);
    expect(await storage.getSetting(caSetting)).toBeUndefined();
    // A page's first call: the identities with their tokens, the certificate marked as not issued yet.
    const deferred = await send(api, 'GET', '/sandbox/v1/identities?certificates=deferred');
    expect(deferred.status).toBe(200);
    const items = deferred.body['items'] as Record<string, unknown>[];
    expect(items.find((i) => i['name'] === 'admin')?.['token']).toEqual(expect.any(String));
    expect(items.find((i) => i['name'] === 'admin-cert')).toMatchObject({ clientCertificate: 'deferred' });
    expect(items.find((i) => i['name'] === 'admin-cert')?.['clientCertificatePEM']).toBeUndefined();
    expect((await send(api, 'GET', '/sandbox/v1/identities?certificates=yes')).status).toBe(400);
    expect(x509Library.loaded).toBe(false);
    expect(await storage.getSetting(caSetting)).toBeUndefined();

    const csr = await createTestCSR({ cn: 'alice', orgs: ['dev'] });
    const bad = await send(api, 'POST', csrs, csrBody('bad', csr.badSignature));
    expect(bad.status).toBe(422);
    expect(String(bad.body['message'])).toContain('x509: ECDSA verification failure');
    expect(x509Library.loaded).toBe(true);
    // The subject-restriction plugin reads the request too, and refuses system:masters.
    const masters = await createTestCSR({ cn: 'root', orgs: ['system:masters'] });
    const refused = await send(api, 'POST', csrs, csrBody('masters', masters.request));
    expect(refused.status).toBe(403);
    expect(String(refused.body['message'])).toContain('system:masters group is not allowed');
    expect((await send(api, 'POST', csrs, csrBody('good', csr.request))).status).toBe(201);
    // Reading and validating requests needs no CA: it is still not created.
    expect(await storage.getSetting(caSetting)).toBeUndefined();
  });

  it('a browser-like start publishes the CA it creates after the start, and signs with it', async () => {
    const storage = createMemoryStorage();
    const api = start(storage, true);
    await api.ready;
    expect((await send(api, 'GET', '/api/v1/namespaces')).status).toBe(200);
    // cluster-info waits for the CA, which is created beside the start; no readiness check waits for it.
    const info = await eventually('cluster-info', async () => {
      const r = await send(
        api,
        'GET',
        `/api/v1/namespaces/${profile.publicNamespace}/configmaps/cluster-info`,
      );
      return r.status === 200 ? r : undefined;
    });
    expect((await send(api, 'GET', '/readyz')).status).toBe(200);
    const saved = await storage.getSetting<{ certificatePEM: string }>(caSetting);
    expect(saved?.certificatePEM).toContain('BEGIN CERTIFICATE');
    const caPEM = saved?.certificatePEM ?? '';
    expect(dataOf(info.body)[clusterInfoConfigKey(profile)]).toContain(
      `certificate-authority-data: ${Buffer.from(caPEM).toString('base64')}`,
    );
    const rootCA = await eventually('the root CA ConfigMap', async () => {
      const r = await send(api, 'GET', `/api/v1/namespaces/default/configmaps/${profile.rootCAConfigMap}`);
      return r.status === 200 ? r.body : undefined;
    });
    expect(dataOf(rootCA)['ca.crt']).toBe(caPEM);

    const csr = await createTestCSR({ cn: 'alice', orgs: ['dev'] });
    expect((await send(api, 'POST', csrs, csrBody('alice', csr.request))).status).toBe(201);
    const current = (await send(api, 'GET', `${csrs}/alice`)).body;
    const approval = await send(api, 'PUT', `${csrs}/alice/approval`, {
      ...current,
      status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Test', message: 'approved' }] },
    });
    expect(approval.status).toBe(200);
    const certificate = await eventually('the signed certificate', async () => {
      const r = await send(api, 'GET', `${csrs}/alice`);
      const c = (r.body['status'] as { certificate?: string } | undefined)?.certificate;
      return c !== undefined && c !== '' ? Buffer.from(c, 'base64').toString('utf8') : undefined;
    });
    const issued = new X509Certificate(certificate);
    const ca = new X509Certificate(caPEM);
    expect(issued.issuer).toBe(ca.subject);
    expect(await issued.verify({ publicKey: ca.publicKey, signatureOnly: true })).toBe(true);
  });

  it('a store written before the CA became lazy keeps its CA', async () => {
    const first = createMemoryStorage();
    const before = start(first, false);
    await before.ready;
    const identity = await first.getSetting<Record<string, unknown>>('sandbox.identity');
    // The identity state's old form: the CA inside it, no setting of its own.
    const old = {
      certificatePEM: (await createTestCAPEM(before, first)).certificatePEM,
      privateKeyPEM: (await first.getSetting<{ privateKeyPEM: string }>(caSetting))?.privateKeyPEM,
    };
    const storage = createMemoryStorage();
    await storage.setSetting('sandbox.identity', { ...identity, clusterCA: old });
    const api = start(storage, true);
    await api.ready;
    const rootCA = await eventually('the root CA ConfigMap', async () => {
      const r = await send(api, 'GET', `/api/v1/namespaces/default/configmaps/${profile.rootCAConfigMap}`);
      return r.status === 200 ? r.body : undefined;
    });
    expect(dataOf(rootCA)['ca.crt']).toBe(old.certificatePEM);
    expect(await storage.getSetting(caSetting)).toBeUndefined();
  });
});

/** Makes the first server create its CA (through the identities list, which issues a client certificate from it). */
async function createTestCAPEM(api: ApiServer, storage: Storage): Promise<{ certificatePEM: string }> {
  expect((await send(api, 'GET', '/sandbox/v1/identities')).status).toBe(200);
  const saved = await storage.getSetting<{ certificatePEM: string }>(caSetting);
  expect(saved?.certificatePEM).toContain('BEGIN CERTIFICATE');
  return { certificatePEM: saved?.certificatePEM ?? '' };
}
