/**
 * The authentication filter's logic, in the real server's order: the
 * authenticating proxy (request headers), client certificates, then bearer
 * tokens (header, or WebSocket subprotocol) through the token union; the
 * first to accept decides and gets `system:authenticated` added. When none
 * accepts, any failure (a token nobody accepts, a certificate that does not
 * verify) is 401 `Unauthorized` — never anonymous — and only a request that
 * presented no credential at all becomes `system:anonymous` (or 401 when
 * `--anonymous-auth=false`). Every attempt is recorded so the sandbox can
 * explain each 401.
 */

import type { UserInfo } from '../../api/authn';
import type { ConnectionInfo } from '../../api/connection';
import { StatusError } from '../../machinery/errors';
import type { KubeObject } from '../../api/meta';
import type { NamingProfile } from '../../machinery/naming';
import type { AuthenticationExplanation, AuthenticatorAttempt } from '../../api/explain';
import { anonymousUser, withAuthenticatedGroup } from './anonymous';
import {
  type BearerCredential,
  invalidBearerTokenMessage,
  parseAuthorizationHeader,
  parseWebSocketProtocols,
} from './bearer-token';
import { BootstrapTokenAuthenticator } from './bootstrap-token';
import type { AuthenticationConfig } from './config';
import {
  ServiceAccountTokenAuthenticator,
  type LateKeys,
  type ServiceAccountListers,
} from './service-account';
import { loadVerificationKeys } from './service-account-signer';
import { TokenFileAuthenticator } from './token-file';
import type {
  ExplainingRequestAuthenticator,
  RequestAuthenticator,
  RequestVerdict,
  TokenAuthentication,
  TokenAuthenticator,
} from './types';
import { TokenUnion, failedVerdict, type UnionMember } from './union';

export interface AuthenticationResult {
  user: UserInfo;
  attempts: AuthenticatorAttempt[];
  /** Warning texts (the pipeline sends each as a `299` Warning header). */
  warnings: string[];
  /** Request headers that carried the credential; the real filter removes them once authenticated. */
  consumedHeaders: string[];
}

/** Who a request is from, and the warnings its credential gave (`identifyAtOnce`). */
export interface Identified {
  readonly user: UserInfo;
  readonly warnings: readonly string[];
}

const noWarnings: readonly string[] = Object.freeze([]);

/** The real 401 (body `Unauthorized`, no WWW-Authenticate), carrying the attempts for the sandbox's explanation. */
export class UnauthorizedError extends StatusError {
  constructor(
    readonly attempts: AuthenticatorAttempt[],
    readonly warnings: string[] = [],
  ) {
    super(401, 'Unauthorized', 'Unauthorized');
  }

  get explanation(): AuthenticationExplanation {
    return { kind: 'authentication', attempts: this.attempts };
  }
}

export interface ChainOptions {
  profile: NamingProfile;
  /** `--anonymous-auth`; default true. */
  anonymous?: boolean;
  /** The authenticating proxy (`--requestheader-*`), asked first. */
  requestHeader?: RequestAuthenticator;
  /** Client certificates (`--client-ca-file`). */
  x509?: RequestAuthenticator;
  /** Every bearer-token authenticator, in order. */
  tokens?: TokenUnion;
}

/** A request authenticator's "no opinion" (it found no credential of its kind). */
const noCredential = {
  kind: 'declined',
  result: 'no-credential',
  reason: 'no credential of its kind',
} as const;

async function reviewRequest(
  authenticator: RequestAuthenticator,
  request: Request,
  conn: ConnectionInfo | undefined,
): Promise<RequestVerdict> {
  const explaining = authenticator as Partial<ExplainingRequestAuthenticator>;
  if (typeof explaining.reviewRequest === 'function') return explaining.reviewRequest(request, conn);
  try {
    const user = await authenticator.authenticate(request, conn);
    if (user !== undefined) return { kind: 'accepted', user };
    return noCredential;
  } catch (e) {
    return failedVerdict(e);
  }
}

export class AuthenticationChain {
  /** The request authenticators asked before the tokens, in order. */
  private readonly direct: readonly (readonly [string, RequestAuthenticator])[];
  /**
   * The user (with the authenticated group) of each cached token authentication `authenticateAtOnce` answered:
   * one object for as long as the token stays cached, so that whoever remembers by the user (the audit policy,
   * the authorization attributes) finds it again. Users are never changed once authenticated.
   */
  private readonly cachedUsers = new WeakMap<TokenAuthentication, Identified>();

  /** The last `Authorization` header `authenticateAtOnce` read, and its reading (which nothing changes). */
  private lastHeader: { header: string; credential: Readonly<BearerCredential> } | undefined;

  constructor(private readonly options: ChainOptions) {
    const direct: [string, RequestAuthenticator][] = [];
    if (options.requestHeader !== undefined) direct.push(['requestheader', options.requestHeader]);
    if (options.x509 !== undefined) direct.push(['x509', options.x509]);
    this.direct = direct;
  }

