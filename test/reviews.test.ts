/**
 * The review kinds over HTTP — TokenReview, SelfSubjectReview,
 * SubjectAccessReview, SelfSubjectAccessReview, LocalSubjectAccessReview and
 * SelfSubjectRulesReview: created without a name, answered with a status,
 * never stored (reads of their collections are 405 and discovery lists only
 * `create`), with the real server's validation codes and messages. Then
 * `kubectl auth can-i` and `kubectl auth whoami` against the Node host in
 * the kubernetes profile (kubectl's clients name the upstream groups),
 * skipped with the reason printed when kubectl is not installed.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from './support/host';
import { kubectl, kubectlSkipReason } from './support/kubectl';

const authn = '/apis/authentication.orch.io';
const authz = '/apis/authorization.orch.io/v1';

describe('review kinds over HTTP (profile orch)', () => {
  let host: TestHost;
  const asAdmin = () => ({ authorization: `Bearer ${host.token}` });
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    host.request('POST', path, { body, headers: { ...asAdmin(), ...headers } });

  beforeAll(async () => {
    host = await startTestHost({
      runtimeConfig: 'authentication.orch.io/v1beta1=true,authentication.orch.io/v1alpha1=true',
    });
  });
  afterAll(async () => {
    await host.close();
  });

  const collections: [string, string][] = [
    [`${authn}/v1`, 'tokenreviews'],
    [`${authn}/v1beta1`, 'selfsubjectreviews'],
    [`${authn}/v1alpha1`, 'selfsubjectreviews'],
    [authz, 'subjectaccessreviews'],
    [authz, 'selfsubjectaccessreviews'],
    [authz, 'localsubjectaccessreviews'],
    [authz, 'selfsubjectrulesreviews'],
  ];
  for (const [groupVersion, resource] of collections)
    it(`${groupVersion}/${resource}: discovery lists only create, reads are 405`, async () => {
      const discovery = await host.request('GET', groupVersion, { headers: asAdmin() });
      expect(discovery.status).toBe(200);
      const entry = (discovery.body.resources as { name: string; verbs: string[] }[]).find(
        (r) => r.name === resource,
      );
      expect(entry?.verbs).toEqual(['create']);
      const path =
        resource === 'localsubjectaccessreviews'
          ? `${groupVersion}/namespaces/default/${resource}`
          : `${groupVersion}/${resource}`;
      const list = await host.request('GET', path, { headers: asAdmin() });
      expect(list.status).toBe(405);
      expect(list.body.reason).toBe('MethodNotAllowed');
    });

  interface Case {
    name: string;
    path: string;
    body: Record<string, unknown>;
    status: number;
    /** Fields the answer must hold (objects: at least these fields; anything else: equal). */
    expect: Record<string, unknown>;
    /** Further assertions on the body. */
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    check?: (body: any) => void;
  }
  const sar = { apiVersion: 'authorization.orch.io/v1', kind: 'SubjectAccessReview' };
  const ssar = { apiVersion: 'authorization.orch.io/v1', kind: 'SelfSubjectAccessReview' };
  const lsar = { apiVersion: 'authorization.orch.io/v1', kind: 'LocalSubjectAccessReview' };
  const ssrr = { apiVersion: 'authorization.orch.io/v1', kind: 'SelfSubjectRulesReview' };
  const tr = { apiVersion: 'authentication.orch.io/v1', kind: 'TokenReview' };
  const cases: Case[] = [
    {
      name: 'SubjectAccessReview for a user without a binding is not allowed',
      path: `${authz}/subjectaccessreviews`,
      body: {
        ...sar,
        spec: { user: 'jane', resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'default' } },
      },
      status: 201,
      expect: {
        kind: 'SubjectAccessReview',
        apiVersion: 'authorization.orch.io/v1',
        spec: { resourceAttributes: { namespace: 'default', verb: 'get', resource: 'pods' }, user: 'jane' },
        status: { allowed: false },
      },
    },
    {
      name: 'SubjectAccessReview for a member of system:masters is allowed',
      path: `${authz}/subjectaccessreviews`,
      body: {
        ...sar,
        spec: {
          user: 'jane',
          groups: ['system:masters'],
          resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'default' },
        },
      },
      status: 201,
      expect: { status: { allowed: true } },
    },
    {
      name: 'SubjectAccessReview without attributes or subject',
      path: `${authz}/subjectaccessreviews`,
      body: { ...sar, spec: {} },
      status: 422,
      expect: {
        reason: 'Invalid',
        message:
          '.authorization.orch.io "" is invalid: [spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified, spec.user: Invalid value: "": at least one of user or group must be specified]',
      },
    },
    {
      name: 'SubjectAccessReview with both kinds of attributes',
      path: `${authz}/subjectaccessreviews`,
      body: {
        ...sar,
        spec: { groups: ['g'], resourceAttributes: {}, nonResourceAttributes: { path: '/api', verb: 'get' } },
      },
      status: 422,
      expect: {
        message:
          '.authorization.orch.io "" is invalid: spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/api", Verb:"get"}: cannot be specified in combination with resourceAttributes',
      },
    },
    {
      name: 'SelfSubjectAccessReview for a non-resource URL',
      path: `${authz}/selfsubjectaccessreviews`,
      body: { ...ssar, spec: { nonResourceAttributes: { path: '/healthz', verb: 'get' } } },
      status: 201,
      expect: {
        spec: { nonResourceAttributes: { path: '/healthz', verb: 'get' } },
        status: { allowed: true },
      },
    },
    {
      name: 'SelfSubjectAccessReview with a dry run gives the same answer',
      path: `${authz}/selfsubjectaccessreviews?dryRun=All`,
      body: {
        ...ssar,
        spec: { resourceAttributes: { verb: 'create', group: 'apps', resource: 'deployments' } },
      },
      status: 201,
      expect: { status: { allowed: true } },
    },
    {
      name: 'LocalSubjectAccessReview in its namespace',
      path: `${authz}/namespaces/default/localsubjectaccessreviews`,
      body: {
        ...lsar,
        spec: { user: 'jane', resourceAttributes: { namespace: 'default', verb: 'list', resource: 'pods' } },
      },
      status: 201,
      expect: { metadata: { namespace: 'default', creationTimestamp: null }, status: { allowed: false } },
    },
    {
      name: 'LocalSubjectAccessReview about another namespace',
      path: `${authz}/namespaces/default/localsubjectaccessreviews`,
      body: {
        ...lsar,
        spec: {
          user: 'jane',
          resourceAttributes: { namespace: 'orch-system', verb: 'list', resource: 'pods' },
        },
      },
      status: 422,
      expect: {
        message:
          '.authorization.orch.io "" is invalid: spec.resourceAttributes.namespace: Invalid value: "orch-system": must match metadata.namespace',
      },
    },
    {
      name: 'SelfSubjectRulesReview lists the rules of the admin (cluster-admin through system:masters)',
      path: `${authz}/selfsubjectrulesreviews`,
      body: { ...ssrr, spec: { namespace: 'default' } },
      status: 201,
      expect: { metadata: { creationTimestamp: null }, spec: {}, status: { incomplete: false } },
      check: (body) => {
        expect(body.status.resourceRules).toContainEqual({
          verbs: ['*'],
          apiGroups: ['*'],
          resources: ['*'],
        });
        expect(body.status.nonResourceRules).toContainEqual({ verbs: ['*'], nonResourceURLs: ['*'] });
      },
    },
    {
      name: 'SelfSubjectRulesReview without a namespace',
      path: `${authz}/selfsubjectrulesreviews`,
      body: { ...ssrr, spec: {} },
      status: 400,
      expect: { reason: 'BadRequest', message: 'no namespace on request' },
    },
    {
      name: 'TokenReview without a token',
      path: `${authn}/v1/tokenreviews`,
      body: { ...tr, spec: {} },
      status: 400,
      expect: { reason: 'BadRequest', message: 'token is required for TokenReview in authentication' },
    },
    {
      name: 'TokenReview of an unknown token',
      path: `${authn}/v1/tokenreviews`,
      body: { ...tr, spec: { token: 'not-a-token' } },
      status: 201,
      expect: { spec: { token: 'not-a-token' }, status: { user: {}, error: 'invalid bearer token' } },
    },
  ];
  for (const c of cases)
    it(c.name, async () => {
      const r = await post(c.path, c.body);
      expect(r.status, r.text).toBe(c.status);
      for (const [k, v] of Object.entries(c.expect))
        if (typeof v === 'object' && v !== null && !Array.isArray(v)) expect(r.body[k], k).toMatchObject(v);
        else expect(r.body[k], k).toEqual(v);
      c.check?.(r.body);
    });

  it('TokenReview of the administrator token names the administrator', async () => {
    const whoami = await post(`${authn}/v1beta1/selfsubjectreviews`, {
      apiVersion: 'authentication.orch.io/v1beta1',
      kind: 'SelfSubjectReview',
    });
    const r = await post(`${authn}/v1/tokenreviews`, { ...tr, spec: { token: host.token } });
    expect(r.status).toBe(201);
    expect(r.body.status.authenticated).toBe(true);
    expect(r.body.status.user.username).toBe(whoami.body.status.userInfo.username);
    expect(r.body.spec).toEqual({ token: host.token });
  });

  for (const version of ['v1beta1', 'v1alpha1'])
    it(`SelfSubjectReview ${version} answers with the requester and a creation time`, async () => {
      const r = await post(`${authn}/${version}/selfsubjectreviews`, {
        apiVersion: `authentication.orch.io/${version}`,
        kind: 'SelfSubjectReview',
      });
      expect(r.status, r.text).toBe(201);
      expect(r.body.apiVersion).toBe(`authentication.orch.io/${version}`);
      expect(r.body.kind).toBe('SelfSubjectReview');
      expect(r.body.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(typeof r.body.status.userInfo.username).toBe('string');
      expect(r.body.status.userInfo.username).not.toBe('');
    });
});

