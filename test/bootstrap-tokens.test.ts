// Bootstrap tokens over HTTPS, in both naming profiles: a token Secret
// created as kubectl would send it authenticates as `system:bootstrap:<id>`
// (with `system:bootstrappers` and its valid extra groups) and is refused
// (401) when expired, not marked for authentication, of the wrong type or
// with a bad extra group; `cluster-info` is readable anonymously, carries
// the server's address and CA, and gets a signature per signing token that
// an independent HMAC-SHA256 (node:crypto, not jose) verifies with the full
// token as the key; signatures of expired, non-signing or deleted tokens go
// away, and the token cleaner deletes expired Secrets. cluster-info comes
// back after a reset. With kubectl (kubernetes profile): `create -f` of a
// token Secret written with stringData, and `auth whoami` with the token.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { namingProfile, type ProfileName } from '../src/machinery/naming';
import { eventually } from './support/crd';
import { startTestHost, type TestHost } from './support/host';
import { kubectl, kubectlSkipReason } from './support/kubectl';

const b64url = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');

/** Verifies `<header>..<signature>` over `content` with HMAC-SHA256 keyed by `key`, by hand. */
function verifyDetached(jws: string, content: string, key: string): { header: unknown; valid: boolean } {
  const [header = '', payload, signature = ''] = jws.split('.');
  const expected = createHmac('sha256', key)
    .update(`${header}.${b64url(content)}`)
    .digest('base64url');
  return {
    header: JSON.parse(Buffer.from(header, 'base64url').toString('utf8')),
    valid: payload === '' && signature === expected && !signature.includes('='),
  };
}

