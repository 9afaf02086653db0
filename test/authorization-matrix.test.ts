/**
 * The authorization matrix: every verb × the default roles (cluster-admin,
 * admin, edit, view, system:basic-user, system:discovery,
 * system:public-info-viewer, and system:node through Node+RBAC) ×
 * resources with subresources, resource names and non-resource URLs. The
 * expected table is written by hand from the real v1.27 bootstrap roles —
 * not derived from the policy data it checks — so a wrong rule in either
 * the policy or the authorizer shows up as an escape. It runs first as a
 * unit test over in-memory listers holding the bootstrap policy, then (once
 * the server wires RBAC) over HTTP as SelfSubjectAccessReviews.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserInfo } from '../src/api/authn';
import type { KubeObject } from '../src/api/meta';
import type { AuthorizationAttributes } from '../src/auth/authorizer';
import { authorizerIndexes, createAuthorizer, type ServerAuthorizer } from '../src/auth/authz/index';
import { memoryLister } from '../src/auth/authz/memory-lister';
import { bootstrapPolicy, policyNames } from '../src/auth/policy/index';
import { namingProfile, type NamingProfile, type ProfileName } from '../src/machinery/naming';
import { fetchWithCA, startTestHost, type TestHost } from './support/host';

const READ = 'get list watch';
const WRITE = 'create update patch delete deletecollection';
const ALL8 = `${READ} ${WRITE}`;
const VERBS = [...ALL8.split(' '), 'impersonate', 'bind', 'escalate', 'approve'];
/** Verbs whose requests carry a name (the others address a collection). */
const NAMED = new Set(['get', 'update', 'patch', 'delete', 'impersonate', 'bind', 'escalate', 'approve']);

/** A row: group (by base name, renamed under the profile), resource[/sub], scope, and a fixed name if any. */
interface Row {
  key: string;
  group:
    | 'core'
    | 'apps'
    | 'batch'
    | 'rbac.authorization'
    | 'authorization'
    | 'authentication'
    | 'coordination'
    | 'certificates';
  resource: string;
  namespaced: boolean;
  name?: string;
}

function rows(signer: string): Row[] {
  const core = (resource: string, namespaced = true): Row => ({
    key: resource,
    group: 'core',
    resource,
    namespaced,
  });
  return [
    ...[
      'pods',
      'pods/log',
      'pods/exec',
      'pods/status',
      'pods/eviction',
      'secrets',
      'configmaps',
      'services',
    ].map((r) => core(r)),
    ...['services/proxy', 'serviceaccounts', 'serviceaccounts/token', 'resourcequotas', 'events'].map((r) =>
      core(r),
    ),
    { key: 'namespaces(team)', group: 'core', resource: 'namespaces', namespaced: true, name: 'team' },
    core('nodes', false),
    core('nodes/status', false),
    { key: 'deployments', group: 'apps', resource: 'deployments', namespaced: true },
    { key: 'deployments/scale', group: 'apps', resource: 'deployments/scale', namespaced: true },
    { key: 'deployments/status', group: 'apps', resource: 'deployments/status', namespaced: true },
    { key: 'jobs', group: 'batch', resource: 'jobs', namespaced: true },
    { key: 'roles', group: 'rbac.authorization', resource: 'roles', namespaced: true },
    { key: 'rolebindings', group: 'rbac.authorization', resource: 'rolebindings', namespaced: true },
    { key: 'clusterroles', group: 'rbac.authorization', resource: 'clusterroles', namespaced: false },
    {
      key: 'localsubjectaccessreviews',
      group: 'authorization',
      resource: 'localsubjectaccessreviews',
      namespaced: true,
    },
    {
      key: 'selfsubjectaccessreviews',
      group: 'authorization',
      resource: 'selfsubjectaccessreviews',
      namespaced: false,
    },
    {
      key: 'selfsubjectrulesreviews',
      group: 'authorization',
      resource: 'selfsubjectrulesreviews',
      namespaced: false,
    },
    {
      key: 'subjectaccessreviews',
      group: 'authorization',
      resource: 'subjectaccessreviews',
      namespaced: false,
    },
    { key: 'selfsubjectreviews', group: 'authentication', resource: 'selfsubjectreviews', namespaced: false },
    { key: 'tokenreviews', group: 'authentication', resource: 'tokenreviews', namespaced: false },
    { key: 'leases', group: 'coordination', resource: 'leases', namespaced: true },
    { key: 'csr', group: 'certificates', resource: 'certificatesigningrequests', namespaced: false },
    {
      key: 'csr/approval',
      group: 'certificates',
      resource: 'certificatesigningrequests/approval',
      namespaced: false,
    },
    { key: 'signers(client)', group: 'certificates', resource: 'signers', namespaced: false, name: signer },
    {
      key: 'signers(other)',
      group: 'certificates',
      resource: 'signers',
      namespaced: false,
      name: 'example.com/other',
    },
  ];
}

