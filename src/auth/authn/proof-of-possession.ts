/**
 * Client certificates without TLS: between the page and the service worker
 * there is no handshake, so a page that wants to authenticate with a
 * certificate (a learner's kubeconfig identity, or the authenticating
 * proxy's certificate) presents its chain in a header together with a
 * signature, made with the certificate's private key, over the method, the
 * path and query, a timestamp and the SHA-256 digest of the body. This
 * module checks that proof and hands the chain on as the connection's peer
 * certificates, exactly where the Node host puts a TLS peer's chain; the
 * x509 and front-proxy authenticators then verify the chain itself. A
 * certificate alone is never trusted: headers without a valid, fresh
 * signature are a 401. The page side is `src/client/proof-of-possession.ts`;
 * the two must agree on `proofMessage` (a test signs with one and verifies
 * with the other).
 */

import type { UserInfo } from '../../api/authn';
import type { ConnectionInfo } from '../../api/connection';
import { fromBase64, ownBytes, toBase64 } from '../pki/pem';
import { x509, x509Library, type X509Certificate } from '../pki/x509';
import { AuthenticationRejected } from './rejection';
import type { RequestAuthenticator } from './types';

export const proofHeaders = {
  /** Base64 DER certificates, leaf first, comma-separated. */
  certificate: 'X-Sandbox-Client-Certificate',
  /** RFC 3339 time of signing. */
  timestamp: 'X-Sandbox-Client-Timestamp',
  /** Base64url signature over `proofMessage(…)` with the leaf's key (ECDSA P-256/SHA-256 raw r‖s, or RSASSA-PKCS1-v1_5/SHA-256). */
  signature: 'X-Sandbox-Client-Signature',
} as const;

/** Default tolerance between the signer's clock and the server's. */
export const defaultProofWindowMs = 5 * 60_000;

const authenticatorName = 'proof-of-possession';

/** The bytes that are signed: a version tag, the method, path and query, the timestamp and the body digest, one per line. */
export function proofMessage(
  method: string,
  pathAndQuery: string,
  timestamp: string,
  bodyDigest: string,
): Uint8Array {
  return new TextEncoder().encode(
    ['sandbox-client-proof-v1', method.toUpperCase(), pathAndQuery, timestamp, bodyDigest].join('\n'),
  );
}

/** Base64url (unpadded) of SHA-256 of the body. */
export async function bodyDigest(body: ArrayBuffer): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', body));
  return toBase64(hash).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function reject(reason: string): never {
  throw new AuthenticationRejected(authenticatorName, reason);
}