  /**
   * `authenticate`'s answer when it needs no async call: each request authenticator declines at once (no
   * certificate, no proof) and the bearer token is in the token union's success cache — a client's steady
   * traffic. Undefined otherwise (`authenticate` then answers); the attempts and warnings are the same.
   */
  authenticateAtOnce(request: Request, conn: ConnectionInfo | undefined): AuthenticationResult | undefined {
    const tokens = this.options.tokens;
    if (tokens === undefined || !this.directDeclineAtOnce(request, conn)) return undefined;
    const credential = this.bearerOf(request);
    if (credential?.token === undefined) return undefined;
    const found = tokens.cachedAuthentication(credential.token);
    if (found?.authentication === undefined) return undefined;
    const attempts: AuthenticatorAttempt[] = this.direct.map(([name]) => ({
      authenticator: name,
      result: noCredential.result,
      reason: noCredential.reason,
    }));
    attempts.push(...found.attempts);
    const warnings = credential.warning !== undefined ? [credential.warning] : [];
    return {
      user: this.identified(found.authentication).user,
      attempts,
      warnings,
      consumedHeaders: ['authorization'],
    };
  }

  /**
   * `authenticateAtOnce`'s user and warnings alone, which is all the request filter keeps, without the attempts
   * (made for an explanation, which an authenticated request never gives): for a client's steady traffic the
   * same frozen object each time while its token stays cached.
   */
  identifyAtOnce(request: Request, conn: ConnectionInfo | undefined): Identified | undefined {
    const tokens = this.options.tokens;
    if (tokens === undefined || !this.directDeclineAtOnce(request, conn)) return undefined;
    const credential = this.bearerOf(request);
    if (credential?.token === undefined) return undefined;
    const authentication = tokens.cachedTokenAuthentication(credential.token);
    if (authentication === undefined) return undefined;
    const identified = this.identified(authentication);
    return credential.warning === undefined
      ? identified
      : { user: identified.user, warnings: [credential.warning] };
  }

  /** Whether every request authenticator (certificates, the front proxy) surely declines without an async call. */
  private directDeclineAtOnce(request: Request, conn: ConnectionInfo | undefined): boolean {
    for (const [, authenticator] of this.direct)
      if (authenticator.declinesAtOnce?.(request, conn) !== true) return false;
    return true;
  }

  /** The `Authorization` header's reading; undefined when it does not parse (the full chain then says why). */
  private bearerOf(request: Request): Readonly<BearerCredential> | undefined {
    const header = request.headers.get('authorization');
    // The last header's reading is kept: a client sends the same one on every request.
    if (header !== null && header === this.lastHeader?.header) return this.lastHeader.credential;
    let credential: BearerCredential;
    try {
      credential = parseAuthorizationHeader(header);
    } catch {
      return undefined;
    }
    if (header !== null) this.lastHeader = { header, credential };
    return credential;
  }

  private identified(authentication: TokenAuthentication): Identified {
    let identified = this.cachedUsers.get(authentication);
    if (identified === undefined) {
      identified = Object.freeze({ user: withAuthenticatedGroup(authentication.user), warnings: noWarnings });
      this.cachedUsers.set(authentication, identified);
    }
    return identified;
  }

  async authenticate(request: Request, conn: ConnectionInfo | undefined): Promise<AuthenticationResult> {
    const attempts: AuthenticatorAttempt[] = [];
    const warnings: string[] = [];
    let failed = false;

    for (const [name, authenticator] of this.direct) {
      const verdict =
        authenticator.declinesAtOnce?.(request, conn) === true
          ? noCredential
          : await reviewRequest(authenticator, request, conn);
      if (verdict.kind === 'accepted') {
        attempts.push({ authenticator: name, result: 'accepted' });
        return { user: withAuthenticatedGroup(verdict.user), attempts, warnings, consumedHeaders: [] };
      }
      if (verdict.kind === 'failed') failed = true;
      const reason = verdict.kind === 'failed' ? (verdict.reason ?? verdict.error.message) : verdict.reason;
      attempts.push({ authenticator: name, result: verdict.result, reason });
    }

    if (this.options.tokens !== undefined) {
      const sources: [string, string, () => BearerCredential][] = [
        ['bearer', 'authorization', () => parseAuthorizationHeader(request.headers.get('authorization'))],
        ['websocket', 'sec-websocket-protocol', () => parseWebSocketProtocols(request, this.options.profile)],
      ];
      for (const [name, header, parse] of sources) {
        let credential: BearerCredential;
        try {
          credential = parse();
        } catch (e) {
          failed = true;
          attempts.push({
            authenticator: name,
            result: 'rejected',
            reason: e instanceof Error ? e.message : String(e),
          });
          continue;
        }
        if (credential.warning !== undefined) warnings.push(credential.warning);
        if (credential.token === undefined) {
          attempts.push({ authenticator: name, result: 'no-credential', reason: credential.reason ?? '' });
          continue;
        }
        const found = await this.options.tokens.authenticate(credential.token);
        attempts.push(...found.attempts);
        if (found.authentication !== undefined) {
          const user = withAuthenticatedGroup(found.authentication.user);
          return { user, attempts, warnings, consumedHeaders: [header] };
        }
        failed = true;
        attempts.push({ authenticator: name, result: 'rejected', reason: invalidBearerTokenMessage });
      }
    }

    if (failed) throw new UnauthorizedError(attempts, warnings);
    if (this.options.anonymous === false) {
      attempts.push({
        authenticator: 'anonymous',
        result: 'rejected',
        reason: 'anonymous requests are disabled',
      });
      throw new UnauthorizedError(attempts, warnings);
    }
    attempts.push({ authenticator: 'anonymous', result: 'accepted', reason: 'no credential was presented' });
    return { user: anonymousUser(), attempts, warnings, consumedHeaders: [] };
  }
}

