/**
 * The service-account controllers through the HTTP API of the Node host:
 * the serviceaccount controller (a `default` account in every namespace,
 * put back when deleted), the root-ca-cert-publisher (`orch-root-ca.crt`
 * holding the host's CA, restored when changed or deleted) and the tokens
 * controller (token Secrets populated with a token that authenticates,
 * deleted with their account or when the account is missing, dropped from
 * the account's `secrets` list when deleted); then kubectl in the
 * kubernetes profile (skipped, with the reason printed, without kubectl).
 * Controllers act asynchronously: each check polls with a bounded wait.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost, type TestResponse } from './support/host';
import { kubectl, kubectlSkipReason } from './support/kubectl';

/** Polls `read` until `done` holds (bounded: about ten seconds), then returns the last answer. */
async function eventually(
  read: () => Promise<TestResponse>,
  done: (r: TestResponse) => boolean,
): Promise<TestResponse> {
  let r = await read();
  for (let i = 0; i < 500 && !done(r); i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    r = await read();
  }
  return r;
}

const decode = (value: string | undefined): string => Buffer.from(value ?? '', 'base64').toString('utf8');

describe('service-account controllers (profile orch)', () => {
  let host: TestHost;
  const get = (path: string) => () => host.request('GET', path);
  const namespace = async (name: string): Promise<void> => {
    const r = await host.request('POST', '/api/v1/namespaces', { body: { metadata: { name } } });
    expect(r.status, r.text).toBe(201);
  };
  const account = async (ns: string, name: string, extra: object = {}): Promise<string> => {
    const r = await host.request('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, {
      body: { metadata: { name }, ...extra },
    });
    expect(r.status, r.text).toBe(201);
    return r.body.metadata.uid as string;
  };
  const tokenSecret = async (ns: string, name: string, annotations: Record<string, string>) => {
    const r = await host.request('POST', `/api/v1/namespaces/${ns}/secrets`, {
      body: { metadata: { name, annotations }, type: 'orch.io/service-account-token' },
    });
    expect(r.status, r.text).toBe(201);
  };

  beforeAll(async () => {
    host = await startTestHost();
    await namespace('sa-tokens');
  });
  afterAll(() => host.close());

  it.each(['default', 'orch-system', 'orch-public'])(
    'the initial namespace %s has a default account',
    async (ns) => {
      const r = await eventually(
        get(`/api/v1/namespaces/${ns}/serviceaccounts/default`),
        (r) => r.status === 200,
      );
      expect(r.status).toBe(200);
    },
  );

  it('the sandbox account created at start is still there', async () => {
    expect(
      (await host.request('GET', '/api/v1/namespaces/default/serviceaccounts/sandbox-learner')).status,
    ).toBe(200);
  });

  it('a new namespace gets a default account, and gets it back after deleting it', async () => {
    await namespace('sa-default');
    const path = '/api/v1/namespaces/sa-default/serviceaccounts/default';
    const first = await eventually(get(path), (r) => r.status === 200);
    expect(first.status).toBe(200);
    expect((await host.request('DELETE', path)).status).toBe(200);
    const again = await eventually(
      get(path),
      (r) => r.status === 200 && r.body.metadata.uid !== first.body.metadata.uid,
    );
    expect(again.status).toBe(200);
    expect(again.body.metadata.uid).not.toBe(first.body.metadata.uid);
  });

  describe('the root CA ConfigMap', () => {
    const path = '/api/v1/namespaces/sa-ca/configmaps/orch-root-ca.crt';
    const published = (r: TestResponse) =>
      r.status === 200 &&
      r.body.data?.['ca.crt'] === host.caPEM &&
      Object.keys(r.body.data ?? {}).length === 1 &&
      (r.body.metadata.annotations?.['orch.io/description'] ?? '') !== '';

    beforeAll(() => namespace('sa-ca'));

    it('appears in a new namespace with the host CA and its description', async () => {
      const r = await eventually(get(path), published);
      expect(r.status).toBe(200);
      expect(r.body.data['ca.crt']).toBe(host.caPEM);
      expect(r.body.metadata.annotations['orch.io/description']).toBe(
        'Contains a CA bundle that can be used to verify the orch-apiserver when using internal endpoints such as ' +
          'the internal service IP or orch.default.svc. No other usage is guaranteed across distributions of Orch clusters.',
      );
    });

    const tampering: { name: string; change: () => Promise<TestResponse> }[] = [
      {
        name: 'changed data is put back',
        change: () =>
          host.request('PATCH', path, {
            body: { data: { 'ca.crt': 'not a CA', extra: 'x' } },
            contentType: 'application/merge-patch+json',
          }),
      },
      {
        name: 'a removed description is put back',
        change: () =>
          host.request('PATCH', path, {
            body: { metadata: { annotations: { 'orch.io/description': null } } },
            contentType: 'application/merge-patch+json',
          }),
      },
      { name: 'a deleted ConfigMap is created again', change: () => host.request('DELETE', path) },
    ];
    it.each(tampering)('$name', async ({ change }) => {
      expect(published(await eventually(get(path), published))).toBe(true);
      const changed = await change();
      expect(changed.status, changed.text).toBe(200);
      const r = await eventually(get(path), published);
      expect(published(r)).toBe(true);
    });
  });

  it('populates a token Secret with ca.crt, namespace and a token that authenticates as the account', async () => {
    const uid = await account('sa-tokens', 'robot');
    await tokenSecret('sa-tokens', 'robot-token', { 'orch.io/service-account.name': 'robot' });
    const r = await eventually(
      get('/api/v1/namespaces/sa-tokens/secrets/robot-token'),
      (r) => r.status === 200 && r.body.data?.token !== undefined,
    );
    expect(r.status).toBe(200);
    expect(r.body.metadata.annotations['orch.io/service-account.uid']).toBe(uid);
    expect(decode(r.body.data['ca.crt'])).toBe(host.caPEM);
    expect(decode(r.body.data.namespace)).toBe('sa-tokens');

    const token = decode(r.body.data.token);
    const review = await host.request('POST', '/apis/authentication.orch.io/v1/tokenreviews', {
      body: { apiVersion: 'authentication.orch.io/v1', kind: 'TokenReview', spec: { token } },
    });
    expect(review.status, review.text).toBe(201);
    expect(review.body.status.authenticated).toBe(true);
    expect(review.body.status.user.username).toBe('system:serviceaccount:sa-tokens:robot');
    expect(review.body.status.user.uid).toBe(uid);
    // And as a bearer token: authenticated as the account, which RBAC grants nothing here.
    const asRobot = await host.request('GET', '/api/v1/namespaces/sa-tokens/secrets', { as: token });
    expect(asRobot.status).toBe(403);
    expect(asRobot.body.message).toContain('User "system:serviceaccount:sa-tokens:robot" cannot list');
  });

  const deletedTokens: { name: string; setup: () => Promise<string> }[] = [
    {
      name: 'a token Secret for a missing account is deleted',
      setup: async () => {
        await tokenSecret('sa-tokens', 'ghost-token', { 'orch.io/service-account.name': 'ghost' });
        return 'ghost-token';
      },
    },
    {
      name: 'a token Secret naming another uid of its account is deleted',
      setup: async () => {
        await account('sa-tokens', 'reborn');
        await tokenSecret('sa-tokens', 'reborn-token', {
          'orch.io/service-account.name': 'reborn',
          'orch.io/service-account.uid': '00000000-0000-0000-0000-000000000000',
        });
        return 'reborn-token';
      },
    },
    {
      name: "an account's token Secrets are deleted with the account",
      setup: async () => {
        await account('sa-tokens', 'doomed');
        await tokenSecret('sa-tokens', 'doomed-token', { 'orch.io/service-account.name': 'doomed' });
        const populated = await eventually(
          get('/api/v1/namespaces/sa-tokens/secrets/doomed-token'),
          (r) => r.body?.data?.token !== undefined,
        );
        expect(populated.body.data.token).toBeDefined();
        expect(
          (await host.request('DELETE', '/api/v1/namespaces/sa-tokens/serviceaccounts/doomed')).status,
        ).toBe(200);
        return 'doomed-token';
      },
    },
  ];
  it.each(deletedTokens)('$name', async ({ setup }) => {
    const name = await setup();
    const r = await eventually(get(`/api/v1/namespaces/sa-tokens/secrets/${name}`), (r) => r.status === 404);
    expect(r.status).toBe(404);
  });

  it("a deleted token Secret is removed from its account's secrets list, other references stay", async () => {
    await account('sa-tokens', 'keeper', { secrets: [{ name: 'keeper-token' }, { name: 'unrelated' }] });
    await tokenSecret('sa-tokens', 'keeper-token', { 'orch.io/service-account.name': 'keeper' });
    await eventually(
      get('/api/v1/namespaces/sa-tokens/secrets/keeper-token'),
      (r) => r.body?.data?.token !== undefined,
    );
    expect((await host.request('DELETE', '/api/v1/namespaces/sa-tokens/secrets/keeper-token')).status).toBe(
      200,
    );
    const r = await eventually(
      get('/api/v1/namespaces/sa-tokens/serviceaccounts/keeper'),
      (r) => r.body.secrets?.length === 1,
    );
    expect(r.body.secrets).toEqual([{ name: 'unrelated' }]);
  });
});

