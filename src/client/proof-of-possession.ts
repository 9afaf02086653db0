/**
 * The page side of certificate authentication in the browser host: there
 * is no TLS between the page and the service worker, so the page proves it
 * holds the private key of its client certificate by signing each request
 * (method, path and query, a timestamp, the SHA-256 digest of the body)
 * and sending the signature beside its certificate chain. The server side
 * (`src/auth/authn/proof-of-possession.ts`) checks the proof and then
 * treats the chain like a TLS peer's. The header names and the signed
 * message are repeated here because the client may not import the server's
 * auth layer; a unit test signs here and verifies there to keep them equal.
 */

export const clientProofHeaders = {
  certificate: 'X-Sandbox-Client-Certificate',
  timestamp: 'X-Sandbox-Client-Timestamp',
  signature: 'X-Sandbox-Client-Signature',
} as const;

export interface ClientCredential {
  /** The private key of the leaf certificate (ECDSA P-256 or RSASSA-PKCS1-v1_5; it may be non-extractable). */
  privateKey: CryptoKey;
  /** DER certificates, leaf first, then any intermediates. */
  chain: readonly Uint8Array[];
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function base64url(bytes: Uint8Array): string {
  return base64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** RFC 3339 with whole seconds, as the server parses it. */
function timestampOf(now: Date): string {
  return now.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * A copy of `request` carrying the certificate chain and a fresh proof of
 * possession of its key. The body is read from a clone, so the returned
 * request still carries it.
 */
export async function signRequest(
  request: Request,
  credential: ClientCredential,
  now = new Date(),
): Promise<Request> {
  const body = await request.clone().arrayBuffer();
  const digest = base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', body)));
  const url = new URL(request.url);
  const timestamp = timestampOf(now);
  const message = new TextEncoder().encode(
    [
      'sandbox-client-proof-v1',
      request.method.toUpperCase(),
      url.pathname + url.search,
      timestamp,
      digest,
    ].join('\n'),
  );
  const params: AlgorithmIdentifier | EcdsaParams =
    credential.privateKey.algorithm.name === 'ECDSA'
      ? { name: 'ECDSA', hash: 'SHA-256' }
      : { name: credential.privateKey.algorithm.name };
  const signature = new Uint8Array(await crypto.subtle.sign(params, credential.privateKey, message));
  const headers = new Headers(request.headers);
  headers.set(clientProofHeaders.certificate, credential.chain.map((der) => base64(der)).join(','));
  headers.set(clientProofHeaders.timestamp, timestamp);
  headers.set(clientProofHeaders.signature, base64url(signature));
  return new Request(request, { headers });
}

/** A fetch that signs every request with `credential` before passing it to `inner` (the UI's fetch to the worker). */
export function signingFetch(credential: ClientCredential, inner: typeof fetch = fetch): typeof fetch {
  return async (input, init) => inner(await signRequest(new Request(input, init), credential));
}

/** PEM blocks of `label` as DER bytes. */
export function pemBlocks(pem: string, label: string): Uint8Array<ArrayBuffer>[] {
  const out: Uint8Array<ArrayBuffer>[] = [];
  const re = new RegExp(`-----BEGIN ${label}-----([\\s\\S]*?)-----END ${label}-----`, 'g');
  for (const m of pem.matchAll(re)) {
    const binary = atob((m[1] ?? '').replace(/\s+/g, ''));
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    out.push(bytes);
  }
  return out;
}

// A PKCS#8 block does not say its algorithm in a way WebCrypto reads, so each supported one is tried.
const keyCandidates: (EcKeyImportParams | RsaHashedImportParams)[] = [
  { name: 'ECDSA', namedCurve: 'P-256' },
  { name: 'ECDSA', namedCurve: 'P-384' },
  { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
];

/** A credential from PEM texts: the certificate chain (leaf first) and its PKCS#8 private key (imported non-extractable). */
export async function credentialFromPEM(certificatePEM: string, keyPEM: string): Promise<ClientCredential> {
  const der = pemBlocks(keyPEM, 'PRIVATE KEY')[0];
  if (der === undefined) throw new Error('the certificate identity has no PRIVATE KEY (PKCS#8) block');
  const chain = pemBlocks(certificatePEM, 'CERTIFICATE');
  if (chain.length === 0) throw new Error('the certificate identity has no CERTIFICATE block');
  for (const params of keyCandidates) {
    try {
      const privateKey = await crypto.subtle.importKey('pkcs8', der, params, false, ['sign']);
      return { privateKey, chain };
    } catch {
      // Not this algorithm: try the next.
    }
  }
  throw new Error('the private key is neither ECDSA (P-256, P-384) nor RSA');
}
