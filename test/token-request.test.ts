/**
 * Service-account tokens over HTTP against the Node host: the TokenRequest
 * subresource (defaults, audiences, lifetimes and their limits, bound
 * objects and their errors, authorization), the minted tokens
 * authenticating as the account and dying with their pod, the issuer's
 * discovery document and JWKS (who may read them, media types, a token
 * verified against the served keys with `jose`), and a host signing with
 * the key given by `--service-account-signing-key-file`.
 */

import { generateKeyPairSync } from 'node:crypto';
import { request as httpsRequest } from 'node:https';
import { checkServerIdentity } from 'node:tls';
import {
  createLocalJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  importSPKI,
  jwtVerify,
  type JSONWebKeySet,
} from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost, type TestResponse } from './support/host';

const issuer = 'https://orch.default.svc.cluster.local';
const tokenPath = (name: string, ns = 'tokens') => `/api/v1/namespaces/${ns}/serviceaccounts/${name}/token`;

interface OwnClaims {
  namespace: string;
  serviceaccount: { name: string; uid: string };
  pod?: { name: string; uid: string };
  secret?: { name: string; uid: string };
  warnafter?: number;
}

function claimsOf(token: string): {
  iss?: string;
  aud?: unknown;
  sub?: string;
  exp: number;
  iat: number;
  nbf?: number;
  own: OwnClaims;
} {
  const payload = decodeJwt(token);
  return {
    ...payload,
    exp: payload.exp ?? 0,
    iat: payload.iat ?? 0,
    own: payload['orch.io'] as OwnClaims,
  };
}

