/**
 * The sandbox's own OpenID Connect issuer, so learners can try OIDC
 * authentication offline: one RS256 signing key (exportable as a JWK so
 * the lead can persist it with the cluster's settings), the discovery
 * document and key set the real server fetches (as plain objects the
 * sandbox API serves at `<base>/sandbox/v1/oidc/.well-known/openid-configuration`
 * and `<base>/sandbox/v1/oidc/jwks`), and `mint`, which signs an ID token
 * the way a provider would after a login. RS256 because it is the real
 * server's default `--oidc-signing-algs`, so the default flags accept it.
 */

import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from 'jose';
import type { ExternalFetch } from '../authn/config';

/** Where the issuer lives under the server's base URL. */
export const issuerPath = '/sandbox/v1/oidc';
export const discoveryPath = `${issuerPath}/.well-known/openid-configuration`;
export const jwksPath = `${issuerPath}/jwks`;

const alg = 'RS256';

export interface MintRequest {
  sub: string;
  /** The client id the token is for (`--oidc-client-id`). */
  audience: string | string[];
  email?: string;
  /** Default true when `email` is set. */
  emailVerified?: boolean;
  groups?: string[];
  /** Default one hour. */
  expiresInSeconds?: number;
  /** Any further claims (e.g. for `--oidc-required-claim`). */
  claims?: Record<string, unknown>;
}

export interface DiscoveryDocument {
  issuer: string;
  jwks_uri: string;
  response_types_supported: string[];
  subject_types_supported: string[];
  id_token_signing_alg_values_supported: string[];
  claims_supported: string[];
}

export interface SandboxIssuer {
  /** `<base>/sandbox/v1/oidc` — the value for `--oidc-issuer-url`. */
  readonly issuerURL: string;
  discovery(): DiscoveryDocument;
  jwks(): { keys: JWK[] };
  mint(request: MintRequest): Promise<string>;
  /** The private signing key as a JWK, to persist and pass back as `options.key`. */
  exportKey(): Promise<JWK>;
  /** An ExternalFetch answering the discovery and key-set URLs in-process (404 otherwise), for the browser host and tests. */
  readonly fetch: ExternalFetch;
}

export interface SandboxIssuerOptions {
  /** The server's base URL, e.g. `https://127.0.0.1:6443` (no trailing slash needed). */
  baseURL: string;
  /** A previously exported private JWK; omitted: a new key is generated. */
  key?: JWK;
  now?: () => Date;
}

export async function createSandboxIssuer(options: SandboxIssuerOptions): Promise<SandboxIssuer> {
  const base = options.baseURL.replace(/\/+$/, '');
  const issuerURL = `${base}${issuerPath}`;
  const now = options.now ?? (() => new Date());

  let privateKey: CryptoKey;
  let privateJwk: JWK;
  if (options.key !== undefined) {
    privateJwk = options.key;
    privateKey = (await importJWK({ ...options.key, alg }, alg, { extractable: true })) as CryptoKey;
  } else {
    const pair = await generateKeyPair(alg, { extractable: true, modulusLength: 2048 });
    privateKey = pair.privateKey;
    privateJwk = await exportJWK(pair.privateKey);
  }
  const {
    d: _d,
    p: _p,
    q: _q,
    dp: _dp,
    dq: _dq,
    qi: _qi,
    key_ops: _ops,
    ext: _ext,
    ...publicParts
  } = privateJwk;
  const kid = await calculateJwkThumbprint(publicParts);
  const publicJwk: JWK = { ...publicParts, kid, alg, use: 'sig' };

  const discovery = (): DiscoveryDocument => ({
    issuer: issuerURL,
    jwks_uri: `${base}${jwksPath}`,
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: [alg],
    claims_supported: ['sub', 'iss', 'aud', 'exp', 'iat', 'email', 'email_verified', 'groups'],
  });
  const jwks = (): { keys: JWK[] } => ({ keys: [publicJwk] });

  const fetch: ExternalFetch = async (request) => {
    const path = new URL(request.url).pathname;
    const json = (value: unknown): Response =>
      new Response(JSON.stringify(value), { status: 200, headers: { 'content-type': 'application/json' } });
    if (path === discoveryPath || path.endsWith(discoveryPath)) return json(discovery());
    if (path === jwksPath || path.endsWith(jwksPath)) return json(jwks());
    return new Response('404 page not found\n', { status: 404, statusText: 'Not Found' });
  };

  return {
    issuerURL,
    discovery,
    jwks,
    fetch,
    async exportKey(): Promise<JWK> {
      return { ...privateJwk };
    },
    async mint(request: MintRequest): Promise<string> {
      const issuedAt = Math.floor(now().getTime() / 1000);
      const claims: Record<string, unknown> = { ...request.claims };
      if (request.email !== undefined) {
        claims['email'] = request.email;
        claims['email_verified'] = request.emailVerified ?? true;
      }
      if (request.groups !== undefined) claims['groups'] = request.groups;
      return new SignJWT(claims)
        .setProtectedHeader({ alg, kid, typ: 'JWT' })
        .setIssuer(issuerURL)
        .setSubject(request.sub)
        .setAudience(request.audience)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + (request.expiresInSeconds ?? 3600))
        .sign(privateKey);
    },
  };
}
