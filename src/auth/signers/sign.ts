/**
 * Issuing a certificate for an approved request the way the real
 * controller manager's local signer does (its permissive signing policy
 * over Go's `x509.CreateCertificate`): the requester's public key and
 * subject (re-encoded as Go re-encodes a parsed name), its DNS, email, IP
 * and URI names, the key usages the request's `spec.usages` ask for — and
 * no other requested extension, so a CA bit or a pinned key usage in the
 * request is dropped; basic constraints CA:FALSE, the authority key
 * identifier of the CA, a random serial. Lifetime: the cluster signing
 * duration or the shorter `expirationSeconds` (never under 10 minutes),
 * starting 5 minutes in the past; a certificate shorter than 8 hours ends
 * exactly its lifetime after now, a longer one its lifetime after the
 * backdated start; nothing outlives the CA.
 */

import type { CertificateAuthority } from '../pki/issue';
import { randomSerialNumber } from '../pki/issue';
import { signatureParams } from '../pki/keys';
import { encodePEM } from '../pki/pem';
import { type Extension, x509, x509Library } from '../pki/x509';
import type { RequestView } from './request';
import { certificateUsages } from './usages';

/** How far NotBefore is moved into the past (the real signer's `Backdate`). */
export const backdateMs = 5 * 60_000;
/** Below this lifetime the end is not moved back with the start (the real signer's `Short`). */
export const shortLifetimeMs = 8 * 3_600_000;
/** The shortest lifetime the signer issues, whatever is asked: twice the backdating. */
export const minimumLifetimeMs = 2 * backdateMs;

/** The real signer's `duration`: the signing duration, or the requested one when shorter (at least 10 minutes). */
export function certificateLifetimeMs(signingDurationMs: number, expirationSeconds?: number): number {
  if (expirationSeconds === undefined) return signingDurationMs;
  const requested = expirationSeconds * 1000;
  if (requested > signingDurationMs) return signingDurationMs;
  if (requested < minimumLifetimeMs) return minimumLifetimeMs;
  return requested;
}

/** X.509 times have whole seconds; Go truncates when encoding. */
function wholeSeconds(ms: number): Date {
  return new Date(Math.floor(ms / 1000) * 1000);
}

function goTime(d: Date): string {
  return d
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' +0000 UTC');
}

/** NotBefore and NotAfter for a lifetime, with the real policy's refusals once the CA has expired. */
export function validityPeriod(
  now: Date,
  lifetimeMs: number,
  signerNotAfter: Date,
): { notBefore: Date; notAfter: Date } {
  const t = now.getTime();
  const notBefore = t - backdateMs;
  let notAfter = lifetimeMs < shortLifetimeMs ? t + lifetimeMs : t + lifetimeMs - backdateMs;
  if (notAfter >= signerNotAfter.getTime()) notAfter = signerNotAfter.getTime();
  if (notBefore >= signerNotAfter.getTime())
    throw new Error(`the signer has expired: NotAfter=${goTime(signerNotAfter)}`);
  if (t >= signerNotAfter.getTime())
    throw new Error(
      `refusing to sign a certificate that expired in the past: NotAfter=${goTime(signerNotAfter)}`,
    );
  return { notBefore: wholeSeconds(notBefore), notAfter: wholeSeconds(notAfter) };
}

/** Go's `pkix.Name.ToRDNSequence` order: one RDN per attribute type, the last CN only. */
const subjectOrder: readonly [string, boolean][] = [
  ['2.5.4.6', false], // C
  ['2.5.4.8', false], // ST
  ['2.5.4.7', false], // L
  ['2.5.4.9', false], // street
  ['2.5.4.17', false], // postalCode
  ['2.5.4.10', false], // O
  ['2.5.4.11', false], // OU
  ['2.5.4.3', true], // CN
  ['2.5.4.5', true], // serialNumber
];

function goSubject(request: RequestView): Record<string, string[]>[] {
  const rdns: Record<string, string[]>[] = [];
  for (const [oid, single] of subjectOrder) {
    const all = request.csr.subjectName.getField(oid);
    const values = single ? all.slice(-1).filter((v) => v !== '') : all;
    if (values.length > 0) rdns.push({ [oid]: values });
  }
  return rdns;
}

export interface SignInput {
  ca: CertificateAuthority;
  request: RequestView;
  usages: readonly string[];
  lifetimeMs: number;
  now: Date;
}

/** The PEM certificate for a request; throws with the real signer's messages when it cannot sign. */
export async function signRequest(input: SignInput): Promise<string> {
  await x509Library.load();
  const {
    AuthorityKeyIdentifierExtension,
    BasicConstraintsExtension,
    ExtendedKeyUsageExtension,
    KeyUsagesExtension,
    SubjectAlternativeNameExtension,
    SubjectKeyIdentifierExtension,
    X509CertificateGenerator,
  } = x509();
  const { ca, request } = input;
  if (!(await request.csr.verify())) {
    const why =
      request.csr.publicKey.algorithm.name === 'ECDSA'
        ? 'x509: ECDSA verification failure'
        : 'crypto/rsa: verification error';
    throw new Error(`unable to verify certificate request signature: ${why}`);
  }
  const usages = certificateUsages(input.usages);
  const { notBefore, notAfter } = validityPeriod(input.now, input.lifetimeMs, ca.certificate.notAfter);
  const subject = goSubject(request);

  // Go's extension order: key usage, extended key usage, basic constraints, authority key id, SAN.
  const extensions: Extension[] = [];
  if (usages.keyUsage !== 0) extensions.push(new KeyUsagesExtension(usages.keyUsage, true));
  if (usages.extendedKeyUsages.length > 0)
    extensions.push(new ExtendedKeyUsageExtension(usages.extendedKeyUsages));
  extensions.push(new BasicConstraintsExtension(false, undefined, true));
  const caKeyId = ca.certificate.getExtension(SubjectKeyIdentifierExtension)?.keyId;
  if (caKeyId !== undefined && caKeyId !== '') extensions.push(new AuthorityKeyIdentifierExtension(caKeyId));
  const names = [
    ...request.dnsNames.map((value) => ({ type: 'dns' as const, value })),
    ...request.emailAddresses.map((value) => ({ type: 'email' as const, value })),
    ...request.ipAddresses.map((value) => ({ type: 'ip' as const, value })),
    ...request.uris.map((value) => ({ type: 'url' as const, value })),
  ];
  // The names are critical when they are the only identity (an empty subject), as RFC 5280 and Go want.
  if (names.length > 0) extensions.push(new SubjectAlternativeNameExtension(names, subject.length === 0));

  const certificate = await X509CertificateGenerator.create({
    serialNumber: randomSerialNumber(),
    subject,
    issuer: ca.certificate.subjectName,
    notBefore,
    notAfter,
    publicKey: request.csr.publicKey,
    signingKey: ca.keys.privateKey,
    signingAlgorithm: signatureParams(ca.keys.privateKey) as Algorithm,
    extensions,
  });
  return encodePEM(new Uint8Array(certificate.rawData), 'CERTIFICATE');
}