describe('TokenRequest and the service-account issuer (profile orch)', () => {
  let host: TestHost;
  const uids: Record<string, string> = {};
  const request = (method: string, path: string, body?: unknown, as?: string): Promise<TestResponse> =>
    host.request(method, path, {
      ...(body !== undefined ? { body } : {}),
      ...(as !== undefined ? { as } : {}),
    });

  beforeAll(async () => {
    host = await startTestHost();
    expect((await request('POST', '/api/v1/namespaces', { metadata: { name: 'tokens' } })).status).toBe(201);
    for (const name of ['bot', 'other']) {
      const r = await request('POST', '/api/v1/namespaces/tokens/serviceaccounts', { metadata: { name } });
      expect(r.status, r.text).toBe(201);
      uids[name] = r.body.metadata.uid as string;
    }
    // The admission plugin needs the account the pods run as.
    await request('POST', '/api/v1/namespaces/tokens/serviceaccounts', { metadata: { name: 'default' } });
    const pod = await request('POST', '/api/v1/namespaces/tokens/pods', {
      metadata: { name: 'runner' },
      spec: { serviceAccountName: 'bot', containers: [{ name: 'c', image: 'nginx' }] },
    });
    expect(pod.status, pod.text).toBe(201);
    uids['runner'] = pod.body.metadata.uid as string;
    const secret = await request('POST', '/api/v1/namespaces/tokens/secrets', { metadata: { name: 'keep' } });
    uids['keep'] = secret.body.metadata.uid as string;
  });
  afterAll(() => host.close());

  it('mints a token with the real defaults: the issuer as audience, one hour', async () => {
    const r = await request('POST', tokenPath('bot'), { spec: {} });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({
      kind: 'TokenRequest',
      apiVersion: 'authentication.orch.io/v1',
      metadata: { name: 'bot', namespace: 'tokens' },
      spec: { audiences: [issuer], expirationSeconds: 3600 },
    });
    const token = r.body.status.token as string;
    const c = claimsOf(token);
    expect(c).toMatchObject({ iss: issuer, aud: [issuer], sub: 'system:serviceaccount:tokens:bot' });
    expect(c.exp - c.iat).toBe(3600);
    expect(c.nbf).toBe(c.iat);
    expect(c.own).toEqual({ namespace: 'tokens', serviceaccount: { name: 'bot', uid: uids['bot'] } });
    expect(Date.parse(r.body.status.expirationTimestamp as string) / 1000).toBe(c.exp);
    expect(Date.parse(r.body.metadata.creationTimestamp as string) / 1000).toBe(c.iat);
  });

  interface Case {
    name: string;
    account?: string;
    body: unknown;
    as?: string;
    status: number;
    message?: string;
    reason?: string;
    check?: (r: TestResponse) => void;
  }
  const cases: Case[] = [
    {
      name: 'own audiences and the minimum lifetime',
      body: { spec: { audiences: ['vault', 'x'], expirationSeconds: 600 } },
      status: 201,
      check: (r) => {
        const c = claimsOf(r.body.status.token as string);
        expect(c.aud).toEqual(['vault', 'x']);
        expect(c.exp - c.iat).toBe(600);
      },
    },
    {
      name: 'under ten minutes',
      body: { spec: { expirationSeconds: 599 } },
      status: 422,
      reason: 'Invalid',
      message:
        'TokenRequest.authentication.orch.io "" is invalid: spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes',
    },
    {
      name: 'over 2^32 seconds',
      body: { spec: { expirationSeconds: 2 ** 32 + 1 } },
      status: 422,
      message: `TokenRequest.authentication.orch.io "" is invalid: spec.expirationSeconds: Invalid value: ${2 ** 32 + 1}: may not specify a duration larger than 2^32 seconds`,
    },
    {
      name: 'a lifetime that is not a number',
      body: { spec: { expirationSeconds: 'long' } },
      status: 400,
      reason: 'BadRequest',
      message:
        'TokenRequest in version "v1" cannot be handled as a TokenRequest: json: cannot unmarshal string into Go struct field TokenRequestSpec.spec.expirationSeconds of type int64',
    },
    {
      name: 'a missing account',
      account: 'ghost',
      body: {},
      status: 404,
      message: 'serviceaccounts "ghost" not found',
    },
    {
      name: 'a body naming another account',
      body: { metadata: { name: 'other' } },
      status: 422,
      message:
        'TokenRequest.authentication.orch.io "bot" is invalid: metadata.name: Invalid value: "other": must match the service account name if specified',
    },
    {
      name: 'bound to the pod running as the account',
      body: { spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'runner' } } },
      status: 201,
      check: (r) =>
        expect(claimsOf(r.body.status.token as string).own.pod).toEqual({
          name: 'runner',
          uid: uids['runner'],
        }),
    },
    {
      name: 'bound to a secret',
      body: { spec: { boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 'keep', uid: '@keep' } } },
      status: 201,
      check: (r) =>
        expect(claimsOf(r.body.status.token as string).own.secret).toEqual({
          name: 'keep',
          uid: uids['keep'],
        }),
    },
    {
      name: 'bound to a pod of another account',
      account: 'other',
      body: { spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'runner' } } },
      status: 400,
      message:
        'cannot bind token for serviceaccount "other" to pod running with different serviceaccount name.',
    },
    {
      name: 'bound to a pod that does not exist',
      body: { spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'gone' } } },
      status: 404,
      message: 'pods "gone" not found',
    },
    {
      name: 'bound to a pod whose uid differs',
      body: { spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'runner', uid: 'wrong' } } },
      status: 409,
      reason: 'Conflict',
      message:
        'Operation cannot be fulfilled on Pod "runner": the UID in the bound object reference (wrong) does not match the UID in record. The object might have been deleted and then recreated',
    },
    {
      name: 'bound to a kind that cannot be bound',
      body: { spec: { boundObjectRef: { kind: 'Deployment', apiVersion: 'apps/v1', name: 'd' } } },
      status: 400,
      message: 'cannot bind token to object of type apps/v1, Kind=Deployment',
    },
    {
      name: 'bound without a name',
      body: { spec: { boundObjectRef: { kind: 'Secret', apiVersion: 'v1' } } },
      status: 400,
      message: 'Name parameter required.',
    },
    {
      name: 'alice may not create tokens',
      body: {},
      as: 'alice',
      status: 403,
      message:
        'serviceaccounts "bot" is forbidden: User "alice" cannot create resource "serviceaccounts/token" in API group "" in the namespace "tokens"',
    },
  ];
  for (const c of cases) {
    it(`TokenRequest: ${c.name}`, async () => {
      const body = JSON.parse(JSON.stringify(c.body).replaceAll('@keep', uids['keep'] ?? '')) as unknown;
      const r = await request('POST', tokenPath(c.account ?? 'bot'), body, c.as);
      expect(r.status, r.text).toBe(c.status);
      if (c.message !== undefined) expect(r.body.message).toBe(c.message);
      if (c.reason !== undefined) expect(r.body.reason).toBe(c.reason);
      c.check?.(r);
    });
  }

  it('a pod-bound token for the projected lifetime lives a year and warns after 3607 s', async () => {
    const r = await request('POST', tokenPath('bot'), {
      spec: { expirationSeconds: 3607, boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'runner' } },
    });
    expect(r.status).toBe(201);
    const c = claimsOf(r.body.status.token as string);
    expect(c.exp - c.iat).toBe(365 * 24 * 3600);
    expect(c.own.warnafter).toBe(c.iat + 3607);
    expect(Date.parse(r.body.status.expirationTimestamp as string) / 1000).toBe(c.iat + 3607);
  });

  it('GET on the subresource is 405 and discovery lists only create', async () => {
    expect((await request('GET', tokenPath('bot'))).status).toBe(405);
    const list = await request('GET', '/api/v1');
    const sub = (
      list.body.resources as { name: string; verbs: string[]; kind: string; group?: string }[]
    ).find((r) => r.name === 'serviceaccounts/token');
    expect(sub).toMatchObject({ kind: 'TokenRequest', group: 'authentication.orch.io', verbs: ['create'] });
  });

  it('the token authenticates as the account, and not for another audience', async () => {
    const token = (await request('POST', tokenPath('bot'), {})).body.status.token as string;
    const denied = await request('GET', '/api/v1/namespaces/tokens/secrets', undefined, token);
    expect(denied.status).toBe(403);
    expect(denied.body.message).toContain(
      'User "system:serviceaccount:tokens:bot" cannot list resource "secrets"',
    );
    const elsewhere = (await request('POST', tokenPath('bot'), { spec: { audiences: ['vault'] } })).body
      .status.token as string;
    expect((await request('GET', '/api/v1/namespaces/tokens/secrets', undefined, elsewhere)).status).toBe(
      401,
    );
  });

  it('a pod-bound token stops authenticating once its pod is deleted', async () => {
    const pod = await request('POST', '/api/v1/namespaces/tokens/pods', {
      metadata: { name: 'short-lived' },
      spec: { serviceAccountName: 'bot', containers: [{ name: 'c', image: 'nginx' }] },
    });
    expect(pod.status).toBe(201);
    const bound = { spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'short-lived' } } };
    const before = (await request('POST', tokenPath('bot'), bound)).body.status.token as string;
    // A second token, never used before the deletion, so no cached success answers for it (as on the real server).
    // RS256 signatures are deterministic: another lifetime makes it another token within the same second.
    const after = (
      await request('POST', tokenPath('bot'), { spec: { ...bound.spec, expirationSeconds: 7200 } })
    ).body.status.token as string;
    expect(after).not.toBe(before);
    const review = (token: string) =>
      request('POST', '/apis/authentication.orch.io/v1/tokenreviews', { spec: { token } });
    const ok = await review(before);
    expect(ok.body.status).toMatchObject({
      authenticated: true,
      user: {
        username: 'system:serviceaccount:tokens:bot',
        extra: {
          'authentication.orch.io/pod-name': ['short-lived'],
          'authentication.orch.io/pod-uid': [pod.body.metadata.uid],
        },
      },
    });
    const deleted = await request(
      'DELETE',
      '/api/v1/namespaces/tokens/pods/short-lived?gracePeriodSeconds=0',
    );
    expect(deleted.status).toBe(200);
    const gone = await review(after);
    expect(gone.body.status.authenticated).toBeUndefined();
    expect(gone.body.status.error).toContain('service account token has been invalidated');
  });

  describe('the issuer discovery document and keys', () => {
    it('serves the discovery document to whoever may get it', async () => {
      const r = await request('GET', '/.well-known/openid-configuration');
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('application/json');
      expect(r.headers.get('cache-control')).toBe('public, max-age=3600');
      expect(r.body).toEqual({
        issuer,
        jwks_uri: `${host.url}/openid/v1/jwks`,
        response_types_supported: ['id_token'],
        subject_types_supported: ['public'],
        // The generated signing key is RSA 2048, as a kubeadm cluster's.
        id_token_signing_alg_values_supported: ['RS256'],
      });
    });

    it('names the JWKS at the advertised address whatever Host a client sends (the answer is publicly cacheable)', async () => {
      // fetch will not send a Host of its own; node:https will.
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpsRequest(
          `${host.url}/.well-known/openid-configuration`,
          {
            ...(host.caPEM !== undefined ? { ca: host.caPEM } : {}),
            headers: { host: 'attacker.example', authorization: `Bearer ${host.token}` },
            // The certificate is checked against the address connected to, not the forged Host.
            checkServerIdentity: (_name, cert) => checkServerIdentity(new URL(host.url).hostname, cert),
          },
          (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (body += chunk));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on('error', reject);
        req.end();
      });
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body).jwks_uri).toBe(`${host.url}/openid/v1/jwks`);
    });

    const who: { as: string; path: string; status: number }[] = [
      { as: 'anonymous', path: '/.well-known/openid-configuration', status: 403 },
      { as: 'anonymous', path: '/openid/v1/jwks', status: 403 },
      { as: 'alice', path: '/openid/v1/jwks', status: 403 },
      { as: 'service-account', path: '/.well-known/openid-configuration', status: 200 },
      { as: 'service-account', path: '/openid/v1/jwks', status: 200 },
    ];
    for (const c of who) {
      it(`${c.as} GET ${c.path} → ${c.status}`, async () => {
        const r = await request('GET', c.path, undefined, c.as);
        expect(r.status, r.text).toBe(c.status);
        if (c.status === 403)
          expect(r.body.message).toMatch(new RegExp(`cannot get path "${c.path.replaceAll('.', '\\.')}"$`));
      });
    }

    it('serves the keys as a JWK set, refuses a client that accepts only JSON, and any method but GET', async () => {
      const r = await request('GET', '/openid/v1/jwks');
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('application/jwk-set+json');
      const key = (r.body as JSONWebKeySet).keys[0];
      expect(Object.keys(key ?? {})).toEqual(['use', 'kty', 'kid', 'alg', 'n', 'e']);
      const json = await host.request('GET', '/openid/v1/jwks', { headers: { accept: 'application/json' } });
      expect(json.status).toBe(406);
      // A Status, where the real router answers plain text (decision 0023).
      expect(json.body).toMatchObject({
        kind: 'Status',
        reason: 'NotAcceptable',
        message: 'only the following media types are accepted: application/jwk-set+json',
      });
      expect(
        (await host.request('GET', '/openid/v1/jwks', { headers: { accept: 'application/json, */*' } }))
          .status,
      ).toBe(200);
      const post = await request('POST', '/openid/v1/jwks', {});
      expect(post.status).toBe(405);
      expect(post.body).toMatchObject({ kind: 'Status', reason: 'MethodNotAllowed' });
    });

    it('a minted token verifies against the served keys with jose', async () => {
      const jwks = (await request('GET', '/openid/v1/jwks')).body as JSONWebKeySet;
      const token = (await request('POST', tokenPath('bot'), { spec: { audiences: ['vault'] } })).body.status
        .token as string;
      const { payload, protectedHeader } = await jwtVerify(token, createLocalJWKSet(jwks), {
        issuer,
        audience: 'vault',
      });
      expect(payload.sub).toBe('system:serviceaccount:tokens:bot');
      expect(protectedHeader.kid).toBe(jwks.keys[0]?.kid);
    });
  });
});

