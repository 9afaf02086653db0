import { base64url, generateKeyPair, importJWK, type JWTPayload, SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSandboxIssuer, type SandboxIssuer } from '../oidc-issuer/issuer';
import type { ExternalFetch, OidcConfig } from './config';
import { effectiveUsernamePrefix, oidcAuthenticator } from './oidc';
import { AuthenticationRejected } from './rejection';

const now = new Date('2030-01-01T00:00:00Z');
const nowS = Math.floor(now.getTime() / 1000);
let issuer: SandboxIssuer;
let signingKey: CryptoKey;
let kid: string;

beforeAll(async () => {
  issuer = await createSandboxIssuer({ baseURL: 'https://orch.test', now: () => now });
  signingKey = (await importJWK(await issuer.exportKey(), 'RS256')) as CryptoKey;
  kid = String((await issuer.jwks()).keys[0]?.kid);
});

const baseConfig = (): OidcConfig => ({
  issuerURL: issuer.issuerURL,
  clientID: 'orch',
  groupsClaim: 'groups',
});

function counting(fetcher: ExternalFetch): ExternalFetch & { calls: string[] } {
  const calls: string[] = [];
  const f = (async (req, opts) => {
    calls.push(new URL(req.url).pathname);
    return fetcher(req, opts);
  }) as ExternalFetch & { calls: string[] };
  f.calls = calls;
  return f;
}

async function sign(
  claims: JWTPayload,
  header: Record<string, unknown> = {},
  key: CryptoKey = signingKey,
): Promise<string> {
  return new SignJWT({
    iss: issuer.issuerURL,
    aud: 'orch',
    sub: 'alice',
    iat: nowS,
    exp: nowS + 600,
    ...claims,
  })
    .setProtectedHeader({ alg: 'RS256', kid, ...header })
    .sign(key);
}

async function reason(config: OidcConfig, token: string): Promise<string> {
  const auth = oidcAuthenticator(config, { fetch: issuer.fetch, now: () => now });
  const e = await auth.authenticateToken(token).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(AuthenticationRejected);
  return (e as AuthenticationRejected).attempt.reason ?? '';
}

