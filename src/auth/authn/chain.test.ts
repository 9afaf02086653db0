import { describe, expect, it } from 'vitest';
import type { UserInfo } from '../../api/authn';
import type { StatusError } from '../../machinery/errors';
import { namingProfile } from '../../machinery/naming';
import { anonymousUser } from './anonymous';
import { extraSpaceWarning, parseAuthorizationHeader } from './bearer-token';
import { AuthenticationChain, UnauthorizedError, buildAuthentication } from './chain';
import { StaticTokens } from './static-tokens';
import type { RequestAuthenticator, TokenAuthenticator } from './types';
import { AggregateAuthError, TokenUnion } from './union';

const profile = namingProfile('orch');
const alice: UserInfo = { username: 'alice', groups: ['devs'] };

function staticUnion(tokens: Record<string, UserInfo>, extra: TokenAuthenticator[] = []): TokenUnion {
  const st = new StaticTokens();
  for (const [t, u] of Object.entries(tokens)) st.add(t, u);
  const members = [
    { name: 'loopback', authenticator: st },
    ...extra.map((a, i) => ({ name: `extra${i}`, authenticator: a })),
  ];
  return new TokenUnion(members, { apiAudiences: ['api'], successTTLms: 0 });
}

function req(headers: Record<string, string> = {}): Request {
  return new Request('https://orch.test/api/v1/namespaces', { headers });
}

const fixed = (user: UserInfo): RequestAuthenticator => ({ authenticate: async () => user });
const none: RequestAuthenticator = { authenticate: async () => undefined };
const failing: RequestAuthenticator = {
  authenticate: async () => {
    throw new Error('x509: certificate signed by unknown authority');
  },
};

describe('parseAuthorizationHeader', () => {
  it.each([
    ['Bearer abc', 'abc', undefined],
    ['bearer abc', 'abc', undefined],
    ['  Bearer abc  ', 'abc', undefined],
    ['Bearer abc def', 'abc', undefined],
    ['Basic YWxpY2U6cHc=', undefined, undefined],
    ['Bearer', undefined, undefined],
    ['Bearer  abc', undefined, extraSpaceWarning],
    ['', undefined, undefined],
  ])('%j → token %j', (header, token, warning) => {
    const parsed = parseAuthorizationHeader(header);
    expect(parsed.token).toBe(token);
    expect(parsed.warning).toBe(warning);
  });
});

