/**
 * The check of `spec.request`: the first PEM block must be a `CERTIFICATE
 * REQUEST` whose PKCS#10 structure parses and whose signature verifies with
 * its own public key (the real `certificates.ParseCSR` and
 * `CheckSignature`), answered with Go's error texts: a request no one can
 * have made with the key it names must never reach an approver or a signer.
 */

import { ownBytes } from '../../../../auth/pki/pem';
import { type Pkcs10CertificateRequest, x509 } from '../../../../auth/pki/x509';
import { goPemDecode, latin1 } from '../../../../auth/pki/go-pem';

const pemBlockTypeError = 'PEM block type must be CERTIFICATE REQUEST';

/** Go's `%+v` of the asn1 field parameters of a plain SEQUENCE field. */
const plainFieldParams =
  '{optional:false explicit:false application:false private:false defaultValue:<nil> tag:<nil> stringType:0 timeType:0 set:false omitEmpty:false}';

/**
 * What Go's `asn1.Unmarshal` says about the outer SEQUENCE of a DER
 * certificate request (its tag, its length, bytes after it), or undefined
 * when the envelope is sound and the inner structure is the parser's concern.
 */
export function derEnvelopeError(der: Uint8Array): string | undefined {
  if (der.length === 0) return 'asn1: syntax error: sequence truncated';
  let offset = 0;
  const first = der[offset++] ?? 0;
  const tagClass = first >> 6;
  const compound = (first & 0x20) !== 0;
  let tag = first & 0x1f;
  if (tag === 0x1f) {
    tag = 0;
    for (let more = true; more;) {
      if (offset >= der.length) return 'asn1: syntax error: truncated tag or length';
      const b = der[offset++] ?? 0;
      tag = tag * 128 + (b & 0x7f);
      more = (b & 0x80) !== 0;
      if (tag > 0x7fffffff) return 'asn1: structure error: base 128 integer too large';
    }
  }
  if (offset >= der.length) return 'asn1: syntax error: truncated tag or length';
  const b = der[offset++] ?? 0;
  let length = b;
  if (b === 0x80) return 'asn1: syntax error: indefinite length found (not DER)';
  if (b > 0x80) {
    const count = b & 0x7f;
    length = 0;
    for (let i = 0; i < count; i++) {
      if (offset >= der.length) return 'asn1: syntax error: truncated tag or length';
      const next = der[offset++] ?? 0;
      if (length >= 2 ** 23) return 'asn1: structure error: length too large';
      length = length * 256 + next;
      if (length === 0) return 'asn1: structure error: superfluous leading zeros in length';
    }
    if (length < 0x80) return 'asn1: structure error: non-minimal length';
  }
  if (tagClass !== 0 || tag !== 16 || !compound)
    return `asn1: structure error: tags don't match (16 vs {class:${tagClass} tag:${tag} length:${length} isCompound:${compound}}) ${plainFieldParams} certificateRequest @${offset}`;
  if (offset + length > der.length) return 'asn1: syntax error: data truncated';
  if (offset + length < der.length) return 'asn1: syntax error: trailing data';
  return undefined;
}

/** Go's message when a signature does not verify, by the key's algorithm. */
function verificationFailure(keyAlgorithm: string): string {
  switch (keyAlgorithm) {
    case 'ECDSA':
      return 'x509: ECDSA verification failure';
    case 'Ed25519':
      return 'x509: Ed25519 verification failure';
    default:
      return 'crypto/rsa: verification error';
  }
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The parsed request of the first PEM block, or the error the real server would report; the library must be loaded. */
export function parseRequest(bytes: Uint8Array): Pkcs10CertificateRequest | string {
  const decoded = goPemDecode(latin1(bytes));
  if (decoded === undefined || decoded.block.type !== 'CERTIFICATE REQUEST') return pemBlockTypeError;
  const der = decoded.block.bytes;
  const envelope = derEnvelopeError(der);
  if (envelope !== undefined) return envelope;
  const { Pkcs10CertificateRequest } = x509();
  try {
    return new Pkcs10CertificateRequest(ownBytes(der));
  } catch (e) {
    return `asn1: structure error: ${messageOf(e)}`;
  }
}

/** Undefined when `bytes` hold a well-formed, correctly self-signed certificate request; otherwise Go's error text. */
export async function requestError(bytes: Uint8Array): Promise<string | undefined> {
  const csr = parseRequest(bytes);
  if (typeof csr === 'string') return csr;
  let keyAlgorithm: string;
  try {
    keyAlgorithm = csr.publicKey.algorithm.name;
  } catch {
    return 'x509: cannot verify signature: algorithm unimplemented';
  }
  try {
    return (await csr.verify()) ? undefined : verificationFailure(keyAlgorithm);
  } catch {
    // WebCrypto knows no such key or hash (Go knows a few more: MD5, DSA, which it refuses as well).
    return 'x509: cannot verify signature: algorithm unimplemented';
  }
}
