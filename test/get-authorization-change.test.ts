/**
 * A GET served from memory (kept text, decision 0068/0087) still passes authorization on every request, and
 * the authorizer's remembered decisions (RBAC's, per user and request attributes, rbac.ts) never outlive the
 * RBAC objects they were read from: a user granted a Role by a RoleBinding reads a ConfigMap, and the very next
 * GET after the binding is deleted — or after the Role loses the verb — is Forbidden; granting it again
 * answers 200 at once.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiServer, type ApiServer } from '../src/server/index';
import { createMemoryStorage } from '../src/storage/memory/memory-storage';

const admin = 'get-authz-admin';
const alice = 'get-authz-alice';
const CM = '/api/v1/namespaces/default/configmaps/shared';
const RBAC = '/apis/rbac.authorization.k8s.io/v1/namespaces/default';

let api: ApiServer;

const call = async (token: string, method: string, path: string, body?: unknown) => {
  const r = await api.fetch(
    new Request(`http://sandbox.test${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    }),
  );
  return { status: r.status, text: await r.text() };
};

const aliceGets = async () => (await call(alice, 'GET', CM)).status;

const role = (verbs: string[]) => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'Role',
  metadata: { name: 'cm-reader', namespace: 'default' },
  rules: [{ apiGroups: [''], resources: ['configmaps'], verbs }],
});
const binding = {
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'RoleBinding',
  metadata: { name: 'alice-reads', namespace: 'default' },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'cm-reader' },
  subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice' }],
};

beforeAll(async () => {
  api = createApiServer({
    storage: createMemoryStorage(),
    profile: 'kubernetes',
    adminTokens: [admin],
    authentication: { tokenFile: `${alice},alice,alice-uid\n` },
    controllers: false,
  });
  await api.ready;
  const created = await call(admin, 'POST', '/api/v1/namespaces/default/configmaps', {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'shared' },
    data: { k: 'v' },
  });
  expect(created.status).toBe(201);
});

afterAll(async () => {
  await api.close();
});

describe('a GET from memory after an RBAC change', () => {
  it('is Forbidden on the first request after the binding is deleted, and allowed at once when granted again', async () => {
    expect(await aliceGets()).toBe(403);
    expect((await call(admin, 'POST', `${RBAC}/roles`, role(['get']))).status).toBe(201);
    expect((await call(admin, 'POST', `${RBAC}/rolebindings`, binding)).status).toBe(201);
    // Twice: the second is answered from the kept text and the remembered decision.
    expect(await aliceGets()).toBe(200);
    expect(await aliceGets()).toBe(200);

    expect((await call(admin, 'DELETE', `${RBAC}/rolebindings/alice-reads`)).status).toBe(200);
    const denied = await call(alice, 'GET', CM);
    expect(denied.status).toBe(403);
    expect(JSON.parse(denied.text)).toMatchObject({ kind: 'Status', reason: 'Forbidden', code: 403 });

    expect((await call(admin, 'POST', `${RBAC}/rolebindings`, binding)).status).toBe(201);
    expect(await aliceGets()).toBe(200);
  });

  it('is Forbidden on the first request after the Role loses the verb', async () => {
    expect(await aliceGets()).toBe(200);
    const current = JSON.parse((await call(admin, 'GET', `${RBAC}/roles/cm-reader`)).text) as {
      metadata: Record<string, unknown>;
    };
    const updated = { ...role(['list']), metadata: current.metadata };
    expect((await call(admin, 'PUT', `${RBAC}/roles/cm-reader`, updated)).status).toBe(200);
    expect(await aliceGets()).toBe(403);
  });
});