describe('AuthenticationChain', () => {
  it('accepts a known bearer token and adds system:authenticated', async () => {
    const chain = new AuthenticationChain({ profile, tokens: staticUnion({ t1: alice }) });
    const result = await chain.authenticate(req({ authorization: 'Bearer t1' }), undefined);
    expect(result.user).toEqual({ username: 'alice', groups: ['devs', 'system:authenticated'] });
    expect(result.consumedHeaders).toEqual(['authorization']);
    expect(result.attempts.at(-1)).toEqual({ authenticator: 'loopback', result: 'accepted' });
  });

  it('answers an unknown bearer token with the real 401, never anonymous', async () => {
    const chain = new AuthenticationChain({ profile, tokens: staticUnion({ t1: alice }) });
    const error = await chain
      .authenticate(req({ authorization: 'Bearer nope' }), undefined)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnauthorizedError);
    const status = (error as StatusError).status;
    expect(status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Unauthorized',
      reason: 'Unauthorized',
      code: 401,
    });
    expect((error as UnauthorizedError).explanation.attempts.map((a) => [a.authenticator, a.result])).toEqual(
      [
        ['loopback', 'no-credential'],
        ['bearer', 'rejected'],
        ['websocket', 'no-credential'],
      ],
    );
  });

  it.each([
    ['no header', {}],
    ['Basic credentials', { authorization: 'Basic YWxpY2U6cHc=' }],
    ['a bare Bearer', { authorization: 'Bearer' }],
  ])('treats %s as anonymous', async (_name, headers) => {
    const chain = new AuthenticationChain({ profile, tokens: staticUnion({}) });
    const result = await chain.authenticate(req(headers), undefined);
    expect(result.user).toEqual(anonymousUser());
    expect(result.warnings).toEqual([]);
  });

  it('treats "Bearer  x" as anonymous with the real warning', async () => {
    const chain = new AuthenticationChain({ profile, tokens: staticUnion({ x: alice }) });
    const result = await chain.authenticate(req({ authorization: 'Bearer  x' }), undefined);
    expect(result.user.username).toBe('system:anonymous');
    expect(result.warnings).toEqual([extraSpaceWarning]);
  });

  it('answers no credential with 401 when anonymous auth is off', async () => {
    const chain = new AuthenticationChain({ profile, anonymous: false, tokens: staticUnion({}) });
    await expect(chain.authenticate(req(), undefined)).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('asks the proxy first, then x509, then tokens', async () => {
    const proxy = { username: 'proxied', groups: [] };
    const cert = { username: 'cert', groups: ['system:masters'] };
    const tokens = staticUnion({ t1: alice });
    const headers = { authorization: 'Bearer t1' };
    const both = new AuthenticationChain({ profile, requestHeader: fixed(proxy), x509: fixed(cert), tokens });
    expect((await both.authenticate(req(headers), undefined)).user.username).toBe('proxied');
    const certFirst = new AuthenticationChain({ profile, requestHeader: none, x509: fixed(cert), tokens });
    expect((await certFirst.authenticate(req(headers), undefined)).user.username).toBe('cert');
  });

  it('lets a later authenticator succeed after an earlier one failed, as the real union does', async () => {
    const chain = new AuthenticationChain({ profile, x509: failing, tokens: staticUnion({ t1: alice }) });
    const result = await chain.authenticate(req({ authorization: 'Bearer t1' }), undefined);
    expect(result.user.username).toBe('alice');
    expect(result.attempts[0]).toMatchObject({ authenticator: 'x509', result: 'rejected' });
  });

  it('answers a failed certificate without other credentials with 401, not anonymous', async () => {
    const chain = new AuthenticationChain({ profile, x509: failing, tokens: staticUnion({}) });
    const error = (await chain.authenticate(req(), undefined).catch((e: unknown) => e)) as UnauthorizedError;
    expect(error.code).toBe(401);
    expect(error.attempts[0]?.reason).toBe('x509: certificate signed by unknown authority');
  });

  it('never adds system:authenticated twice nor to anonymous', async () => {
    const already = { username: 'x', groups: ['system:authenticated'] };
    const chain = new AuthenticationChain({ profile, x509: fixed(already) });
    expect((await chain.authenticate(req(), undefined)).user.groups).toEqual(['system:authenticated']);
  });

  it('reads a bearer token from the WebSocket subprotocol', async () => {
    const chain = new AuthenticationChain({ profile, tokens: staticUnion({ t1: alice }) });
    const headers = {
      connection: 'Upgrade',
      upgrade: 'websocket',
      'sec-websocket-protocol': `base64url.bearer.authorization.orch.io.${btoa('t1').replace(/=+$/, '')}, v4.channel.k8s.io`,
    };
    expect((await chain.authenticate(req(headers), undefined)).user.username).toBe('alice');
  });
});