type Expectation = Record<string, string>;

const selfReviews: Expectation = {
  selfsubjectaccessreviews: 'create',
  selfsubjectrulesreviews: 'create',
  selfsubjectreviews: 'create',
};

const view: Expectation = {
  ...selfReviews,
  pods: READ,
  'pods/log': READ,
  'pods/status': READ,
  configmaps: READ,
  services: READ,
  serviceaccounts: READ,
  'namespaces(team)': READ,
  resourcequotas: READ,
  events: READ,
  deployments: READ,
  'deployments/scale': READ,
  'deployments/status': READ,
  jobs: READ,
};

const edit: Expectation = {
  ...view,
  pods: ALL8,
  'pods/exec': ALL8,
  'pods/eviction': 'create',
  secrets: ALL8,
  configmaps: ALL8,
  services: ALL8,
  'services/proxy': ALL8,
  serviceaccounts: `${ALL8} impersonate`,
  'serviceaccounts/token': 'create',
  events: ALL8,
  deployments: ALL8,
  'deployments/scale': ALL8,
  jobs: ALL8,
  leases: ALL8,
};

const admin: Expectation = { ...edit, roles: ALL8, rolebindings: ALL8, localsubjectaccessreviews: 'create' };

/** system:node's rules as the Node authorizer applies them; secrets, leases and tokens need related objects (none here). */
const node: Expectation = {
  ...selfReviews,
  pods: `${READ} create delete`,
  'pods/status': 'update patch',
  'pods/eviction': 'create',
  services: READ,
  events: 'create update patch',
  nodes: `${READ} create update patch`,
  'nodes/status': 'update patch',
  localsubjectaccessreviews: 'create',
  subjectaccessreviews: 'create',
  tokenreviews: 'create',
  csr: `${READ} create`,
};

interface Subject {
  name: string;
  user: UserInfo;
  /** In namespace `team` (and cluster-scoped rows); `*` for everything. */
  team: Expectation | '*';
  /** In namespace `other`. */
  other: Expectation | '*';
}

const authenticated = 'system:authenticated';
const subjects: Subject[] = [
  { name: 'cluster-admin', user: { username: 'ops', groups: [authenticated] }, team: '*', other: '*' },
  { name: 'admin', user: { username: 'alice', groups: [authenticated] }, team: admin, other: selfReviews },
  { name: 'edit', user: { username: 'bob', groups: [authenticated] }, team: edit, other: selfReviews },
  { name: 'view', user: { username: 'carol', groups: [authenticated] }, team: view, other: selfReviews },
  {
    name: 'basic-user',
    user: { username: 'dave', groups: [authenticated] },
    team: selfReviews,
    other: selfReviews,
  },
  {
    name: 'approver',
    user: { username: 'erin', groups: [authenticated] },
    team: { ...selfReviews, 'signers(client)': 'approve' },
    other: { ...selfReviews, 'signers(client)': 'approve' },
  },
  {
    name: 'anonymous',
    user: { username: 'system:anonymous', groups: ['system:unauthenticated'] },
    team: {},
    other: {},
  },
  {
    name: 'system:node',
    user: { username: 'system:node:n1', groups: ['system:nodes', authenticated] },
    team: node,
    other: node,
  },
];

const urls = [
  '/api',
  '/api/v1',
  '/apis',
  '/apis/apps/v1',
  '/version',
  '/version/',
  '/healthz',
  '/livez',
  '/readyz',
];
const discovery = [...urls, '/openapi/v2'];
const nonResource: Record<string, { get: string[]; all?: boolean }> = {
  'cluster-admin': { get: [], all: true },
  anonymous: { get: ['/version', '/version/', '/healthz', '/livez', '/readyz'] },
  serviceaccount: { get: [...discovery, '/.well-known/openid-configuration', '/openid/v1/jwks'] },
  authenticated: { get: discovery },
};
const paths = [
  ...discovery,
  '/metrics',
  '/logs',
  '/.well-known/openid-configuration',
  '/openid/v1/jwks',
  '/foo',
];

