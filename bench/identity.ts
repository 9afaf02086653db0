/**
 * What identity costs on the Node host. Authorization: GET p50/p99 and
 * creates/s of a user who holds a RoleBinding, with RBAC on and 1,000 other
 * Roles and RoleBindings present, beside the same requests on a host with
 * `--authorization-mode=AlwaysAllow` (the floor), in one run.
 * Authentication: GET p50 as the administrator by bearer token beside the
 * same by client certificate over the same HTTPS connection pool.
 */

import { Agent } from 'undici';
import { startNodeHost, type NodeHost } from '../src/hosts/node/host';
import { summarize, type Figure } from './report';

const others = 1000;
const creates = 400;
const gets = 800;
const path = '/api/v1/namespaces/default/configmaps';
const userToken = 'bench-user-token';

function agent(host: NodeHost, cert?: { certPEM: string; keyPEM: string }): RequestInit['dispatcher'] {
  const a = new Agent({
    maxHeaderSize: 1 << 20,
    connect: {
      ...(host.caPEM !== undefined ? { ca: host.caPEM } : {}),
      ...(cert !== undefined ? { cert: cert.certPEM, key: cert.keyPEM } : {}),
    },
  });
  // Node's fetch takes an undici dispatcher; its typings name undici-types' class, the same shape.
  return a as unknown as RequestInit['dispatcher'];
}

async function send(
  host: NodeHost,
  dispatcher: RequestInit['dispatcher'],
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Response> {
  const init: RequestInit = { method, headers, dispatcher };
  if (body !== undefined) init.body = body;
  return fetch(`${host.url}${url}`, init);
}

async function seed(host: NodeHost, dispatcher: RequestInit['dispatcher']): Promise<void> {
  const admin = { authorization: `Bearer ${host.token}`, 'content-type': 'application/json' };
  const rbac = '/apis/rbac.authorization.orch.io/v1/namespaces/default';
  const role = (name: string, resources: string[]) =>
    JSON.stringify({
      apiVersion: 'rbac.authorization.orch.io/v1',
      kind: 'Role',
      metadata: { name },
      rules: [{ apiGroups: [''], resources, verbs: ['get', 'list', 'create'] }],
    });
  const binding = (name: string, roleName: string, user: string) =>
    JSON.stringify({
      apiVersion: 'rbac.authorization.orch.io/v1',
      kind: 'RoleBinding',
      metadata: { name },
      roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'Role', name: roleName },
      subjects: [{ apiGroup: 'rbac.authorization.orch.io', kind: 'User', name: user }],
    });
  for (let i = 0; i < others; i++) {
    const a = await send(host, dispatcher, 'POST', `${rbac}/roles`, admin, role(`other-${i}`, ['secrets']));
    const b = await send(
      host,
      dispatcher,
      'POST',
      `${rbac}/rolebindings`,
      admin,
      binding(`other-${i}`, `other-${i}`, `user-${i}`),
    );
    if (a.status !== 201 || b.status !== 201) throw new Error(`seeding answered ${a.status}/${b.status}`);
    await a.arrayBuffer();
    await b.arrayBuffer();
  }
  const r = await send(host, dispatcher, 'POST', `${rbac}/roles`, admin, role('bench', ['configmaps']));
  const b = await send(
    host,
    dispatcher,
    'POST',
    `${rbac}/rolebindings`,
    admin,
    binding('bench', 'bench', 'bench-user'),
  );
  if (r.status !== 201 || b.status !== 201) throw new Error(`seeding answered ${r.status}/${b.status}`);
  await r.arrayBuffer();
  await b.arrayBuffer();
}

function configMap(name: string): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name },
    data: { k: name },
  });
}

