/**
 * The bearer-token union: asks each token authenticator in turn (the real
 * server's order is decided by the chain builder) and takes the first that
 * accepts; when none does, every error is reported together as the real
 * union's aggregate. Audience-agnostic authenticators (token file,
 * bootstrap tokens, OIDC) answer only when the requested audiences meet the
 * API audiences, and then for that intersection — the real
 * `WrapAudienceAgnosticToken`. Successful answers are cached briefly (the
 * real server keeps them 10 s), so a revoked token may still work for that
 * long. It serves both request authentication and TokenReview.
 */

import type { AuthenticatorAttempt } from '../../api/explain';
import { rejectionAttempt } from './rejection';
import type {
  ExplainingTokenAuthenticator,
  TokenAuthentication,
  TokenAuthenticator,
  TokenVerdict,
} from './types';

export interface UnionMember {
  /** The attempt name shown in explanations: `token-file`, `service-account`, `bootstrap-token`, `oidc`, `webhook`, … */
  name: string;
  authenticator: TokenAuthenticator;
  /** Wrap as audience-agnostic: it vouches for the API audiences only. */
  audienceAgnostic?: boolean;
}

export interface TokenUnionOptions {
  /** `--api-audiences`; the audiences a request is checked against. */
  apiAudiences: readonly string[];
  /** How long a success is remembered (real default 10 s); 0 disables the cache. */
  successTTLms?: number;
  now?: () => number;
}

export interface TokenUnionResult {
  authentication?: TokenAuthentication;
  attempts: AuthenticatorAttempt[];
  /** The errors the real union aggregates (empty when every authenticator merely declined). */
  errors: Error[];
}

/** The real aggregate's text: one error as itself, several deduplicated inside brackets. */
export function aggregateMessage(errors: readonly Error[]): string {
  const unique = [...new Set(errors.map((e) => e.message))];
  return unique.length === 1 ? (unique[0] ?? '') : `[${unique.join(', ')}]`;
}

/** Thrown by `authenticateToken` when authenticators failed; `errors` lets TokenReview list each. */
export class AggregateAuthError extends Error {
  constructor(readonly errors: readonly Error[]) {
    super(aggregateMessage(errors));
    this.name = 'AggregateAuthError';
  }
}

/** Asks a plain token authenticator and turns its answer into a verdict. */
export async function reviewWith(
  authenticator: TokenAuthenticator,
  token: string,
  audiences?: readonly string[],
): Promise<TokenVerdict> {
  const explaining = authenticator as Partial<ExplainingTokenAuthenticator>;
  if (typeof explaining.reviewToken === 'function') return explaining.reviewToken(token, audiences);
  try {
    const found = await authenticator.authenticateToken(token, audiences);
    return found === undefined
      ? { kind: 'declined', result: 'no-credential', reason: 'did not recognize the token' }
      : { kind: 'accepted', authentication: found };
  } catch (e) {
    return failedVerdict(e);
  }
}

/** A thrown error as a verdict; the other authenticators' `AuthenticationRejected` carries its own attempt. */
export function failedVerdict(e: unknown): TokenVerdict & { kind: 'failed' } {
  const error = e instanceof Error ? e : new Error(String(e));
  const attempt = rejectionAttempt(e);
  if (attempt === undefined) return { kind: 'failed', result: 'rejected', error };
  const result = attempt.result === 'error' ? 'error' : 'rejected';
  return {
    kind: 'failed',
    result,
    error,
    ...(attempt.reason !== undefined ? { reason: attempt.reason } : {}),
  };
}

function intersect(a: readonly string[], b: readonly string[]): string[] {
  return a.filter((x) => b.includes(x));
}

export class TokenUnion implements ExplainingTokenAuthenticator {
  private readonly cache = new Map<string, { until: number; result: TokenAuthentication }>();
  private readonly ttl: number;
  private readonly now: () => number;
  /** The success cache's key part for the API audiences (a request's), joined once. */
  private readonly apiAudiencesKey: string;

  constructor(
    private readonly members: readonly UnionMember[],
    private readonly options: TokenUnionOptions,
  ) {
    this.ttl = options.successTTLms ?? 10_000;
    this.now = options.now ?? Date.now;
    this.apiAudiencesKey = options.apiAudiences.join('\u0000');
  }