const skip = kubectlSkipReason();

describe.skipIf(skip !== undefined)('kubectl auth (profile kubernetes)', () => {
  let host: TestHost;
  const k = (...args: string[]) => kubectl(host.kubeconfigPath, args);
  beforeAll(async () => {
    host = await startTestHost({
      profile: 'kubernetes',
      runtimeConfig: 'authentication.k8s.io/v1beta1=true',
    });
  });
  afterAll(async () => {
    await host.close();
  });

  const canI: [string, string[]][] = [
    ['list pods', ['list', 'pods']],
    ['create deployments', ['create', 'deployments']],
    ['get /healthz', ['get', '/healthz']],
    ['delete secrets in another namespace', ['delete', 'secrets', '-n', 'kube-system']],
  ];
  for (const [name, args] of canI)
    it(`auth can-i ${name} prints yes under allowAll`, async () => {
      const r = await k('auth', 'can-i', ...args);
      expect(r.stderr).toBe('');
      expect(r.stdout.trim()).toBe('yes');
      expect(r.code).toBe(0);
    });

  it('auth can-i --list prints the wildcard rules', async () => {
    const r = await k('auth', 'can-i', '--list');
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs$/);
    expect(lines.some((l) => /^\*\.\*\s+\[\]\s+\[\]\s+\[\*\]$/.test(l))).toBe(true);
    expect(lines.some((l) => /^\s+\[\*\]\s+\[\]\s+\[\*\]$/.test(l))).toBe(true);
  });

  it('auth whoami names the kubeconfig user', async () => {
    const r = await k('auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toBe('');
  });
});