describe('--service-account-signing-key-file', () => {
  let host: TestHost;
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privatePEM = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const publicPEM = publicKey.export({ type: 'spki', format: 'pem' }).toString();

  beforeAll(async () => {
    host = await startTestHost({
      serviceAccountTokens: { signingKeyPEM: privatePEM, maxExpirationSeconds: 7200 },
    });
    await host.request('POST', '/api/v1/namespaces/default/serviceaccounts', {
      body: { metadata: { name: 'signed' } },
    });
  });
  afterAll(() => host.close());

  it('signs with the given key, publishes it, and caps lifetimes at the maximum with a warning', async () => {
    const r = await host.request('POST', tokenPath('signed', 'default'), {
      body: { spec: { expirationSeconds: 86400 } },
    });
    expect(r.status, r.text).toBe(201);
    expect(r.headers.get('warning')).toBe(
      '299 - "requested expiration of 86400 seconds shortened to 7200 seconds"',
    );
    expect(r.body.spec.expirationSeconds).toBe(7200);
    const token = r.body.status.token as string;
    expect(decodeProtectedHeader(token).alg).toBe('RS256');
    const { payload } = await jwtVerify(token, await importSPKI(publicPEM, 'RS256'), { issuer });
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(7200);
    const jwks = (await host.request('GET', '/openid/v1/jwks')).body as JSONWebKeySet;
    expect(jwks.keys.map((k) => k.kid)).toEqual([decodeProtectedHeader(token).kid]);
    const config = await host.request('GET', '/.well-known/openid-configuration');
    expect(config.body.id_token_signing_alg_values_supported).toEqual(['RS256']);
    const denied = await host.request('GET', '/api/v1/namespaces/default/secrets', { as: token });
    expect(denied.body.message).toContain('system:serviceaccount:default:signed');
  });
});