describe.each<ProfileName>(['orch', 'kubernetes'])('bootstrap tokens (%s profile)', (profileName) => {
  const profile = namingProfile(profileName);
  const sys = profile.systemNamespace;
  const pub = profile.publicNamespace;
  const word = profileName === 'orch' ? 'orch' : 'kube';
  const configKey = `${word}config`;
  const authn = profile.suffixed('authentication');
  const clusterInfoPath = `/api/v1/namespaces/${pub}/configmaps/cluster-info`;
  const secretsPath = `/api/v1/namespaces/${sys}/secrets`;
  let host: TestHost;

  beforeAll(async () => {
    host = await startTestHost({
      profile: profileName,
      authentication: { bootstrapTokens: true },
      runtimeConfig: `${authn}/v1beta1=true`,
    });
  });
  afterAll(async () => {
    await host.close();
  });

  /** A token Secret as `kubectl create -f` sends it: YAML with `stringData`. */
  function tokenYaml(id: string, secret: string, fields: Record<string, string>, type?: string): string {
    const lines = Object.entries({ 'token-id': id, 'token-secret': secret, ...fields }).map(
      ([k, v]) => `  ${k}: ${JSON.stringify(v)}`,
    );
    return [
      'apiVersion: v1',
      'kind: Secret',
      'metadata:',
      `  name: bootstrap-token-${id}`,
      `  namespace: ${sys}`,
      `type: ${type ?? `bootstrap.${profile.labelDomain}/token`}`,
      'stringData:',
      ...lines,
      '',
    ].join('\n');
  }

  async function createToken(
    id: string,
    secret: string,
    fields: Record<string, string>,
    type?: string,
  ): Promise<void> {
    const r = await host.request('POST', secretsPath, {
      body: tokenYaml(id, secret, fields, type),
      contentType: 'application/yaml',
    });
    expect(r.status, r.text).toBe(201);
    // stringData is write-only: the server stores it as data, base64 of the value.
    expect(r.body.stringData).toBeUndefined();
    expect(Buffer.from(r.body.data['token-id'] as string, 'base64').toString()).toBe(id);
  }

  async function whoami(token: string) {
    return host.request('POST', `/apis/${authn}/v1beta1/selfsubjectreviews`, {
      body: { apiVersion: `${authn}/v1beta1`, kind: 'SelfSubjectReview' },
      as: token,
    });
  }

  const clusterInfo = async (): Promise<Record<string, string>> => {
    const r = await host.request('GET', clusterInfoPath, { as: 'anonymous' });
    expect(r.status, r.text).toBe(200);
    return r.body.data as Record<string, string>;
  };

  it('serves cluster-info to anonymous clients, with the server address and the CA', async () => {
    const data = await clusterInfo();
    const config = parse(data[configKey] ?? '') as {
      kind: string;
      clusters: { name: string; cluster: { server: string; 'certificate-authority-data': string } }[];
    };
    expect(config.kind).toBe('Config');
    expect(config.clusters).toHaveLength(1);
    expect(config.clusters[0]?.name).toBe('');
    expect(config.clusters[0]?.cluster.server).toBe(host.url);
    expect(
      Buffer.from(config.clusters[0]?.cluster['certificate-authority-data'] ?? '', 'base64').toString(),
    ).toBe(host.caPEM);
    // Only cluster-info is open: another ConfigMap of the public namespace is not.
    const other = await host.request('GET', `/api/v1/namespaces/${pub}/configmaps`, { as: 'anonymous' });
    expect(other.status).toBe(403);
    const role = await host.request(
      'GET',
      `/apis/${profile.suffixed('rbac.authorization')}/v1/namespaces/${pub}/rolebindings/kubeadm:bootstrap-signer-clusterinfo`,
    );
    expect(role.status).toBe(200);
    expect(role.body.subjects).toEqual([
      { apiGroup: profile.suffixed('rbac.authorization'), kind: 'User', name: 'system:anonymous' },
    ]);
  });

  it('cluster-info is back after a reset, signed again for a new token', async () => {
    const reset = await host.request('POST', '/sandbox/v1/reset');
    expect(reset.status, reset.text).toBeLessThan(300);
    await createToken('rrrrrr', 'rrrrrr0123456789', { 'usage-bootstrap-signing': 'true' });
    const data = await eventually(async () => {
      const r = await host.request('GET', clusterInfoPath, { as: 'anonymous' });
      return r.status === 200 && r.body.data[`jws-${configKey}-rrrrrr`] !== undefined
        ? (r.body.data as Record<string, string>)
        : undefined;
    }, 'cluster-info signed after the reset');
    expect(data[configKey]).toContain(`server: ${host.url}`);
    const deleted = await host.request('DELETE', `${secretsPath}/bootstrap-token-rrrrrr`);
    expect(deleted.status).toBe(200);
  });

  interface AuthCase {
    name: string;
    id: string;
    fields: Record<string, string>;
    type?: string;
    /** The groups of an accepted token; undefined: refused with 401. */
    groups?: string[];
  }
  const future = '2999-01-01T00:00:00Z';
  const authCases: AuthCase[] = [
    {
      name: 'a valid token with extra groups',
      id: 'aaaaaa',
      fields: {
        'usage-bootstrap-authentication': 'true',
        'auth-extra-groups': 'system:bootstrappers:worker,system:bootstrappers:a',
        expiration: future,
      },
      groups: [
        'system:bootstrappers',
        'system:bootstrappers:a',
        'system:bootstrappers:worker',
        'system:authenticated',
      ],
    },
    {
      name: 'a token without authentication usage',
      id: 'bbbbbb',
      fields: { 'usage-bootstrap-signing': 'true' },
    },
    {
      name: 'an extra group outside system:bootstrappers:',
      id: 'cccccc',
      fields: { 'usage-bootstrap-authentication': 'true', 'auth-extra-groups': 'system:masters' },
    },
    {
      name: 'an extra group ending in a colon',
      id: 'cccccd',
      fields: { 'usage-bootstrap-authentication': 'true', 'auth-extra-groups': 'system:bootstrappers:x:' },
    },
    {
      name: 'an expired token',
      id: 'dddddd',
      fields: { 'usage-bootstrap-authentication': 'true', expiration: '2020-01-01T00:00:00Z' },
    },
    {
      name: 'a token of the wrong type',
      id: 'eeeeee',
      fields: { 'usage-bootstrap-authentication': 'true' },
      type: 'Opaque',
    },
  ];
  for (const c of authCases)
    it(`authentication: ${c.name}`, async () => {
      const secret = `${c.id}0123456789`;
      await createToken(c.id, secret, c.fields, c.type);
      const r = await whoami(`${c.id}.${secret}`);
      if (c.groups === undefined) {
        expect(r.status, r.text).toBe(401);
        expect(r.body).toMatchObject({ kind: 'Status', reason: 'Unauthorized', message: 'Unauthorized' });
        return;
      }
      expect(r.status, r.text).toBe(201);
      expect(r.body.status.userInfo).toMatchObject({
        username: `system:bootstrap:${c.id}`,
        groups: c.groups,
      });
    });

  it('a wrong secret for an existing token id is refused', async () => {
    const r = await whoami('aaaaaa.ffffffffffffffff');
    expect(r.status).toBe(401);
  });

  it('the cleaner deletes an expired token Secret, and it is never signed', async () => {
    await eventually(async () => {
      const r = await host.request('GET', `${secretsPath}/bootstrap-token-dddddd`);
      return r.status === 404 ? true : undefined;
    }, 'the expired token to be cleaned');
    expect(Object.keys(await clusterInfo())).not.toContain(`jws-${configKey}-dddddd`);
  });

  it('signs cluster-info for each signing token, verifiably with the full token as the key', async () => {
    const token = 'ffffff.0123456789abcdef';
    await createToken('ffffff', '0123456789abcdef', {
      'usage-bootstrap-signing': 'true',
      'usage-bootstrap-authentication': 'true',
      expiration: future,
    });
    const data = await eventually(async () => {
      const d = await clusterInfo();
      return d[`jws-${configKey}-ffffff`] !== undefined && d[`jws-${configKey}-bbbbbb`] !== undefined
        ? d
        : undefined;
    }, 'the signatures');
    const content = data[configKey] ?? '';
    const checked = verifyDetached(data[`jws-${configKey}-ffffff`] ?? '', content, token);
    expect(checked).toEqual({ header: { alg: 'HS256', kid: 'ffffff' }, valid: true });
    // The header's exact bytes, as the real signer writes them.
    expect(
      Buffer.from((data[`jws-${configKey}-ffffff`] ?? '').split('.')[0] ?? '', 'base64url').toString(),
    ).toBe('{"alg":"HS256","kid":"ffffff"}');
    // The secret alone (the real server's key) does not verify: the spec's full token is the key.
    expect(verifyDetached(data[`jws-${configKey}-ffffff`] ?? '', content, '0123456789abcdef').valid).toBe(
      false,
    );
    // A token that may sign but not authenticate still signs; the other tokens do not.
    expect(
      verifyDetached(data[`jws-${configKey}-bbbbbb`] ?? '', content, 'bbbbbb.bbbbbb0123456789').valid,
    ).toBe(true);
    for (const id of ['aaaaaa', 'cccccc', 'eeeeee'])
      expect(data).not.toHaveProperty(`jws-${configKey}-${id}`);
  });

  it('removes the signature of a token that stops signing or is deleted', async () => {
    const patch = await host.request('PATCH', `${secretsPath}/bootstrap-token-bbbbbb`, {
      body: { stringData: { 'usage-bootstrap-signing': 'false' } },
      contentType: 'application/merge-patch+json',
    });
    expect(patch.status, patch.text).toBe(200);
    await eventually(
      async () => ((await clusterInfo())[`jws-${configKey}-bbbbbb`] === undefined ? true : undefined),
      'the non-signing token to lose its signature',
    );
  });

  it('a token that expires is refused, unsigned and cleaned', async () => {
    // Not used before it expires: a success is cached for 10 s, as on the real server, which would delay the 401.
    const token = 'ffffff.0123456789abcdef';
    const patch = await host.request('PATCH', `${secretsPath}/bootstrap-token-ffffff`, {
      body: { stringData: { expiration: '2021-06-01T00:00:00Z' } },
      contentType: 'application/merge-patch+json',
    });
    // Either the patch lands, or the cleaner already saw the expired token and deleted it.
    expect([200, 404]).toContain(patch.status);
    // The authenticator reads Secrets from the server's cache, as the real one reads its informer's.
    await eventually(
      async () => ((await whoami(token)).status === 401 ? true : undefined),
      'the expired token to be refused',
    );
    await eventually(async () => {
      const gone = (await host.request('GET', `${secretsPath}/bootstrap-token-ffffff`)).status === 404;
      const unsigned = (await clusterInfo())[`jws-${configKey}-ffffff`] === undefined;
      return gone && unsigned ? true : undefined;
    }, 'the expired token to be cleaned and its signature removed');
  });
});