describe('OIDC authenticator', () => {
  it('accepts a token minted by the sandbox issuer (end to end through discovery and JWKS)', async () => {
    const fetcher = counting(issuer.fetch);
    const auth = oidcAuthenticator(
      { ...baseConfig(), usernameClaim: 'email', groupsPrefix: 'oidc:' },
      { fetch: fetcher, now: () => now },
    );
    const token = await issuer.mint({
      sub: 'u-1',
      email: 'alice@example.com',
      groups: ['dev', 'ops'],
      audience: 'orch',
    });
    expect(await auth.authenticateToken(token)).toEqual({
      user: { username: 'alice@example.com', groups: ['oidc:dev', 'oidc:ops'] },
      audiences: [],
    });
    await auth.authenticateToken(token);
    expect(fetcher.calls).toEqual([
      '/sandbox/v1/oidc/.well-known/openid-configuration',
      '/sandbox/v1/oidc/jwks',
    ]);
  });

  it('prefixes usernames as the real flags do', async () => {
    const auth = oidcAuthenticator(baseConfig(), { fetch: issuer.fetch, now: () => now });
    const token = await issuer.mint({ sub: 'u-1', audience: 'orch', groups: ['x'] });
    expect((await auth.authenticateToken(token))?.user.username).toBe(
      'https://orch.test/sandbox/v1/oidc#u-1',
    );
    expect(effectiveUsernamePrefix({ ...baseConfig(), usernamePrefix: '-' })).toBe('');
    expect(effectiveUsernamePrefix({ ...baseConfig(), usernameClaim: 'email' })).toBe('');
    expect(effectiveUsernamePrefix({ ...baseConfig(), usernamePrefix: 'oidc:' })).toBe('oidc:');
  });

  it('takes a single-string groups claim as one group', async () => {
    const auth = oidcAuthenticator(baseConfig(), { fetch: issuer.fetch, now: () => now });
    expect((await auth.authenticateToken(await sign({ groups: 'admins' })))?.user.groups).toEqual(['admins']);
  });

  it('has no opinion on tokens of another issuer or non-JWTs', async () => {
    const auth = oidcAuthenticator(baseConfig(), { fetch: issuer.fetch, now: () => now });
    expect(await auth.authenticateToken(await sign({ iss: 'https://evil.test' }))).toBeUndefined();
    expect(await auth.authenticateToken('abcdef.0123456789abcdef')).toBeUndefined();
  });

  const rejections: {
    name: string;
    token: () => Promise<string>;
    config?: Partial<OidcConfig>;
    reason: string | RegExp;
  }[] = [
    {
      name: 'expired',
      token: () => sign({ exp: nowS - 1 }),
      reason: 'oidc: verify token: oidc: token is expired (Token Expiry: 2029-12-31 23:59:59 +0000 UTC)',
    },
    {
      name: 'not yet valid (nbf beyond one minute of skew)',
      token: () => sign({ nbf: nowS + 120 }),
      reason:
        'oidc: verify token: oidc: current time 2030-01-01 00:00:00 +0000 UTC before the nbf (not before) time: 2030-01-01 00:02:00 +0000 UTC',
    },
    {
      name: 'wrong audience',
      token: () => sign({ aud: ['other', 'more'] }),
      reason: 'oidc: verify token: oidc: expected audience "orch" got ["other" "more"]',
    },
    {
      name: 'tampered signature',
      token: async () => {
        const [h, , s] = (await sign({})).split('.');
        const payload = base64url.encode(
          JSON.stringify({ iss: issuer.issuerURL, aud: 'orch', sub: 'root', exp: nowS + 600 }),
        );
        return `${h}.${payload}.${s}`;
      },
      reason: 'oidc: verify token: failed to verify signature: failed to verify id token signature',
    },
    {
      name: 'alg none',
      token: async () => {
        const h = base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT' }));
        const p = base64url.encode(
          JSON.stringify({ iss: issuer.issuerURL, aud: 'orch', sub: 'root', exp: nowS + 600 }),
        );
        return `${h}.${p}.`;
      },
      reason:
        'oidc: verify token: oidc: id token signed with unsupported algorithm, expected ["RS256"] got "none"',
    },
    {
      name: 'disallowed alg',
      token: async () => {
        const { privateKey } = await generateKeyPair('ES256');
        return sign({}, { alg: 'ES256' }, privateKey);
      },
      reason:
        'oidc: verify token: oidc: id token signed with unsupported algorithm, expected ["RS256"] got "ES256"',
    },
    {
      name: 'unknown kid',
      token: async () => {
        const { privateKey } = await generateKeyPair('RS256');
        return sign({}, { kid: 'rotated-away' }, privateKey);
      },
      reason: 'oidc: verify token: failed to verify signature: failed to verify id token signature',
    },
    {
      name: 'missing required claim',
      config: { requiredClaims: { hd: 'example.com' } },
      token: () => sign({}),
      reason: 'oidc: required claim hd not present in ID token',
    },
    {
      name: 'required claim with another value',
      config: { requiredClaims: { hd: 'example.com' } },
      token: () => sign({ hd: 'evil.com' }),
      reason: 'oidc: required claim hd value does not match. Got = evil.com, want = example.com',
    },
    {
      name: 'email_verified false',
      config: { usernameClaim: 'email' },
      token: () => sign({ email: 'a@example.com', email_verified: false }),
      reason: 'oidc: email not verified',
    },
    {
      name: 'missing username claim',
      config: { usernameClaim: 'email' },
      token: () => sign({}),
      reason: 'oidc: parse username claims "email": claim not present',
    },
    {
      name: 'groups claim of numbers',
      token: () => sign({ groups: [1] }),
      reason: 'oidc: parse groups claim "groups": json: cannot unmarshal number into Go value of type string',
    },
  ];
  for (const r of rejections) {
    it(`rejects a token: ${r.name}`, async () => {
      const got = await reason({ ...baseConfig(), ...r.config }, await r.token());
      if (typeof r.reason === 'string') expect(got).toBe(r.reason);
      else expect(got).toMatch(r.reason);
    });
  }

  it('refetches keys for an unknown kid, at most once per interval', async () => {
    let t = now.getTime();
    const rotated = await createSandboxIssuer({ baseURL: 'https://orch.test', now: () => now });
    let current = issuer;
    const fetcher = counting((req, opts) => current.fetch(req, opts));
    const auth = oidcAuthenticator(baseConfig(), { fetch: fetcher, now: () => new Date(t) });
    expect(await auth.authenticateToken(await issuer.mint({ sub: 'a', audience: 'orch' }))).toBeDefined();
    current = rotated; // the provider rotates its key
    const fresh = await rotated.mint({ sub: 'b', audience: 'orch' });
    t += 1_000; // within the refetch interval: no new fetch, rejected
    await expect(auth.authenticateToken(fresh)).rejects.toBeInstanceOf(AuthenticationRejected);
    expect(fetcher.calls.filter((c) => c.endsWith('/jwks'))).toHaveLength(1);
    t += 10_000;
    expect((await auth.authenticateToken(fresh))?.user.username).toMatch(/#b$/);
    expect(fetcher.calls.filter((c) => c.endsWith('/jwks'))).toHaveLength(2);
  });

  it('reports discovery failures as not initialized, and validates its flags', async () => {
    const down: ExternalFetch = async () => {
      throw new TypeError('fetch failed');
    };
    const auth = oidcAuthenticator(baseConfig(), { fetch: down, now: () => now });
    const e = await auth.authenticateToken(await sign({})).catch((err: unknown) => err);
    expect((e as AuthenticationRejected).attempt).toEqual({
      authenticator: 'oidc',
      result: 'error',
      reason: `oidc: authenticator not initialized (Get "${issuer.issuerURL}/.well-known/openid-configuration": fetch failed)`,
    });
    expect(() => oidcAuthenticator({ ...baseConfig(), issuerURL: 'http://x.test' }, { fetch: down })).toThrow(
      `'oidc-issuer-url' ("http://x.test") has invalid scheme ("http"), require 'https'`,
    );
    expect(() => oidcAuthenticator({ ...baseConfig(), signingAlgs: ['HS256'] }, { fetch: down })).toThrow(
      'oidc: unsupported signing alg: "HS256"',
    );
  });
});
