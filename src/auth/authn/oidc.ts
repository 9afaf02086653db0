/**
 * OpenID Connect ID tokens as bearer tokens (`--oidc-*` flags), checked as
 * the real server checks them with go-oidc: a token whose unverified `iss`
 * is not exactly the configured issuer is none of this authenticator's
 * business (the next token authenticator is asked); otherwise the issuer's
 * discovery document and keys (fetched through the injected transport with
 * `--oidc-ca-file`) verify it — issuer, audience, expiry and not-before
 * first, then the algorithm and signature — and the configured claims name
 * the user and groups. Every refusal carries go-oidc's or the
 * authenticator's own error text for the learner's explanation; the caller
 * only ever sees 401 Unauthorized.
 */

import { joseLibrary, type JWK } from '../../machinery/jose';
import type { UserInfo } from '../../api/authn';
import type { ExternalFetch, OidcConfig } from './config';
import { AuthenticationRejected } from './rejection';
import type { TokenAuthentication, TokenAuthenticator } from './types';

/** The algorithms `--oidc-signing-algs` may name. */
export const allowedSigningAlgs = [
  'RS256',
  'RS384',
  'RS512',
  'ES256',
  'ES384',
  'ES512',
  'PS256',
  'PS384',
  'PS512',
];

export interface OidcAuthenticatorOptions {
  /** Reaches the issuer (discovery and keys); receives `caPEM` from `--oidc-ca-file`. */
  fetch: ExternalFetch;
  now?: () => Date;
  /** Allow an `http://` issuer. The real server demands https; the sandbox's own issuer may be served over plain http by the browser host. */
  allowInsecureIssuer?: boolean;
  /** Least time between two key-set refetches triggered by unknown keys; default 10 s. */
  keysRefetchIntervalMs?: number;
  /** Least time between two discovery attempts after a failure; default 10 s (the real server polls every 10 s). */
  discoveryRetryIntervalMs?: number;
}

export interface OidcAuthenticator extends TokenAuthenticator {
  /** Runs discovery now (instead of at the first token); rejects with the failure. */
  ready(): Promise<void>;
}

type Claims = Record<string, unknown>;

/** Go's spelling of a JSON value's type in `json: cannot unmarshal <type> into …`. */
function goJsonType(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  if (typeof value === 'boolean') return 'bool';
  return typeof value === 'object' ? 'object' : typeof value;
}

function cannotUnmarshal(value: unknown, into: string): string {
  return `json: cannot unmarshal ${goJsonType(value)} into Go value of type ${into}`;
}

/** Go's `%v` of a UTC time.Time (whole seconds). */
function goTime(d: Date): string {
  return d
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d{3}Z$/, ' +0000 UTC');
}

function goZeroTime(): Date {
  const d = new Date(0);
  d.setUTCFullYear(1, 0, 1);
  return d;
}

/** Go's `%q` of a string slice: `["a" "b"]`. */
function goQuotedList(values: readonly string[]): string {
  return `[${values.map((v) => JSON.stringify(v)).join(' ')}]`;
}

function decodeSegment(segment: string): unknown {
  const b64 = segment.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes));
}

/** The token's claims without verifying anything, or undefined when it is not a JWT. */
function untrustedClaims(token: string): Claims | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const claims = decodeSegment(parts[1] ?? '');
    return typeof claims === 'object' && claims !== null && !Array.isArray(claims)
      ? (claims as Claims)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The default prefix rule of the real server's options: `<issuer>#` unless the claim is `email`; `-` means none. */
export function effectiveUsernamePrefix(config: OidcConfig): string {
  const claim = config.usernameClaim ?? 'sub';
  const prefix = config.usernamePrefix ?? '';
  if (prefix === '-') return '';
  if (prefix === '' && claim !== 'email') return `${config.issuerURL}#`;
  return prefix;
}

async function getJSON(
  fetcher: ExternalFetch,
  url: string,
  caPEM: string | undefined,
): Promise<{ ok: true; value: unknown } | { ok: false; error: string }> {
  let response: Response;
  try {
    response = await fetcher(
      new Request(url, { headers: { accept: 'application/json' } }),
      caPEM !== undefined ? { caPEM } : undefined,
    );
  } catch (e) {
    return { ok: false, error: `Get ${JSON.stringify(url)}: ${e instanceof Error ? e.message : String(e)}` };
  }
  const body = await response.text();
  if (response.status !== 200)
    return { ok: false, error: `${response.status} ${response.statusText}: ${body}` };
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch (e) {
    return { ok: false, error: `decode: ${e instanceof Error ? e.message : String(e)}` };
  }
}