const skipKubectl = kubectlSkipReason();

describe.skipIf(skipKubectl !== undefined)('bootstrap tokens with kubectl (profile kubernetes)', () => {
  let host: TestHost;
  const k = (args: string[], input?: string) => kubectl(host.kubeconfigPath, args, input);

  beforeAll(async () => {
    host = await startTestHost({
      profile: 'kubernetes',
      authentication: { bootstrapTokens: true },
      runtimeConfig: 'authentication.k8s.io/v1beta1=true',
    });
  });
  afterAll(() => host.close());

  it('create -f of a token Secret, then auth whoami with the token', async () => {
    const manifest = [
      'apiVersion: v1',
      'kind: Secret',
      'metadata:',
      '  name: bootstrap-token-k8s123',
      '  namespace: kube-system',
      'type: bootstrap.kubernetes.io/token',
      'stringData:',
      '  token-id: k8s123',
      '  token-secret: abcdef0123456789',
      '  usage-bootstrap-authentication: "true"',
      '  usage-bootstrap-signing: "true"',
      '  auth-extra-groups: system:bootstrappers:kubeadm:default-node-token',
      '',
    ].join('\n');
    const created = await k(['create', '-f', '-'], manifest);
    expect(created.stderr).toBe('');
    expect(created.stdout.trim()).toBe('secret/bootstrap-token-k8s123 created');
    const who = await k(['--token', 'k8s123.abcdef0123456789', 'auth', 'whoami', '-o', 'json'], undefined);
    expect(who.code, who.stderr).toBe(0);
    expect(JSON.parse(who.stdout).status.userInfo).toMatchObject({
      username: 'system:bootstrap:k8s123',
      groups: [
        'system:bootstrappers',
        'system:bootstrappers:kubeadm:default-node-token',
        'system:authenticated',
      ],
    });
    const bad = await k(['--token', 'k8s123.ffffffffffffffff', 'get', 'ns'], undefined);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('error: You must be logged in to the server (Unauthorized)');
    const signed = await eventually(async () => {
      const r = await k(['get', 'configmap', 'cluster-info', '-n', 'kube-public', '-o', 'json']);
      const data = (JSON.parse(r.stdout) as { data: Record<string, string> }).data;
      return data['jws-kubeconfig-k8s123'] !== undefined ? data : undefined;
    }, 'the kubeconfig signature');
    expect(
      verifyDetached(
        signed['jws-kubeconfig-k8s123'] ?? '',
        signed['kubeconfig'] ?? '',
        'k8s123.abcdef0123456789',
      ).valid,
    ).toBe(true);
  });
});

