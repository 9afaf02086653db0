/**
 * A cluster-scoped resource addressed under a namespace path
 * (`/api/v1/namespaces/own/namespaces/victim`, `…/namespaces/own/nodes/x`,
 * a cluster-scoped custom resource, their subresources, the legacy `watch/`
 * and `proxy/` prefixes) has no route: every verb answers 404, as on the
 * real server. Authorization runs first and sees the namespace the path
 * names (the real request info does), so an identity the authorizer refuses
 * gets the real 403 and an allowed one the 404 — never a 2xx, never a
 * change. The matrix is every cluster-scoped resource discovery lists
 * (every served version, with its subresources) × every verb × the
 * administrator, alice (with the `admin` and `view` roles bound in her own
 * namespace and a Role there granting `delete` on namespaces) and an
 * anonymous client. What the authorizer allows is asked of the server
 * itself, as a SubjectAccessReview, so the expected code follows the real
 * order: authorize, then route.
 */

import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ChangeRecord } from '../src/storage/types';
import { fetchWithCA, startTestHost, type As, type TestHost } from './support/host';
import { crdBody, createEstablished } from './support/crd';

let host: TestHost;
let startRevision = 0;

const apiext = 'apiextensions.k8s.io';
const group = 'tenancy.example.com';

beforeAll(async () => {
  host = await startTestHost({ profile: 'kubernetes' });
  const setup: [string, string, unknown][] = [
    ['POST', '/api/v1/namespaces', { metadata: { name: 'own' } }],
    ['POST', '/api/v1/namespaces', { metadata: { name: 'victim' } }],
    ['POST', '/api/v1/nodes', { metadata: { name: 'victim' } }],
    ['POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', { metadata: { name: 'victim' }, rules: [] }],
    ...['admin', 'view'].map((role): [string, string, unknown] => [
      'POST',
      '/apis/rbac.authorization.k8s.io/v1/namespaces/own/rolebindings',
      {
        metadata: { name: `alice-${role}` },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
        subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' }],
      },
    ]),
    [
      'POST',
      '/apis/rbac.authorization.k8s.io/v1/namespaces/own/roles',
      {
        metadata: { name: 'delete-namespaces' },
        rules: [{ apiGroups: [''], resources: ['namespaces'], verbs: ['delete'] }],
      },
    ],
    [
      'POST',
      '/apis/rbac.authorization.k8s.io/v1/namespaces/own/rolebindings',
      {
        metadata: { name: 'alice-delete-namespaces' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'delete-namespaces' },
        subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' }],
      },
    ],
  ];
  for (const [method, path, body] of setup) {
    const r = await host.request(method, path, { body });
    if (r.status !== 201) throw new Error(`${method} ${path}: ${r.status} ${r.text}`);
  }
  await createEstablished(
    host,
    crdBody(
      {
        type: 'object',
        properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
      {
        group,
        plural: 'tenants',
        kind: 'Tenant',
        scope: 'Cluster',
        version: { subresources: { status: {} } },
        apiGroup: apiext,
      },
    ),
    apiext,
  );
  const tenant = await host.request('POST', `/apis/${group}/v1/tenants`, {
    body: { apiVersion: `${group}/v1`, kind: 'Tenant', metadata: { name: 'victim' }, spec: {} },
  });
  expect(tenant.status).toBe(201);
  startRevision = await host.storage.currentRevision();
}, 60_000);

afterAll(async () => {
  await host?.close();
});

/** A cluster-scoped resource (or subresource) of one served group/version, as discovery lists it. */
interface Target {
  prefix: string;
  group: string;
  version: string;
  resource: string;
  subresource: string;
}

async function clusterScopedTargets(): Promise<Target[]> {
  const versions: { prefix: string; group: string; version: string }[] = [
    { prefix: '/api/v1', group: '', version: 'v1' },
  ];
  const groups = await host.request('GET', '/apis');
  for (const g of groups.body.groups as { name: string; versions: { version: string }[] }[])
    for (const v of g.versions)
      versions.push({ prefix: `/apis/${g.name}/${v.version}`, group: g.name, version: v.version });
  const targets: Target[] = [];
  for (const gv of versions) {
    const list = await host.request('GET', gv.prefix);
    for (const r of list.body.resources as { name: string; namespaced: boolean }[]) {
      if (r.namespaced) continue;
      const [resource = '', subresource = ''] = r.name.split('/');
      targets.push({ ...gv, resource, subresource });
    }
  }
  return targets;
}

const verbs = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'] as const;
type TestVerb = (typeof verbs)[number];
const identities: { as: As; user?: { user: string; groups: string[] } }[] = [
  { as: 'admin' },
  { as: 'alice', user: { user: 'alice', groups: ['system:authenticated'] } },
  { as: 'anonymous', user: { user: 'system:anonymous', groups: ['system:unauthenticated'] } },
];

/** One request of the matrix: method, path under `namespaces/own/`, and the verb the authorizer sees. */
interface Probe {
  method: string;
  path: string;
  authzVerb: string;
  name: string;
  subresource: string;
  watch: boolean;
}

function probesOf(t: Target): Probe[] {
  const base = `${t.prefix}/namespaces/own/${t.resource}`;
  if (t.subresource !== '') {
    const path = `${base}/victim/${t.subresource}`;
    const named = (method: string, authzVerb: TestVerb): Probe => ({
      method,
      path: t.subresource === 'proxy' ? `${path}/x` : path,
      authzVerb,
      name: 'victim',
      subresource: t.subresource,
      watch: false,
    });
    return [
      named('GET', 'get'),
      named('POST', 'create'),
      named('PUT', 'update'),
      named('PATCH', 'patch'),
      named('DELETE', 'delete'),
    ];
  }
  const byVerb: Record<TestVerb, Probe> = {
    get: {
      method: 'GET',
      path: `${base}/victim`,
      authzVerb: 'get',
      name: 'victim',
      subresource: '',
      watch: false,
    },
    list: { method: 'GET', path: base, authzVerb: 'list', name: '', subresource: '', watch: false },
    watch: {
      method: 'GET',
      path: `${base}?watch=1`,
      authzVerb: 'watch',
      name: '',
      subresource: '',
      watch: true,
    },
    create: { method: 'POST', path: base, authzVerb: 'create', name: '', subresource: '', watch: false },
    update: {
      method: 'PUT',
      path: `${base}/victim`,
      authzVerb: 'update',
      name: 'victim',
      subresource: '',
      watch: false,
    },
    patch: {
      method: 'PATCH',
      path: `${base}/victim`,
      authzVerb: 'patch',
      name: 'victim',
      subresource: '',
      watch: false,
    },
    delete: {
      method: 'DELETE',
      path: `${base}/victim`,
      authzVerb: 'delete',
      name: 'victim',
      subresource: '',
      watch: false,
    },
    deletecollection: {
      method: 'DELETE',
      path: base,
      authzVerb: 'deletecollection',
      name: '',
      subresource: '',
      watch: false,
    },
  };
  const probes = verbs.map((v) => byVerb[v]);
  // The legacy prefixes address the same routes: `watch/` and `proxy/` before `namespaces/own/`.
  probes.push({
    method: 'GET',
    path: `${t.prefix}/watch/namespaces/own/${t.resource}`,
    authzVerb: 'watch',
    name: '',
    subresource: '',
    watch: true,
  });
  if (t.prefix === '/api/v1' && t.resource === 'nodes')
    probes.push({
      method: 'GET',
      path: `${t.prefix}/proxy/namespaces/own/nodes/victim/x`,
      authzVerb: 'proxy',
      name: 'victim',
      subresource: '',
      watch: false,
    });
  return probes;
}

/** Whether the authorizer allows the probe in namespace `own`, asked of the server as a SubjectAccessReview. */
async function allowed(
  who: { user: string; groups: string[] } | undefined,
  t: Target,
  p: Probe,
): Promise<boolean> {
  if (who === undefined) return true; // the administrator (system:masters)
  const r = await host.request('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
    body: {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: {
        user: who.user,
        groups: who.groups,
        resourceAttributes: {
          namespace: 'own',
          verb: p.authzVerb,
          group: t.group,
          version: t.version,
          resource: t.resource,
          subresource: p.subresource,
          name: p.name,
        },
      },
    },
  });
  expect(r.status).toBe(201);
  return r.body.status.allowed === true;
}

