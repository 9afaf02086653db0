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

/** A DER TLV: the tag, the definite length (short or long form), the contents. */
function der(tag: number, ...contents: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const length = contents.reduce((n, c) => n + c.length, 0);
  const lengthBytes: number[] = [];
  if (length < 0x80) lengthBytes.push(length);
  else {
    for (let n = length; n > 0; n = Math.floor(n / 256)) lengthBytes.unshift(n % 256);
    lengthBytes.unshift(0x80 | lengthBytes.length);
  }
  const out = new Uint8Array(1 + lengthBytes.length + length);
  out[0] = tag;
  out.set(lengthBytes, 1);
  let at = 1 + lengthBytes.length;
  for (const c of contents) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** The TLVs directly inside a constructed DER value (a SEQUENCE's fields), or undefined if malformed. */
function derChildren(
  value: Uint8Array,
): { tag: number; whole: Uint8Array; contents: Uint8Array }[] | undefined {
  const header = (at: number): { start: number; length: number } | undefined => {
    const first = value[at + 1];
    if (first === undefined) return undefined;
    if (first < 0x80) return { start: at + 2, length: first };
    const octets = first & 0x7f;
    if (octets === 0 || octets > 4) return undefined;
    let length = 0;
    for (let i = 0; i < octets; i++) length = length * 256 + (value[at + 2 + i] ?? 0);
    return { start: at + 2 + octets, length };
  };
  const outer = header(0);
  if (outer === undefined) return undefined;
  const children = [];
  for (let at = outer.start; at < outer.start + outer.length;) {
    const h = header(at);
    if (h === undefined || h.start + h.length > value.length) return undefined;
    children.push({
      tag: value[at] ?? 0,
      whole: value.subarray(at, h.start + h.length),
      contents: value.subarray(h.start, h.start + h.length),
    });
    at = h.start + h.length;
  }
  return children;
}

const version0 = new Uint8Array([0x02, 0x01, 0x00]);
const asn1Null = new Uint8Array([0x05, 0x00]);
/** rsaEncryption (1.2.840.113549.1.1.1) and id-ecPublicKey (1.2.840.10045.2.1), as DER OIDs. */
const rsaEncryption = new Uint8Array([0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01]);
const ecPublicKey = new Uint8Array([0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01]);

/** PKCS#1 RSAPrivateKey in a PKCS#8 PrivateKeyInfo. */
function pkcs8FromPKCS1(pkcs1: Uint8Array): Uint8Array<ArrayBuffer> {
  return der(0x30, version0, der(0x30, rsaEncryption, asn1Null), der(0x04, pkcs1));
}

/** SEC1 ECPrivateKey in a PKCS#8 PrivateKeyInfo: the curve moves from the key's `[0] parameters` to the algorithm. */
function pkcs8FromSEC1(sec1: Uint8Array): Uint8Array<ArrayBuffer> | undefined {
  const curve = derChildren(sec1)?.find((c) => c.tag === 0xa0);
  const oid = curve === undefined ? undefined : derChildren(curve.whole)?.[0];
  if (oid === undefined || oid.tag !== 0x06) return undefined;
  return der(0x30, version0, der(0x30, ecPublicKey, oid.whole), der(0x04, sec1));
}

/** The PKCS#8 DER of the first private key block in `pem`, whichever of the three encodings it is in. */
function pkcs8Of(pem: string): Uint8Array<ArrayBuffer> | undefined {
  const pkcs8 = decodePEM(pem, 'PRIVATE KEY')[0];
  if (pkcs8 !== undefined) return pkcs8;
  const pkcs1 = decodePEM(pem, 'RSA PRIVATE KEY')[0];
  if (pkcs1 !== undefined) return pkcs8FromPKCS1(pkcs1);
  const sec1 = decodePEM(pem, 'EC PRIVATE KEY')[0];
  return sec1 === undefined ? undefined : pkcs8FromSEC1(sec1);
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
