/** TokenReview storage: the bearer semantics, audiences, failures as status and the echoed spec. */

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../api/meta';
import type { TokenAuthentication, TokenAuthenticator } from '../../../../auth/authn/types';
import { StaticTokens } from '../../../../auth/authn/static-tokens';
import { StatusError } from '../../../../machinery/errors';
import { type RequestScope, Warnings } from '../../../rest/scope';
import type { ResourceType } from '../../../resource-type';
import { TokenReviewStorage } from './storage';

const rt = {
  group: 'authentication.orch.io',
  version: 'v1',
  resource: 'tokenreviews',
  kind: 'TokenReview',
  apiVersion: 'authentication.orch.io/v1',
  namespaced: false,
} as ResourceType;

function scope(): RequestScope {
  return {
    user: { username: 'admin', groups: [] },
    uid: 'u',
    verb: 'create',
    namespace: '',
    name: '',
    subresource: '',
    requestResource: { group: rt.group, version: rt.version, resource: rt.resource },
    requestKind: { group: rt.group, version: rt.version, kind: rt.kind },
    dryRun: false,
    warnings: new Warnings(),
    now: new Date(),
    signal: new AbortController().signal,
  };
}

const jane = { username: 'jane', uid: 'j-1', groups: ['dev', 'system:authenticated'], extra: { k: ['v'] } };

/** Static tokens, plus an audience-bound token (`bound`, for audience `api` and `vault`) and one that fails loudly. */
const asked: (readonly string[] | undefined)[] = [];
const statics = new StaticTokens();
statics.add('static', jane);
const authenticator: TokenAuthenticator = {
  async authenticateToken(token, audiences): Promise<TokenAuthentication | undefined> {
    asked.push(audiences);
    if (token === 'broken') throw new Error('token lookup failed');
    if (token === 'rogue') return { user: jane, audiences: ['elsewhere'] };
    if (token === 'bound') {
      const want = audiences ?? ['api'];
      const valid = want.filter((a) => a === 'api' || a === 'vault');
      if (valid.length === 0)
        throw new Error(
          `token audiences ["api" "vault"] is invalid for the target audiences ${JSON.stringify(want).replace(/,/g, ' ')}`,
        );
      return { user: jane, audiences: valid };
    }
    return statics.authenticateToken(token);
  },
};
const storage = new TokenReviewStorage(rt, authenticator);

const review = (spec: Record<string, unknown>): KubeObject => ({
  apiVersion: rt.apiVersion,
  kind: rt.kind,
  spec,
});

describe('TokenReview', () => {
  const cases: { name: string; spec: Record<string, unknown>; status: Record<string, unknown> }[] = [
    {
      name: 'a known static token',
      spec: { token: 'static' },
      status: { authenticated: true, user: jane },
    },
    {
      name: 'only the first word of the token counts, as in a header',
      spec: { token: 'static trailing words' },
      status: { authenticated: true, user: jane },
    },
    {
      name: 'an unknown token',
      spec: { token: 'nobody' },
      status: { user: {}, error: 'invalid bearer token' },
    },
    {
      name: 'a token with a leading space carries nothing',
      spec: { token: ' static' },
      status: { user: {} },
    },
    {
      name: 'an authenticator failure is reported next to the bearer default',
      spec: { token: 'broken' },
      status: { user: {}, error: '[invalid bearer token, token lookup failed]' },
    },
    {
      name: 'an audience-bound token for a requested audience',
      spec: { token: 'bound', audiences: ['vault', 'other'] },
      status: { authenticated: true, user: jane, audiences: ['vault'] },
    },
    {
      name: 'an audience-bound token for none of the requested audiences',
      spec: { token: 'bound', audiences: ['other'] },
      status: {
        user: {},
        error:
          '[invalid bearer token, token audiences ["api" "vault"] is invalid for the target audiences ["other"]]',
      },
    },
    {
      name: 'an audience-agnostic token asked about other audiences',
      spec: { token: 'static', audiences: ['vault'] },
      status: { user: {}, error: 'invalid bearer token' },
    },
  ];
  for (const c of cases)
    it(c.name, async () => {
      const out = await storage.create(scope(), review(c.spec), {});
      expect(out.status).toEqual(c.status);
    });

  it('echoes the spec, token included, and metadata with creationTimestamp null', async () => {
    const out = await storage.create(
      scope(),
      { ...review({ token: 'static', audiences: [] }), metadata: { name: 'x' } },
      {},
    );
    expect(out).toEqual({
      kind: 'TokenReview',
      apiVersion: 'authentication.orch.io/v1',
      metadata: { name: 'x', creationTimestamp: null },
      spec: { token: 'static' },
      status: { authenticated: true, user: jane },
    });
  });

  it('passes the requested audiences, or none to mean the API server', async () => {
    asked.length = 0;
    await storage.create(scope(), review({ token: 'static' }), {});
    await storage.create(scope(), review({ token: 'bound', audiences: ['api'] }), {});
    expect(asked).toEqual([undefined, ['api']]);
  });

  it('refuses an empty token with the real 400', async () => {
    const e: unknown = await storage.create(scope(), review({}), {}).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(StatusError);
    expect((e as StatusError).code).toBe(400);
    expect((e as StatusError).status.reason).toBe('BadRequest');
    expect((e as StatusError).status.message).toBe('token is required for TokenReview in authentication');
  });

  it('answers 500 when an authenticator vouches for audiences nobody asked for', async () => {
    const e: unknown = await storage
      .create(scope(), review({ token: 'rogue', audiences: ['api'] }), {})
      .catch((x: unknown) => x);
    expect((e as StatusError).code).toBe(500);
    expect((e as StatusError).status.message).toBe('Internal error occurred: error validating audiences');
  });
});
