/**
 * Key pairs for the sandbox's certificates: ECDSA P-256 (the default: fast
 * to generate, small certificates) or RSA-2048 (what many real clusters
 * use), always extractable so the lead can persist the cluster CA's key in
 * storage settings and the Node host can write kubeconfig client keys. The
 * PKCS#8 import tries each supported algorithm because a PEM `PRIVATE KEY`
 * block does not say which one it holds in a way WebCrypto reads. Files in
 * the other two encodings Go's `keyutil.ParsePrivateKeyPEM` reads — PKCS#1
 * `RSA PRIVATE KEY` and SEC1 `EC PRIVATE KEY`, what `openssl genrsa` and
 * `openssl ecparam -genkey` write — are wrapped into PKCS#8 first, since
 * WebCrypto imports only that.
 */

import { pkcs8FromPKCS1, pkcs8FromSEC1 } from './der';
import { decodePEM, encodePEM } from './pem';

export type KeyAlgorithmName = 'ECDSA-P256' | 'RSA-2048';

const ecdsa: EcKeyGenParams & EcKeyImportParams = { name: 'ECDSA', namedCurve: 'P-256' };
const rsa: RsaHashedKeyGenParams = {
  name: 'RSASSA-PKCS1-v1_5',
  modulusLength: 2048,
  publicExponent: new Uint8Array([1, 0, 1]),
  hash: 'SHA-256',
};

/** A new extractable signing key pair. */
export async function generateKeyPair(algorithm: KeyAlgorithmName = 'ECDSA-P256'): Promise<CryptoKeyPair> {
  const params = algorithm === 'RSA-2048' ? rsa : ecdsa;
  return crypto.subtle.generateKey(params, true, ['sign', 'verify']);
}

/** The WebCrypto signature parameters that go with a key (SHA-256 in both cases). */
export function signatureParams(key: CryptoKey): AlgorithmIdentifier | EcdsaParams {
  return key.algorithm.name === 'ECDSA' ? { name: 'ECDSA', hash: 'SHA-256' } : { name: key.algorithm.name };
}

/** PEM `PRIVATE KEY` (PKCS#8) of an extractable private key. */
export async function exportPrivateKeyPEM(key: CryptoKey): Promise<string> {
  const der = new Uint8Array(await crypto.subtle.exportKey('pkcs8', key));
  return encodePEM(der, 'PRIVATE KEY');
}

/** PEM `PUBLIC KEY` (SubjectPublicKeyInfo) of a public key. */
export async function exportPublicKeyPEM(key: CryptoKey): Promise<string> {
  const der = new Uint8Array(await crypto.subtle.exportKey('spki', key));
  return encodePEM(der, 'PUBLIC KEY');
}

/** The PKCS#8 DER of the first private key block in `pem`, whichever of the three encodings it is in. */
function pkcs8Of(pem: string): Uint8Array<ArrayBuffer> | undefined {
  const pkcs8 = decodePEM(pem, 'PRIVATE KEY')[0];
  if (pkcs8 !== undefined) return pkcs8;
  const pkcs1 = decodePEM(pem, 'RSA PRIVATE KEY')[0];
  if (pkcs1 !== undefined) return pkcs8FromPKCS1(pkcs1);
  const sec1 = decodePEM(pem, 'EC PRIVATE KEY')[0];
  if (sec1 === undefined) return undefined;
  try {
    return pkcs8FromSEC1(sec1);
  } catch {
    return undefined;
  }
}

const importCandidates: (EcKeyImportParams | RsaHashedImportParams)[] = [
  { name: 'ECDSA', namedCurve: 'P-256' },
  { name: 'ECDSA', namedCurve: 'P-384' },
  { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
];

/**
 * The key pair held in a PEM `PRIVATE KEY` (PKCS#8), `RSA PRIVATE KEY` (PKCS#1) or `EC PRIVATE KEY` (SEC1)
 * block: the private key (extractable, for re-persisting) and its public half (derived through JWK, since
 * WebCrypto has no direct derivation).
 */
export async function importPrivateKeyPEM(pem: string): Promise<CryptoKeyPair> {
  const pkcs8 = pkcs8Of(pem);
  if (pkcs8 === undefined) throw new Error('data does not contain a valid RSA or ECDSA private key');
  for (const params of importCandidates) {
    let privateKey: CryptoKey;
    try {
      privateKey = await crypto.subtle.importKey('pkcs8', pkcs8, params, true, ['sign']);
    } catch {
      continue;
    }
    const jwk = await crypto.subtle.exportKey('jwk', privateKey);
    const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicJwk } = jwk;
    const publicKey = await crypto.subtle.importKey(
      'jwk',
      { ...publicJwk, key_ops: ['verify'] },
      params,
      true,
      ['verify'],
    );
    return { privateKey, publicKey };
  }
  throw new Error('unsupported private key: expected ECDSA P-256, P-384 or RSA');
}