export function oidcAuthenticator(config: OidcConfig, options: OidcAuthenticatorOptions): OidcAuthenticator {
  const issuerURL = config.issuerURL;
  const scheme = new URL(issuerURL).protocol.replace(/:$/, '');
  if (scheme !== 'https' && !(scheme === 'http' && options.allowInsecureIssuer === true)) {
    throw new Error(
      `'oidc-issuer-url' (${JSON.stringify(issuerURL)}) has invalid scheme (${JSON.stringify(scheme)}), require 'https'`,
    );
  }
  const signingAlgs =
    config.signingAlgs !== undefined && config.signingAlgs.length > 0 ? config.signingAlgs : ['RS256'];
  for (const alg of signingAlgs) {
    if (!allowedSigningAlgs.includes(alg))
      throw new Error(`oidc: unsupported signing alg: ${JSON.stringify(alg)}`);
  }
  const usernameClaim = config.usernameClaim ?? 'sub';
  const usernamePrefix = effectiveUsernamePrefix(config);
  const now = options.now ?? (() => new Date());
  const refetchInterval = options.keysRefetchIntervalMs ?? 10_000;
  const retryInterval = options.discoveryRetryIntervalMs ?? 10_000;

  let jwksURI: string | undefined;
  let discovering: Promise<void> | undefined;
  let lastDiscoveryFailure: { at: number; error: string } | undefined;
  let keys: JWK[] | undefined;
  let lastKeysFetch = -Infinity;
  let fetchingKeys: Promise<void> | undefined;

  const fail = (reason: string, result: 'rejected' | 'error' = 'rejected'): never => {
    throw new AuthenticationRejected('oidc', reason, result);
  };

  async function discover(): Promise<void> {
    const url = `${issuerURL.replace(/\/$/, '')}/.well-known/openid-configuration`;
    const got = await getJSON(options.fetch, url, config.caPEM);
    if (!got.ok) throw new Error(got.error);
    const doc = got.value as { issuer?: unknown; jwks_uri?: unknown };
    if (typeof doc !== 'object' || doc === null)
      throw new Error('oidc: failed to decode provider discovery object');
    if (doc.issuer !== issuerURL) {
      throw new Error(
        `oidc: issuer did not match the issuer returned by provider, expected ${JSON.stringify(issuerURL)} got ${JSON.stringify(doc.issuer ?? '')}`,
      );
    }
    if (typeof doc.jwks_uri !== 'string')
      throw new Error('oidc: failed to decode provider discovery object: no jwks_uri');
    jwksURI = doc.jwks_uri;
  }

  /** Discovery once; after a failure, again no sooner than the retry interval (the real server polls). */
  async function ensureDiscovered(): Promise<void> {
    if (jwksURI !== undefined) return;
    if (discovering === undefined) {
      const t = now().getTime();
      if (lastDiscoveryFailure !== undefined && t - lastDiscoveryFailure.at < retryInterval) {
        throw new Error(lastDiscoveryFailure.error);
      }
      discovering = discover().then(
        () => {
          lastDiscoveryFailure = undefined;
        },
        (e: unknown) => {
          lastDiscoveryFailure = { at: now().getTime(), error: e instanceof Error ? e.message : String(e) };
          throw e;
        },
      );
      discovering.finally(() => (discovering = undefined)).catch(() => undefined);
    }
    await discovering;
  }

  async function refreshKeys(): Promise<void> {
    if (fetchingKeys !== undefined) return fetchingKeys;
    lastKeysFetch = now().getTime();
    fetchingKeys = (async () => {
      const got = await getJSON(options.fetch, jwksURI ?? '', config.caPEM);
      if (!got.ok) throw new Error(`fetching keys oidc: get keys failed: ${got.error}`);
      const set = got.value as { keys?: unknown };
      if (!Array.isArray(set.keys))
        throw new Error('fetching keys oidc: failed to decode keys: no keys array');
      keys = set.keys.filter((k): k is JWK => typeof k === 'object' && k !== null);
    })().finally(() => (fetchingKeys = undefined));
    return fetchingKeys;
  }

  async function tryKeys(token: string, kid: string | undefined, alg: string, set: JWK[]): Promise<boolean> {
    const { compactVerify, importJWK } = await joseLibrary.load();
    for (const jwk of set) {
      if (kid !== undefined && kid !== '' && jwk.kid !== kid) continue;
      try {
        await compactVerify(token, await importJWK(jwk, alg), { algorithms: [alg] });
        return true;
      } catch {
        // another key may match
      }
    }
    return false;
  }

  /** go-oidc's order: cached keys, then (rate-limited here) a refetch for a rotated key. */
  async function verifySignature(token: string, kid: string | undefined, alg: string): Promise<void> {
    if (keys !== undefined && (await tryKeys(token, kid, alg, keys))) return;
    if (keys === undefined || now().getTime() - lastKeysFetch >= refetchInterval) {
      try {
        await refreshKeys();
      } catch (e) {
        fail(
          `oidc: verify token: failed to verify signature: ${e instanceof Error ? e.message : String(e)}`,
          'error',
        );
      }
      if (keys !== undefined && (await tryKeys(token, kid, alg, keys))) return;
    }
    fail('oidc: verify token: failed to verify signature: failed to verify id token signature');
  }

  function checkClaims(claims: Claims): void {
    const verify = (msg: string): never => fail(`oidc: verify token: ${msg}`);
    for (const name of ['exp', 'nbf', 'iat']) {
      const v = claims[name];
      if (v !== undefined && typeof v !== 'number') {
        verify(`oidc: failed to unmarshal claims: ${cannotUnmarshal(v, 'float64')}`);
      }
    }
    const iss = claims['iss'];
    if (iss !== issuerURL) {
      verify(
        `oidc: id token issued by a different provider, expected ${JSON.stringify(issuerURL)} got ${JSON.stringify(iss)}`,
      );
    }
    const audClaim = claims['aud'];
    const aud =
      typeof audClaim === 'string' ? [audClaim] : Array.isArray(audClaim) ? audClaim.map(String) : [];
    if (!aud.includes(config.clientID)) {
      verify(`oidc: expected audience ${JSON.stringify(config.clientID)} got ${goQuotedList(aud)}`);
    }
    const t = now();
    // A token without exp has Go's zero time as expiry, so go-oidc reports it expired.
    const exp = typeof claims['exp'] === 'number' ? new Date(claims['exp'] * 1000) : goZeroTime();
    if (exp.getTime() < t.getTime()) verify(`oidc: token is expired (Token Expiry: ${goTime(exp)})`);
    const nbf = claims['nbf'];
    // go-oidc allows one minute of clock skew on nbf (none on exp).
    if (typeof nbf === 'number' && t.getTime() + 60_000 < nbf * 1000) {
      verify(
        `oidc: current time ${goTime(t)} before the nbf (not before) time: ${goTime(new Date(nbf * 1000))}`,
      );
    }
  }

  function userFromClaims(claims: Claims): UserInfo {
    if (!(usernameClaim in claims))
      fail(`oidc: parse username claims ${JSON.stringify(usernameClaim)}: claim not present`);
    const rawName = claims[usernameClaim];
    if (typeof rawName !== 'string' && rawName !== null) {
      fail(
        `oidc: parse username claims ${JSON.stringify(usernameClaim)}: ${cannotUnmarshal(rawName, 'string')}`,
      );
    }
    if (usernameClaim === 'email' && 'email_verified' in claims) {
      const verified = claims['email_verified'];
      if (typeof verified !== 'boolean' && verified !== null) {
        fail(`oidc: parse 'email_verified' claim: ${cannotUnmarshal(verified, 'bool')}`);
      }
      if (verified !== true) fail('oidc: email not verified');
    }
    const user: UserInfo = { username: usernamePrefix + (rawName ?? ''), groups: [] };
    const groupsClaim = config.groupsClaim ?? '';
    if (groupsClaim !== '' && groupsClaim in claims) {
      const raw = claims[groupsClaim];
      // A single string is one group (some providers put a role there).
      if (typeof raw === 'string') user.groups = [raw];
      else if (Array.isArray(raw) && raw.every((g) => typeof g === 'string'))
        user.groups = [...(raw as string[])];
      else if (raw !== null) {
        const bad = Array.isArray(raw) ? raw.find((g) => typeof g !== 'string') : raw;
        fail(`oidc: parse groups claim ${JSON.stringify(groupsClaim)}: ${cannotUnmarshal(bad, 'string')}`);
      }
    }
    const groupsPrefix = config.groupsPrefix ?? '';
    if (groupsPrefix !== '') user.groups = user.groups.map((g) => groupsPrefix + g);
    for (const [claim, want] of Object.entries(config.requiredClaims ?? {})) {
      if (!(claim in claims)) fail(`oidc: required claim ${claim} not present in ID token`);
      const got = claims[claim];
      if (typeof got !== 'string' && got !== null)
        fail(`oidc: parse claim ${claim}: ${cannotUnmarshal(got, 'string')}`);
      if ((got ?? '') !== want) {
        fail(`oidc: required claim ${claim} value does not match. Got = ${got ?? ''}, want = ${want}`);
      }
    }
    return user;
  }

  return {
    async ready(): Promise<void> {
      await ensureDiscovered();
    },

    async authenticateToken(token: string): Promise<TokenAuthentication | undefined> {
      const claims = untrustedClaims(token);
      if (claims === undefined || claims['iss'] !== issuerURL) return undefined;
      try {
        await ensureDiscovered();
      } catch (e) {
        fail(`oidc: authenticator not initialized (${e instanceof Error ? e.message : String(e)})`, 'error');
      }
      let header: { alg?: string; kid?: string };
      const { decodeProtectedHeader } = await joseLibrary.load();
      try {
        header = decodeProtectedHeader(token);
      } catch (e) {
        return fail(`oidc: verify token: oidc: malformed jwt: ${e instanceof Error ? e.message : String(e)}`);
      }
      checkClaims(claims);
      const alg = header.alg ?? '';
      if (!signingAlgs.includes(alg)) {
        fail(
          `oidc: verify token: oidc: id token signed with unsupported algorithm, expected ${goQuotedList(signingAlgs)} got ${JSON.stringify(alg)}`,
        );
      }
      await verifySignature(token, header.kid, alg);
      return { user: userFromClaims(claims), audiences: [] };
    },
  };
}