  /**
   * `authenticate`'s answer when the success cache holds the token (at the API server's audiences), without a
   * turn of the microtask queue; undefined when the members must be asked.
   */
  cachedAuthentication(token: string): TokenUnionResult | undefined {
    return this.fromCache(`${this.apiAudiencesKey}\u0001${token}`);
  }

  /** Every attempt and the first acceptance; `audiences` defaults to the API audiences (as on a request). */
  async authenticate(token: string, audiences?: readonly string[]): Promise<TokenUnionResult> {
    const requested = audiences ?? this.options.apiAudiences;
    const key = `${audiences === undefined ? this.apiAudiencesKey : requested.join('\u0000')}\u0001${token}`;
    const cached = this.fromCache(key);
    if (cached !== undefined) return cached;

    const attempts: AuthenticatorAttempt[] = [];
    const errors: Error[] = [];
    for (const member of this.members) {
      const verdict = await this.ask(member, token, requested);
      if (verdict.kind === 'accepted') {
        attempts.push({ authenticator: member.name, result: 'accepted' });
        if (this.ttl > 0)
          this.cache.set(key, { until: this.now() + this.ttl, result: verdict.authentication });
        return { authentication: verdict.authentication, attempts, errors };
      }
      if (verdict.kind === 'declined') {
        attempts.push({ authenticator: member.name, result: verdict.result, reason: verdict.reason });
      } else {
        errors.push(verdict.error);
        const reason = verdict.reason ?? verdict.error.message;
        attempts.push({ authenticator: member.name, result: verdict.result, reason });
      }
    }
    return { attempts, errors };
  }

  async reviewToken(token: string, audiences?: readonly string[]): Promise<TokenVerdict> {
    const { authentication, errors, attempts } = await this.authenticate(token, audiences);
    if (authentication !== undefined) return { kind: 'accepted', authentication };
    if (errors.length > 0)
      return { kind: 'failed', result: 'rejected', error: new AggregateAuthError(errors) };
    const reason = attempts.map((a) => `${a.authenticator}: ${a.reason ?? a.result}`).join('; ');
    return { kind: 'declined', result: 'rejected', reason };
  }

  async authenticateToken(
    token: string,
    audiences?: readonly string[],
  ): Promise<TokenAuthentication | undefined> {
    const { authentication, errors } = await this.authenticate(token, audiences);
    if (authentication !== undefined) return authentication;
    if (errors.length > 0) throw errors.length === 1 ? errors[0] : new AggregateAuthError(errors);
    return undefined;
  }

  /** `cachedAuthentication`'s authentication alone, without its account of the attempt (every request asks). */
  cachedTokenAuthentication(token: string): TokenAuthentication | undefined {
    const cached = this.cache.get(`${this.apiAudiencesKey}\u0001${token}`);
    return cached === undefined || cached.until <= this.now() ? undefined : cached.result;
  }

  private fromCache(key: string): TokenUnionResult | undefined {
    const cached = this.cache.get(key);
    if (cached === undefined || cached.until <= this.now()) return undefined;
    const attempt: AuthenticatorAttempt = { authenticator: 'token-cache', result: 'accepted' };
    attempt.reason = 'accepted within the last few seconds (cached like the real server)';
    return { authentication: cached.result, attempts: [attempt], errors: [] };
  }

  private async ask(member: UnionMember, token: string, requested: readonly string[]): Promise<TokenVerdict> {
    if (!member.audienceAgnostic) return reviewWith(member.authenticator, token, requested);
    const audiences = intersect(this.options.apiAudiences, requested);
    if (this.options.apiAudiences.length > 0 && audiences.length === 0) {
      const reason = `vouches only for the API audiences ${JSON.stringify(this.options.apiAudiences)}`;
      return { kind: 'declined', result: 'no-credential', reason };
    }
    const verdict = await reviewWith(member.authenticator, token, requested);
    if (verdict.kind !== 'accepted') return verdict;
    return { kind: 'accepted', authentication: { user: verdict.authentication.user, audiences } };
  }
}