async function verificationKey(
  leaf: X509Certificate,
): Promise<{ key: CryptoKey; params: AlgorithmIdentifier | EcdsaParams }> {
  const algorithm = leaf.publicKey.algorithm as KeyAlgorithm & { namedCurve?: string };
  if (algorithm.name === 'ECDSA') {
    const key = await leaf.publicKey.export({ name: 'ECDSA', namedCurve: algorithm.namedCurve ?? 'P-256' }, [
      'verify',
    ]);
    return { key, params: { name: 'ECDSA', hash: 'SHA-256' } };
  }
  if (algorithm.name === 'RSASSA-PKCS1-v1_5' || algorithm.name === 'RSA-PSS' || algorithm.name === 'RSA') {
    const key = await leaf.publicKey.export({ name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, ['verify']);
    return { key, params: { name: 'RSASSA-PKCS1-v1_5' } };
  }
  return reject(`unsupported client certificate key algorithm ${algorithm.name}`);
}

export interface ProofOfPossessionOptions {
  now?: () => Date;
  /** Default 5 minutes either way. */
  windowMs?: number;
}

/**
 * The certificate chain a request proves it holds the key for; undefined
 * when it presents no proof headers at all; throws AuthenticationRejected
 * for a certificate without proof, a malformed or stale proof, or a bad
 * signature.
 */
export async function verifyProofOfPossession(
  request: Request,
  options: ProofOfPossessionOptions = {},
): Promise<Uint8Array[] | undefined> {
  const certHeader = request.headers.get(proofHeaders.certificate);
  const timestamp = request.headers.get(proofHeaders.timestamp);
  const signature = request.headers.get(proofHeaders.signature);
  if (certHeader === null && timestamp === null && signature === null) return undefined;
  if (certHeader === null || certHeader.trim() === '')
    reject('proof of possession without a client certificate');
  if (timestamp === null || signature === null)
    reject('client certificate presented without proof of possession');

  await x509Library.load();
  let chain: Uint8Array<ArrayBuffer>[];
  let leaf: X509Certificate;
  try {
    chain = certHeader.split(',').map((part) => fromBase64(part.trim()));
    leaf = new (x509().X509Certificate)(ownBytes(chain[0] ?? new Uint8Array()));
  } catch (e) {
    return reject(
      `malformed ${proofHeaders.certificate} header: ${e instanceof Error ? e.message : String(e)}`,
    );
  }

  const signedAt = Date.parse(timestamp);
  if (!/^\d{4}-\d\d-\d\dT/.test(timestamp) || Number.isNaN(signedAt)) {
    reject(`malformed ${proofHeaders.timestamp} header ${JSON.stringify(timestamp)}: want an RFC 3339 time`);
  }
  const now = (options.now ?? (() => new Date()))().getTime();
  const window = options.windowMs ?? defaultProofWindowMs;
  if (Math.abs(now - signedAt) > window) {
    reject(
      `proof of possession signed at ${timestamp} is outside the allowed window of ${window / 1000}s around the server's time ${new Date(now).toISOString()}`,
    );
  }

  let signatureBytes: Uint8Array<ArrayBuffer>;
  try {
    signatureBytes = fromBase64(signature);
  } catch {
    return reject(`malformed ${proofHeaders.signature} header`);
  }
  const url = new URL(request.url);
  const body = await request.clone().arrayBuffer();
  const message = proofMessage(request.method, url.pathname + url.search, timestamp, await bodyDigest(body));
  const { key, params } = await verificationKey(leaf);
  const valid = await crypto.subtle.verify(params, key, signatureBytes, ownBytes(message));
  if (!valid) reject('proof of possession signature does not verify with the client certificate public key');
  return chain;
}

/** Whether the request names any proof header (`verifyProofOfPossession` answers undefined for one without). */
function hasProofHeaders(request: Request): boolean {
  const h = request.headers;
  return (
    h.get(proofHeaders.certificate) !== null ||
    h.get(proofHeaders.timestamp) !== null ||
    h.get(proofHeaders.signature) !== null
  );
}

/** The verification of a request without proof headers. */
const noProof: Promise<undefined> = Promise.resolve(undefined);

// One verification per request with proof headers, however many authenticators ask (x509 and the front proxy both do).
const verified = new WeakMap<Request, Promise<Uint8Array[] | undefined>>();

/** The request's proof verification, started once (`noProof` for a request without proof headers). */
function proofOf(request: Request, options: ProofOfPossessionOptions): Promise<Uint8Array[] | undefined> {
  // Most requests carry no proof headers: no verification (an async call) is started, nor kept, for them.
  if (!hasProofHeaders(request)) return noProof;
  let pending = verified.get(request);
  if (pending === undefined) {
    pending = verifyProofOfPossession(request, options);
    verified.set(request, pending);
  }
  return pending;
}

/**
 * The connection as the certificate authenticators should see it: a TLS
 * peer chain, when the host has one, wins; otherwise a proven chain from
 * the proof headers becomes the peer certificates.
 */
export async function connectionWithProof(
  request: Request,
  conn: ConnectionInfo | undefined,
  options: ProofOfPossessionOptions = {},
): Promise<ConnectionInfo | undefined> {
  if (conn?.peerCertificates !== undefined && conn.peerCertificates.length > 0) return conn;
  const pending = proofOf(request, options);
  if (pending === noProof) return conn;
  const chain = await pending;
  return chain === undefined ? conn : { ...conn, peerCertificates: chain };
}

/** Wraps a certificate-reading authenticator (x509, front proxy) so it also sees certificates proven by headers. */
export function withProofOfPossession(
  inner: RequestAuthenticator,
  options: ProofOfPossessionOptions = {},
): RequestAuthenticator {
  return {
    // Without proof headers the inner authenticator sees the connection as it is.
    declinesAtOnce: (request, conn) =>
      inner.declinesAtOnce?.(request, conn) === true && proofOf(request, options) === noProof,
    async authenticate(request: Request, conn: ConnectionInfo | undefined): Promise<UserInfo | undefined> {
      return inner.authenticate(request, await connectionWithProof(request, conn, options));
    },
  };
}
