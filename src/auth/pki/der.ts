/**
 * The little DER the sandbox needs without a full ASN.1 library: reading a
 * value's tag-length-value header and its direct children, encoding a TLV,
 * and rewrapping the two older private-key encodings Go's keyutil reads
 * (PKCS#1 `RSA PRIVATE KEY`, SEC1 `EC PRIVATE KEY`) and a PKCS#1 public key
 * into the PKCS#8 and SubjectPublicKeyInfo forms WebCrypto imports. Both the
 * PKI's key loader and the service-account key files use it, so a key file
 * reads the same on every flag.
 */

/** One DER value inside a byte array: where its header starts, where its contents start and end. */
export interface Tlv {
  tag: number;
  /** The header's first byte (the tag). */
  at: number;
  /** The contents' first byte. */
  start: number;
  /** One past the contents' last byte. */
  end: number;
}

/** The value whose header is at `offset`; throws when the header is malformed or the value truncated. */
export function readTlv(der: Uint8Array, offset: number): Tlv {
  const tag = der[offset];
  const first = der[offset + 1];
  if (tag === undefined || first === undefined) throw new Error('truncated DER');
  let length = first;
  let start = offset + 2;
  if (first & 0x80) {
    const octets = first & 0x7f;
    // Indefinite lengths are BER, not DER; more than four octets is no key this sandbox reads.
    if (octets === 0 || octets > 4) throw new Error('malformed DER length');
    length = 0;
    for (let i = 0; i < octets; i++) length = length * 256 + (der[start + i] ?? 0);
    start += octets;
  }
  if (start + length > der.length) throw new Error('truncated DER');
  return { tag, at: offset, start, end: start + length };
}

/** The values directly inside a constructed value (a SEQUENCE's fields). */
export function tlvChildren(der: Uint8Array, parent: Tlv): Tlv[] {
  const out: Tlv[] = [];
  for (let at = parent.start; at < parent.end;) {
    const child = readTlv(der, at);
    if (child.end > parent.end) throw new Error('truncated DER');
    out.push(child);
    at = child.end;
  }
  return out;
}

/** A DER TLV: the tag, the definite length (short or long form), the contents. */
export function encodeTlv(tag: number, ...contents: Uint8Array[]): Uint8Array<ArrayBuffer> {
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

const version0 = new Uint8Array([0x02, 0x01, 0x00]);
const asn1Null = new Uint8Array([0x05, 0x00]);
/** rsaEncryption (1.2.840.113549.1.1.1) and id-ecPublicKey (1.2.840.10045.2.1), as DER OIDs. */
export const OID_RSA_ENCRYPTION = new Uint8Array([
  0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01,
]);
export const OID_EC_PUBLIC_KEY = new Uint8Array([0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01]);
const rsaAlgorithm = (): Uint8Array<ArrayBuffer> => encodeTlv(0x30, OID_RSA_ENCRYPTION, asn1Null);

/** PKCS#1 RSAPrivateKey in a PKCS#8 PrivateKeyInfo. */
export function pkcs8FromPKCS1(pkcs1: Uint8Array): Uint8Array<ArrayBuffer> {
  return encodeTlv(0x30, version0, rsaAlgorithm(), encodeTlv(0x04, pkcs1));
}

/** PKCS#1 RSAPublicKey in a SubjectPublicKeyInfo (a BIT STRING with no unused bits). */
export function spkiFromPKCS1(pkcs1: Uint8Array): Uint8Array<ArrayBuffer> {
  return encodeTlv(0x30, rsaAlgorithm(), encodeTlv(0x03, new Uint8Array([0]), pkcs1));
}

/**
 * SEC1 ECPrivateKey in a PKCS#8 PrivateKeyInfo: the curve moves from the key's `[0] parameters` to the
 * algorithm. Throws when the key names no curve (PKCS#8 has nowhere else to say it).
 */
export function pkcs8FromSEC1(sec1: Uint8Array): Uint8Array<ArrayBuffer> {
  const parameters = tlvChildren(sec1, readTlv(sec1, 0)).find((c) => c.tag === 0xa0);
  const curve = parameters === undefined ? undefined : tlvChildren(sec1, parameters)[0];
  if (curve === undefined || curve.tag !== 0x06) throw new Error('EC private key names no named curve');
  const oid = sec1.subarray(curve.at, curve.end);
  return encodeTlv(0x30, version0, encodeTlv(0x30, OID_EC_PUBLIC_KEY, oid), encodeTlv(0x04, sec1));
}