describe('TokenUnion', () => {
  const thrower: TokenAuthenticator = {
    authenticateToken: async () => {
      throw new Error('webhook: connection refused');
    },
  };
  const agnostic = new StaticTokens();
  agnostic.add('t', alice);

  it('aggregates the errors of every authenticator when none accepts', async () => {
    const union = new TokenUnion(
      [
        { name: 'a', authenticator: thrower },
        { name: 'b', authenticator: { authenticateToken: async () => Promise.reject(new Error('other')) } },
      ],
      { apiAudiences: [] },
    );
    const error = await union.authenticateToken('x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AggregateAuthError);
    expect((error as Error).message).toBe('[webhook: connection refused, other]');
  });

  it('answers audience-agnostic authenticators for the API audiences only', async () => {
    const union = new TokenUnion([{ name: 'file', authenticator: agnostic, audienceAgnostic: true }], {
      apiAudiences: ['api'],
      successTTLms: 0,
    });
    expect(await union.authenticateToken('t')).toEqual({ user: alice, audiences: ['api'] });
    expect(await union.authenticateToken('t', ['api', 'other'])).toEqual({ user: alice, audiences: ['api'] });
    expect(await union.authenticateToken('t', ['other'])).toBeUndefined();
  });

  it('answers at once, as authenticate does, for a cached token and certificate authenticators that decline', async () => {
    let now = 0;
    const union = new TokenUnion([{ name: 'loopback', authenticator: new StaticTokens() }], {
      apiAudiences: ['api'],
      now: () => now,
    });
    const st = new StaticTokens();
    st.add('t1', alice);
    const cached = new TokenUnion([{ name: 'loopback', authenticator: st }], {
      apiAudiences: ['api'],
      now: () => now,
    });
    const declining: RequestAuthenticator = { ...none, declinesAtOnce: () => true };
    const chain = new AuthenticationChain({
      profile,
      requestHeader: declining,
      x509: declining,
      tokens: cached,
    });
    const request = req({ authorization: 'Bearer  t1' });
    // Not yet in the success cache: the chain must ask the union.
    expect(chain.authenticateAtOnce(req({ authorization: 'Bearer t1' }), undefined)).toBeUndefined();
    await chain.authenticate(req({ authorization: 'Bearer t1' }), undefined);
    const atOnce = chain.authenticateAtOnce(req({ authorization: 'Bearer t1' }), undefined);
    expect(atOnce).toEqual(await chain.authenticate(req({ authorization: 'Bearer t1' }), undefined));
    expect(atOnce?.attempts.map((a) => [a.authenticator, a.result])).toEqual([
      ['requestheader', 'no-credential'],
      ['x509', 'no-credential'],
      ['token-cache', 'accepted'],
    ]);
    expect(atOnce?.user).toEqual({ username: 'alice', groups: ['devs', 'system:authenticated'] });
    // The filter's lean form: the same user and warnings, one user object while the token stays cached.
    const identified = chain.identifyAtOnce(req({ authorization: 'Bearer t1' }), undefined);
    expect(identified).toEqual({ user: atOnce?.user, warnings: [] });
    expect(chain.identifyAtOnce(req({ authorization: 'Bearer t1' }), undefined)?.user).toBe(identified?.user);
    expect(chain.authenticateAtOnce(req({ authorization: 'Bearer t1' }), undefined)?.user).toBe(
      identified?.user,
    );
    expect(chain.identifyAtOnce(request, undefined)).toBeUndefined();
    // No token (anonymous, with a warning here), an authenticator that must look, an expired success: not at once.
    expect(chain.authenticateAtOnce(request, undefined)).toBeUndefined();
    const looking = new AuthenticationChain({ profile, x509: none, tokens: cached });
    expect(looking.authenticateAtOnce(req({ authorization: 'Bearer t1' }), undefined)).toBeUndefined();
    now = 10_001;
    expect(chain.authenticateAtOnce(req({ authorization: 'Bearer t1' }), undefined)).toBeUndefined();
    expect(chain.identifyAtOnce(req({ authorization: 'Bearer t1' }), undefined)).toBeUndefined();
    expect(new AuthenticationChain({ profile, tokens: union }).authenticateAtOnce(req(), undefined)).toBe(
      undefined,
    );
  });

  it('remembers a success for the cache TTL, like the real 10 s cache', async () => {
    let now = 0;
    const st = new StaticTokens();
    st.add('t', alice);
    const union = new TokenUnion([{ name: 's', authenticator: st }], { apiAudiences: [], now: () => now });
    expect(await union.authenticateToken('t')).toBeDefined();
    st.add('t', { username: 'changed', groups: [] });
    now = 9_000;
    expect((await union.authenticateToken('t'))?.user.username).toBe('alice');
    now = 10_001;
    expect((await union.authenticateToken('t'))?.user.username).toBe('changed');
  });
});

describe('buildAuthentication', () => {
  it('orders the token file before bootstrap tokens and injected authenticators', async () => {
    const empty = { get: () => undefined, list: () => [], byIndex: () => [] };
    const seen: string[] = [];
    const spy = (name: string): TokenAuthenticator => ({
      authenticateToken: async () => {
        seen.push(name);
        return undefined;
      },
    });
    const { chain, apiAudiences } = await buildAuthentication({
      config: { tokenFile: 'file-token,bob,1', bootstrapTokens: true },
      profile,
      listers: { secrets: empty, serviceAccounts: empty, pods: empty },
      oidc: spy('oidc'),
      webhook: spy('webhook'),
      successTTLms: 0,
    });
    expect(apiAudiences).toEqual([]);
    const ok = await chain.authenticate(req({ authorization: 'Bearer file-token' }), undefined);
    expect(ok.user).toEqual({ username: 'bob', uid: '1', groups: ['system:authenticated'] });
    const error = (await chain
      .authenticate(req({ authorization: 'Bearer abcdef.0123456789abcdef' }), undefined)
      .catch((e: unknown) => e)) as UnauthorizedError;
    expect(seen).toEqual(['oidc', 'webhook']);
    expect(error.attempts.map((a) => a.authenticator)).toEqual([
      'token-file',
      'bootstrap-token',
      'oidc',
      'webhook',
      'bearer',
      'websocket',
    ]);
  });
});
