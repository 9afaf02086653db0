/**
 * The sandbox's own OpenID Connect issuer, so learners can try OIDC
 * authentication offline: one RS256 signing key (exportable as a JWK so
 * the lead can persist it with the cluster's settings), the discovery
 * document and key set the real server fetches (as plain objects the
 * sandbox API serves at `<base>/sandbox/v1/oidc/.well-known/openid-configuration`
 * and `<base>/sandbox/v1/oidc/jwks`), and `mint`, which signs an ID token
 * the way a provider would after a login. RS256 because it is the real
 * server's default `--oidc-signing-algs`, so the default flags accept it.
 * The key may be given as a function: it is then asked for on the key's
 * first use (key set, mint, export), so a server's start need not wait for
 * an RSA generation nobody may need.
 */

import { joseLibrary, type JWK } from '../../machinery/jose';
import type { ExternalFetch } from '../authn/config';
import { onceAsync } from '../../machinery/once-async';

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
  jwks(): Promise<{ keys: JWK[] }>;
  mint(request: MintRequest): Promise<string>;
  /** The private signing key as a JWK, to persist and pass back as `options.key`. */
  exportKey(): Promise<JWK>;
  /** An ExternalFetch answering the discovery and key-set URLs in-process (404 otherwise), for the browser host and tests. */
  readonly fetch: ExternalFetch;
}

export interface SandboxIssuerOptions {
  /** The server's base URL, e.g. `https://127.0.0.1:6443` (no trailing slash needed). */
  baseURL: string;
  /**
   * A previously exported private JWK; omitted: a new key is generated. A function is called on the key's
   * first use (once; again after a failure), e.g. to read or create a stored key only when it is needed.
   */
  key?: JWK | (() => Promise<JWK>);
  now?: () => Date;
}

export async function createSandboxIssuer(options: SandboxIssuerOptions): Promise<SandboxIssuer> {
  const base = options.baseURL.replace(/\/+$/, '');
  const issuerURL = `${base}${issuerPath}`;
  const now = options.now ?? (() => new Date());

  const given = options.key;
  const signingKey = onceAsync(async () => {
    const privateJwk = typeof given === 'function' ? await given() : (given ?? (await generateIssuerKey()));
    const { calculateJwkThumbprint, importJWK } = await joseLibrary.load();
    const privateKey = (await importJWK({ ...privateJwk, alg }, alg, { extractable: true })) as CryptoKey;
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
    return { privateJwk, privateKey, publicJwk, kid };
  });
  // A key given or generated here is ready before the issuer is returned, as it always was.
  if (typeof given !== 'function') await signingKey();

  const discovery = (): DiscoveryDocument => ({
    issuer: issuerURL,
    jwks_uri: `${base}${jwksPath}`,
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: [alg],
    claims_supported: ['sub', 'iss', 'aud', 'exp', 'iat', 'email', 'email_verified', 'groups'],
  });
  const jwks = async (): Promise<{ keys: JWK[] }> => ({ keys: [(await signingKey()).publicJwk] });

  const fetch: ExternalFetch = async (request) => {
    const path = new URL(request.url).pathname;
    const json = (value: unknown): Response =>
      new Response(JSON.stringify(value), { status: 200, headers: { 'content-type': 'application/json' } });
    if (path === discoveryPath || path.endsWith(discoveryPath)) return json(discovery());
    if (path === jwksPath || path.endsWith(jwksPath)) return json(await jwks());
    return new Response('404 page not found\n', { status: 404, statusText: 'Not Found' });
  };

  return {
    issuerURL,
    discovery,
    jwks,
    fetch,
    async exportKey(): Promise<JWK> {
      return { ...(await signingKey()).privateJwk };
    },
    async mint(request: MintRequest): Promise<string> {
      const { privateKey, kid } = await signingKey();
      const { SignJWT } = await joseLibrary.load();
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

/** A fresh signing key for the issuer (RSA 2048, private JWK), for a host that stores it before use. */
export async function generateIssuerKey(): Promise<JWK> {
  const { exportJWK, generateKeyPair } = await joseLibrary.load();
  const pair = await generateKeyPair(alg, { extractable: true, modulusLength: 2048 });
  return exportJWK(pair.privateKey);
}