async function send(as: As, p: Probe): Promise<{ status: number; reason: string }> {
  const body =
    p.method === 'POST' || p.method === 'PUT'
      ? JSON.stringify({
          metadata: { name: p.method === 'POST' ? 'made-here' : 'victim', labels: { pwned: 'yes' } },
        })
      : p.method === 'PATCH'
        ? JSON.stringify({ metadata: { labels: { pwned: 'yes' } } })
        : undefined;
  const headers: Record<string, string> = {};
  if (body !== undefined)
    headers['content-type'] = p.method === 'PATCH' ? 'application/merge-patch+json' : 'application/json';
  const res = await fetchWithCA(`${host.url}${p.path}`, { method: p.method, headers, body }, as);
  if (p.watch && res.ok) {
    // A served watch would stream forever: its status is what the matrix needs.
    await res.body?.cancel();
    return { status: res.status, reason: '' };
  }
  const text = await res.text();
  let reason = '';
  try {
    reason = (JSON.parse(text) as { reason?: string }).reason ?? '';
  } catch {
    reason = '';
  }
  return { status: res.status, reason };
}

it('every cluster-scoped resource under a namespace path: 403 when refused, else 404; never served', async () => {
  const targets = await clusterScopedTargets();
  // The matrix covers what the issue found and its whole class: Namespaces (with status and finalize),
  // Nodes (with proxy), RBAC, CRDs and a cluster-scoped custom resource with its status.
  const names = new Set(
    targets.map((t) => `${t.resource}${t.subresource === '' ? '' : `/${t.subresource}`}`),
  );
  for (const n of [
    'namespaces',
    'namespaces/status',
    'namespaces/finalize',
    'nodes',
    'nodes/proxy',
    'clusterroles',
    'customresourcedefinitions',
    'tenants',
    'tenants/status',
  ])
    expect(names, n).toContain(n);

  const rows: string[] = [];
  let refusedAlice = 0;
  let routedAlice = 0;
  // The identities of one probe at once (they change nothing the others read); probes one after another.
  for (const t of targets)
    for (const p of probesOf(t))
      await Promise.all(
        identities.map(async (id) => {
          const expected = (await allowed(id.user, t, p)) ? 404 : 403;
          if (id.as === 'alice') {
            if (expected === 404) routedAlice++;
            else refusedAlice++;
          }
          const got = await send(id.as, p);
          const want = expected === 404 ? 'NotFound' : 'Forbidden';
          if (got.status !== expected || got.reason !== want)
            rows.push(
              `${id.as} ${p.method} ${p.path}: ${got.status} ${got.reason}, want ${expected} ${want}`,
            );
        }),
      );
  expect(rows).toEqual([]);
  // alice's namespaced grants reach both branches: refused ones (403) and allowed ones that still find no route.
  expect(routedAlice).toBeGreaterThan(0);
  expect(refusedAlice).toBeGreaterThan(0);

  // Nothing the matrix aimed at changed: no write touched a victim or created `made-here`.
  const changes: ChangeRecord[] = await host.storage.changesSince(startRevision);
  const touched = changes.filter((c) => /\/(victim|made-here)$/.test(c.key)).map((c) => `${c.type} ${c.key}`);
  expect(touched).toEqual([]);
  const victim = await host.request('GET', '/api/v1/namespaces/victim');
  expect(victim.status).toBe(200);
  expect(victim.body.status.phase).toBe('Active');
  expect(victim.body.metadata.labels?.pwned).toBeUndefined();
}, 300_000);

it("alice's namespaced grants do not reach another tenant's Namespace: the issue's reproduction", async () => {
  // With the Role granting delete on namespaces in `own`, the namespaced path is the only one she is authorized on.
  const direct = await host.request('DELETE', '/api/v1/namespaces/victim', { as: 'alice' });
  expect(direct.status).toBe(403);
  const viaOwn = await host.request('DELETE', '/api/v1/namespaces/own/namespaces/victim', { as: 'alice' });
  expect(viaOwn.status).toBe(404);
  expect(viaOwn.body).toMatchObject({ kind: 'Status', reason: 'NotFound', code: 404 });
  const list = await host.request('GET', '/api/v1/namespaces/own/namespaces', { as: 'alice' });
  expect(list.status).toBe(404);
  const still = await host.request('GET', '/api/v1/namespaces/victim');
  expect(still.status).toBe(200);
  expect(still.body.metadata.deletionTimestamp).toBeUndefined();
});