describe('bootstrap token expiry by the server clock (orch profile)', () => {
  let host: TestHost;
  let shiftMs = 0;
  const sys = 'orch-system';
  const clusterInfoPath = '/api/v1/namespaces/orch-public/configmaps/cluster-info';

  beforeAll(async () => {
    host = await startTestHost({
      authentication: { bootstrapTokens: true },
      runtimeConfig: 'authentication.orch.io/v1beta1=true',
      now: () => new Date(Date.now() + shiftMs),
    });
  });
  afterAll(() => host.close());

  it('a token that authenticated and signed is refused, unsigned and cleaned once the clock passes its expiration', async () => {
    const token = 'clock1.0123456789abcdef';
    const expiration = new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z');
    const created = await host.request('POST', `/api/v1/namespaces/${sys}/secrets`, {
      body: {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'bootstrap-token-clock1', namespace: sys },
        type: 'bootstrap.orch.io/token',
        stringData: {
          'token-id': 'clock1',
          'token-secret': '0123456789abcdef',
          'usage-bootstrap-authentication': 'true',
          'usage-bootstrap-signing': 'true',
          expiration,
        },
      },
    });
    expect(created.status, created.text).toBe(201);
    const whoami = () =>
      host.request('POST', '/apis/authentication.orch.io/v1beta1/selfsubjectreviews', {
        body: { apiVersion: 'authentication.orch.io/v1beta1', kind: 'SelfSubjectReview' },
        as: token,
      });
    await eventually(
      async () => ((await whoami()).status === 201 ? true : undefined),
      'the token to authenticate',
    );
    await eventually(async () => {
      const r = await host.request('GET', clusterInfoPath, { as: 'anonymous' });
      return r.body.data['jws-orchconfig-clock1'] !== undefined ? true : undefined;
    }, 'the signature');

    shiftMs = 2 * 3_600_000;
    // The success cache's 10 s are over by the same clock: the authenticator looks again and refuses.
    expect((await whoami()).status).toBe(401);
    // Nothing else changes: the controllers compare the token's expiry with their clock every second.
    await eventually(async () => {
      const gone =
        (await host.request('GET', `/api/v1/namespaces/${sys}/secrets/bootstrap-token-clock1`)).status ===
        404;
      const r = await host.request('GET', clusterInfoPath, { as: 'anonymous' });
      return gone && r.body.data['jws-orchconfig-clock1'] === undefined ? true : undefined;
    }, 'the token to be cleaned and its signature removed');
  });
});