async function measure(
  host: NodeHost,
  dispatcher: RequestInit['dispatcher'],
  headers: Record<string, string>,
  prefix: string,
): Promise<{ rate: number; p50: number; p99: number }> {
  const start = performance.now();
  for (let i = 0; i < creates; i++) {
    const r = await send(
      host,
      dispatcher,
      'POST',
      path,
      { ...headers, 'content-type': 'application/json' },
      configMap(`${prefix}-${i}`),
    );
    if (r.status !== 201) throw new Error(`create answered ${r.status}: ${await r.text()}`);
    await r.arrayBuffer();
  }
  const rate = (creates / (performance.now() - start)) * 1000;
  const samples: number[] = [];
  for (let i = 0; i < gets; i++) {
    const t = performance.now();
    const r = await send(host, dispatcher, 'GET', `${path}/${prefix}-1`, headers);
    if (r.status !== 200) throw new Error(`get answered ${r.status}`);
    await r.arrayBuffer();
    samples.push(performance.now() - t);
  }
  return { rate, ...summarize(samples) };
}

async function latency(
  host: NodeHost,
  dispatcher: RequestInit['dispatcher'],
  headers: Record<string, string>,
) {
  const samples: number[] = [];
  for (let i = 0; i < gets; i++) {
    const t = performance.now();
    const r = await send(host, dispatcher, 'GET', `${path}/bench-1`, headers);
    if (r.status !== 200) throw new Error(`get answered ${r.status}`);
    await r.arrayBuffer();
    samples.push(performance.now() - t);
  }
  return summarize(samples);
}

export async function runIdentityBench(): Promise<Figure[]> {
  const tokenFile = `${userToken},bench-user,bench-uid\n`;
  const rbacHost = await startNodeHost({ port: 0, storage: 'memory', authentication: { tokenFile } });
  const allowHost = await startNodeHost({
    port: 0,
    storage: 'memory',
    authentication: { tokenFile },
    authorizationModes: ['AlwaysAllow'],
  });
  const section = 'identity (Node host, HTTPS, memory store)';
  const figures: Figure[] = [];
  try {
    const rbacPool = agent(rbacHost);
    const allowPool = agent(allowHost);
    await seed(rbacHost, rbacPool);
    await seed(allowHost, allowPool);
    const asUser = { authorization: `Bearer ${userToken}` };
    // Both hosts warm up first (JIT, connection pools), so neither pays for it in the figures.
    await measure(rbacHost, rbacPool, asUser, 'warm');
    await measure(allowHost, allowPool, asUser, 'warm');
    const rbac = await measure(rbacHost, rbacPool, asUser, 'bench');
    const allow = await measure(allowHost, allowPool, asUser, 'bench');
    const floorName = 'same requests, --authorization-mode=AlwaysAllow';
    figures.push(
      {
        section,
        name: `RBAC (${others} Roles+RoleBindings): creates/s`,
        value: rbac.rate,
        unit: '/s',
        floor: allow.rate,
        floorName,
        higherIsBetter: true,
      },
      {
        section,
        name: `RBAC (${others} Roles+RoleBindings): GET p50`,
        value: rbac.p50,
        unit: 'ms',
        floor: allow.p50,
        floorName,
      },
      {
        section,
        name: `RBAC (${others} Roles+RoleBindings): GET p99`,
        value: rbac.p99,
        unit: 'ms',
        floor: allow.p99,
        floorName,
      },
    );

    const identities = await rbacHost.api.identities();
    const cert = identities.find((i) => i.name === 'admin-cert');
    if (cert?.clientCertificatePEM !== undefined && cert.clientKeyPEM !== undefined) {
      const certPool = agent(rbacHost, { certPEM: cert.clientCertificatePEM, keyPEM: cert.clientKeyPEM });
      const byToken = await latency(rbacHost, rbacPool, { authorization: `Bearer ${rbacHost.token}` });
      const byCert = await latency(rbacHost, certPool, {});
      const tokenFloor = 'same GET as admin by bearer token';
      figures.push(
        {
          section,
          name: 'client certificate: GET p50',
          value: byCert.p50,
          unit: 'ms',
          floor: byToken.p50,
          floorName: tokenFloor,
        },
        {
          section,
          name: 'client certificate: GET p99',
          value: byCert.p99,
          unit: 'ms',
          floor: byToken.p99,
          floorName: tokenFloor,
        },
      );
    }
  } finally {
    await rbacHost.close();
    await allowHost.close();
  }
  return figures;
}