const skip = kubectlSkipReason();

describe.skipIf(skip !== undefined)('service accounts with kubectl (profile kubernetes)', () => {
  let host: TestHost;
  const k = (...args: string[]) => kubectl(host.kubeconfigPath, args);

  beforeAll(async () => {
    host = await startTestHost({ profile: 'kubernetes' });
  });
  afterAll(() => host.close());

  it('kubectl create serviceaccount, then get sa lists it with default', async () => {
    const created = await k('create', 'serviceaccount', 'x');
    expect(created.stdout.trim(), created.stderr).toBe('serviceaccount/x created');
    let names: string[] = [];
    for (let i = 0; i < 500 && !names.includes('serviceaccount/default'); i++) {
      names = (await k('get', 'sa', '-o', 'name')).stdout.trim().split('\n');
      if (!names.includes('serviceaccount/default')) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(names).toEqual(expect.arrayContaining(['serviceaccount/default', 'serviceaccount/x']));
  });

  it('kube-root-ca.crt is published with the kubernetes.io/description annotation', async () => {
    const r = await eventually(
      () => host.request('GET', '/api/v1/namespaces/default/configmaps/kube-root-ca.crt'),
      (r) => r.status === 200,
    );
    expect(r.status).toBe(200);
    const got = await k('get', 'configmap', 'kube-root-ca.crt', '-o', 'jsonpath={.data.ca\\.crt}');
    expect(got.stdout).toBe(host.caPEM);
    expect(r.body.metadata.annotations['kubernetes.io/description']).toBe(
      'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as ' +
        'the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.',
    );
  });
});