describe('cluster-info follows the advertised address (orch profile)', () => {
  let host: TestHost;
  const clusterInfoPath = '/api/v1/namespaces/orch-public/configmaps/cluster-info';

  beforeAll(async () => {
    host = await startTestHost({ authentication: { bootstrapTokens: true } });
  });
  afterAll(() => host.close());

  it('a host advertising another address (restarted on another port over kept state) updates it, signed again', async () => {
    const token = 'moved1.0123456789abcdef';
    const created = await host.request('POST', '/api/v1/namespaces/orch-system/secrets', {
      body: {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'bootstrap-token-moved1', namespace: 'orch-system' },
        type: 'bootstrap.orch.io/token',
        stringData: {
          'token-id': 'moved1',
          'token-secret': '0123456789abcdef',
          'usage-bootstrap-signing': 'true',
        },
      },
    });
    expect(created.status, created.text).toBe(201);
    const signedFor = (server: string) =>
      eventually(async () => {
        const r = await host.request('GET', clusterInfoPath, { as: 'anonymous' });
        const data = r.body.data as Record<string, string>;
        const content = data['orchconfig'] ?? '';
        // The signer adds the token's signature after the token is created: none yet is "not signed yet".
        const jws = data['jws-orchconfig-moved1'];
        return jws !== undefined &&
          content.includes(`server: ${server}\n`) &&
          verifyDetached(jws, content, token).valid
          ? content
          : undefined;
      }, `cluster-info naming ${server}, signed`);
    const before = await signedFor(host.url);

    await host.api.advertise('https://moved.example:7443', host.caPEM);
    const after = await signedFor('https://moved.example:7443');
    // Only the address changed: the CA is the same.
    expect(after.replace('https://moved.example:7443', host.url)).toBe(before);
  });
});