export interface AuthenticationDeps {
  config: AuthenticationConfig;
  profile: NamingProfile;
  /** Secrets, ServiceAccounts, Pods (`get(namespace, name)` only; no index needed). */
  listers: ServiceAccountListers;
  /** Loopback and admin tokens, asked before every other token authenticator (the real loopback authenticator). */
  staticTokens?: TokenAuthenticator;
  /** Service-account verification keys made after the start (the sandbox's own signer's, see `LateKeys`). */
  lateKeys?: LateKeys;
  requestHeader?: RequestAuthenticator;
  x509?: RequestAuthenticator;
  oidc?: TokenAuthenticator;
  webhook?: TokenAuthenticator;
  /** Names the token file in its parse errors. */
  tokenFilePath?: string;
  /** The token union's success cache (real 10 s); tests pass 0. */
  successTTLms?: number;
  now?: () => number;
  /** Told of each Secret whose legacy token authenticated a request (the last-used label's tracker). */
  legacyTokenUsed?: (secret: KubeObject) => void;
}

/** `--api-audiences`, defaulting to the first service-account issuer. */
export function apiAudiences(config: AuthenticationConfig): string[] {
  const sa = config.serviceAccount;
  if (sa?.apiAudiences !== undefined && sa.apiAudiences.length > 0) return [...sa.apiAudiences];
  return sa?.issuers[0] !== undefined ? [sa.issuers[0]] : [];
}

/**
 * Builds the token union and the chain from the configuration, in the real
 * server's order: token file, legacy service-account tokens, bound
 * service-account tokens, bootstrap tokens, OIDC (kept after the service
 * accounts, as upstream, so a service-account JWT never reaches the issuer),
 * then the webhook. Throws for a malformed token file or key.
 */
export async function buildAuthentication(
  deps: AuthenticationDeps,
): Promise<{ chain: AuthenticationChain; tokens: TokenUnion; apiAudiences: string[] }> {
  const { config, profile } = deps;
  const audiences = apiAudiences(config);
  const members: UnionMember[] = [];
  if (deps.staticTokens !== undefined) members.push({ name: 'loopback', authenticator: deps.staticTokens });
  if (config.tokenFile !== undefined) {
    const authenticator = new TokenFileAuthenticator(config.tokenFile, deps.tokenFilePath);
    members.push({ name: 'token-file', authenticator, audienceAgnostic: true });
  }
  const sa = config.serviceAccount;
  if (sa !== undefined) {
    const keys = (await Promise.all(sa.keys.map((pem) => loadVerificationKeys(pem)))).flat();
    const options = {
      profile,
      keys,
      ...(deps.lateKeys !== undefined ? { lateKeys: deps.lateKeys } : {}),
      issuers: sa.issuers,
      apiAudiences: audiences,
      lookup: sa.lookup ?? true,
    };
    const shared = {
      ...options,
      listers: deps.listers,
      ...(deps.now ? { now: deps.now } : {}),
      ...(deps.legacyTokenUsed ? { legacyTokenUsed: deps.legacyTokenUsed } : {}),
    };
    if (keys.length > 0 || deps.lateKeys !== undefined) {
      const authenticator = new ServiceAccountTokenAuthenticator('legacy', shared);
      members.push({ name: 'service-account (legacy)', authenticator });
    }
    if (sa.issuers.length > 0) {
      members.push({
        name: 'service-account',
        authenticator: new ServiceAccountTokenAuthenticator('bound', shared),
      });
    }
  }
  if (config.bootstrapTokens === true) {
    const authenticator = new BootstrapTokenAuthenticator(deps.listers.secrets, profile, deps.now);
    members.push({ name: 'bootstrap-token', authenticator, audienceAgnostic: true });
  }
  if (deps.oidc !== undefined)
    members.push({ name: 'oidc', authenticator: deps.oidc, audienceAgnostic: true });
  if (deps.webhook !== undefined) members.push({ name: 'webhook', authenticator: deps.webhook });

  const tokens = new TokenUnion(members, {
    apiAudiences: audiences,
    ...(deps.successTTLms !== undefined ? { successTTLms: deps.successTTLms } : {}),
    ...(deps.now !== undefined ? { now: deps.now } : {}),
  });
  const chain = new AuthenticationChain({
    profile,
    anonymous: config.anonymous ?? true,
    tokens,
    ...(deps.requestHeader !== undefined ? { requestHeader: deps.requestHeader } : {}),
    ...(deps.x509 !== undefined ? { x509: deps.x509 } : {}),
  });
  return { chain, tokens, apiAudiences: audiences };
}