/** admin, edit and view as the aggregation controller fills them: rules of every role their selectors match, to a fixed point. */
function aggregated(roles: KubeObject[]): KubeObject[] {
  const out = roles.map((r) => structuredClone(r));
  for (let changed = true; changed;) {
    changed = false;
    for (const role of out) {
      const selectors = (
        role.aggregationRule as
          { clusterRoleSelectors?: { matchLabels?: Record<string, string> }[] } | undefined
      )?.clusterRoleSelectors;
      if (selectors === undefined) continue;
      const rules: unknown[] = [];
      for (const other of [...out].sort((a, b) =>
        (a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1,
      )) {
        if (other === role) continue;
        const labels = other.metadata?.labels ?? {};
        if (!selectors.some((s) => Object.entries(s.matchLabels ?? {}).every(([k, v]) => labels[k] === v)))
          continue;
        for (const r of (other.rules as unknown[] | null) ?? [])
          if (!rules.some((x) => JSON.stringify(x) === JSON.stringify(r))) rules.push(r);
      }
      if (JSON.stringify(rules) !== JSON.stringify(role.rules ?? [])) {
        role.rules = rules;
        changed = true;
      }
    }
  }
  return out;
}

/** The bindings the matrix adds to the bootstrap policy: one subject per role under test. */
function testBindings(profile: NamingProfile): {
  roleBindings: KubeObject[];
  clusterRoleBindings: KubeObject[];
} {
  const group = profile.suffixed('rbac.authorization');
  const apiVersion = `${group}/v1`;
  const subject = (name: string) => [{ kind: 'User', apiGroup: group, name }];
  const roleRef = (name: string) => ({ apiGroup: group, kind: 'ClusterRole', name });
  const rb = (role: string, user: string): KubeObject => ({
    apiVersion,
    kind: 'RoleBinding',
    metadata: { name: `matrix-${role}`, namespace: 'team' },
    roleRef: roleRef(role),
    subjects: subject(user),
  });
  const crb = (role: string, user: string): KubeObject => ({
    apiVersion,
    kind: 'ClusterRoleBinding',
    metadata: { name: `matrix-${user}` },
    roleRef: roleRef(role),
    subjects: subject(user),
  });
  return {
    roleBindings: [rb('admin', 'alice'), rb('edit', 'bob'), rb('view', 'carol')],
    clusterRoleBindings: [
      crb('cluster-admin', 'ops'),
      crb(policyNames(profile).approverRoles.apiserverClient, 'erin'),
    ],
  };
}

const signerOf: Record<ProfileName, string> = {
  kubernetes: 'kubernetes.io/kube-apiserver-client',
  orch: 'orch.io/apiserver-client',
};

function groupName(profile: NamingProfile, base: Row['group']): string {
  if (base === 'core') return '';
  if (base === 'apps' || base === 'batch') return base;
  return profile.suffixed(base);
}

/** Every (request, expected) pair of the matrix for one subject. */
function cases(
  profile: NamingProfile,
  s: Subject,
): { attrs: AuthorizationAttributes; allowed: boolean; label: string }[] {
  const out: { attrs: AuthorizationAttributes; allowed: boolean; label: string }[] = [];
  for (const row of rows(signerOf[profile.name])) {
    const [resource = '', subresource = ''] = row.resource.split('/');
    for (const ns of row.namespaced ? ['team', 'other'] : ['']) {
      const table = ns === 'other' ? s.other : s.team;
      for (const verb of VERBS) {
        const name = row.name ?? (NAMED.has(verb) ? 'x' : '');
        const allowed = table === '*' || (table[row.key] ?? '').split(' ').includes(verb);
        out.push({
          label: `${verb} ${row.key}${ns !== '' ? ` in ${ns}` : ''}`,
          allowed,
          attrs: {
            user: s.user,
            verb,
            resourceRequest: true,
            apiGroup: groupName(profile, row.group),
            apiVersion: 'v1',
            resource,
            subresource,
            namespace: ns,
            name,
            path: '',
          },
        });
      }
    }
  }
  const kind =
    s.name === 'cluster-admin' ? 'cluster-admin' : s.name === 'anonymous' ? 'anonymous' : 'authenticated';
  const allowedPaths = nonResource[kind] ?? { get: [] };
  for (const path of paths)
    for (const verb of ['get', 'post', 'put', 'delete']) {
      const allowed = allowedPaths.all === true || (verb === 'get' && allowedPaths.get.includes(path));
      const attrs: AuthorizationAttributes = {
        user: s.user,
        verb,
        resourceRequest: false,
        apiGroup: '',
        apiVersion: '',
        resource: '',
        subresource: '',
        namespace: '',
        name: '',
        path,
      };
      out.push({ label: `${verb} ${path}`, allowed, attrs });
    }
  return out;
}

function policyAuthorizer(profile: NamingProfile): ServerAuthorizer {
  const policy = bootstrapPolicy(profile);
  const extra = testBindings(profile);
  const clusterRoles = aggregated(policy.clusterRoles);
  const nodeRules = (clusterRoles.find((r) => r.metadata?.name === 'system:node')?.rules ?? []) as {
    verbs: string[];
  }[];
  return createAuthorizer(['Node', 'RBAC'], {
    profile,
    rbac: {
      roles: memoryLister(policy.roles.map((r) => r.role)),
      clusterRoles: memoryLister(clusterRoles),
      roleBindings: memoryLister(
        [...policy.roleBindings.map((r) => r.roleBinding), ...extra.roleBindings],
        authorizerIndexes.rolebindings,
      ),
      clusterRoleBindings: memoryLister(
        [...policy.clusterRoleBindings, ...extra.clusterRoleBindings],
        authorizerIndexes.clusterrolebindings,
      ),
    },
    node: { pods: memoryLister([], authorizerIndexes.pods), nodeRules },
  });
}

describe.each(['kubernetes', 'orch'] as const)('authorization matrix (%s profile, unit)', (profileName) => {
  const profile = namingProfile(profileName);
  const authorizer = policyAuthorizer(profile);
  // A service account: authenticated plus the issuer discovery URLs.
  const sa: Subject = {
    name: 'serviceaccount',
    user: {
      username: 'system:serviceaccount:team:bot',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:team', authenticated],
    },
    team: selfReviews,
    other: selfReviews,
  };

  it.each([...subjects, sa].map((s) => [s.name, s] as const))('%s: 0 escapes', async (_name, s) => {
    const escapes: string[] = [];
    const all = cases(profile, s);
    if (s.name === 'serviceaccount')
      for (const c of all)
        if (!c.attrs.resourceRequest)
          c.allowed =
            c.attrs.verb === 'get' && (nonResource.serviceaccount?.get ?? []).includes(c.attrs.path);
    for (const c of all) {
      const { decision } = await authorizer.authorize(c.attrs);
      if ((decision === 'Allow') !== c.allowed)
        escapes.push(`${c.allowed ? 'denied' : 'allowed'}: ${c.label}`);
    }
    expect(escapes).toEqual([]);
    expect(all.length).toBeGreaterThan(300);
  });
});

// Over HTTP: the same cases as SubjectAccessReviews the administrator sends about each user, through the
// real request path (authentication, authorization of the review itself, then Node and RBAC).
describe('authorization matrix (kubernetes profile, over HTTP)', () => {
  const profile = namingProfile('kubernetes');
  let host: TestHost;

  beforeAll(async () => {
    host = await startTestHost({ profile: 'kubernetes' });
    const auth = { authorization: `Bearer ${host.token}` };
    await host.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'team' } }, headers: auth });
    await host.request('POST', '/api/v1/namespaces', {
      body: { metadata: { name: 'other' } },
      headers: auth,
    });
    const extra = testBindings(profile);
    for (const b of extra.roleBindings)
      await host.request('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/team/rolebindings', {
        body: b,
        headers: auth,
      });
    for (const b of extra.clusterRoleBindings)
      await host.request('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
        body: b,
        headers: auth,
      });
  });
  afterAll(async () => {
    await host.close();
  });

  it.each(subjects.map((s) => [s.name, s] as const))('%s: 0 escapes', async (_name, s) => {
    const escapes: string[] = [];
    for (const c of cases(profile, s)) {
      const a = c.attrs;
      const spec = a.resourceRequest
        ? {
            resourceAttributes: {
              namespace: a.namespace,
              verb: a.verb,
              group: a.apiGroup,
              resource: a.resource,
              subresource: a.subresource,
              name: a.name,
            },
          }
        : { nonResourceAttributes: { path: a.path, verb: a.verb } };
      // A SubjectAccessReview by the administrator asks about each user (anonymous may not create reviews of its own).
      const res = await fetchWithCA(`${host.url}/apis/authorization.k8s.io/v1/subjectaccessreviews`, {
        method: 'POST',
        headers: { authorization: `Bearer ${host.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          kind: 'SubjectAccessReview',
          apiVersion: 'authorization.k8s.io/v1',
          spec: { ...spec, user: s.user.username, groups: s.user.groups },
        }),
      });
      const body = (await res.json()) as { status?: { allowed?: boolean } };
      if ((body.status?.allowed === true) !== c.allowed)
        escapes.push(`${c.allowed ? 'denied' : 'allowed'}: ${c.label}`);
    }
    expect(escapes).toEqual([]);
  });
});
