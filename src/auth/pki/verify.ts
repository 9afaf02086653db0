/**
 * Certificate chain verification as Go's `crypto/x509` `Verify` does it for
 * the real server's client-certificate and front-proxy authenticators: the
 * leaf's validity first, then a search for a path through the presented
 * intermediates to one of the trusted roots — each issuer must be a CA
 * allowed to sign certificates, must have signed its child, and must be
 * within its own validity — and finally the extended key usage of the whole
 * chain. Failures carry Go's error text, because learners compare them with
 * what a real API server logs.
 */

import { x509, x509Library, type X509Certificate } from './x509';
import { decodePEM, ownBytes } from './pem';

export type ChainUsage = 'client' | 'server' | 'any';

export type ChainVerification =
  { ok: true; chain: X509Certificate[] } | { ok: false; reason: string; leaf?: X509Certificate };

const anyExtendedKeyUsage = '2.5.29.37.0';

/** RFC 3339 as Go prints `time.RFC3339` for a UTC time. */
export function rfc3339(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function equalBytes(a: ArrayBuffer, b: ArrayBuffer): boolean {
  if (a.byteLength !== b.byteLength) return false;
  const x = new Uint8Array(a);
  const y = new Uint8Array(b);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

function rawName(cert: X509Certificate, which: 'subject' | 'issuer'): ArrayBuffer {
  return (which === 'subject' ? cert.subjectName : cert.issuerName).toArrayBuffer();
}

function validityError(cert: X509Certificate, now: Date): string | undefined {
  const prefix = 'x509: certificate has expired or is not yet valid: ';
  if (now < cert.notBefore)
    return `${prefix}current time ${rfc3339(now)} is before ${rfc3339(cert.notBefore)}`;
  if (now > cert.notAfter) return `${prefix}current time ${rfc3339(now)} is after ${rfc3339(cert.notAfter)}`;
  return undefined;
}

/** Skips a DER tag and length at `at`; answers where the contents start, or -1 on a malformed header. */
function derContents(der: Uint8Array, at: number): number {
  const first = der[at + 1];
  if (first === undefined) return -1;
  if (first < 0x80) return at + 2;
  const octets = first & 0x7f;
  return octets === 0 || octets > 4 ? -1 : at + 2 + octets;
}

/**
 * The certificate's version (1 to 3): the `[0] EXPLICIT Version` at the head of the TBSCertificate, absent in a
 * version 1 certificate (such as the CA openssl's `req -x509` made before v3 defaults, still used as roots).
 */
export function certificateVersion(cert: X509Certificate): number {
  const der = new Uint8Array(cert.rawData);
  const tbs = derContents(der, 0);
  if (tbs < 0 || der[tbs] !== 0x30) return 3;
  const field = derContents(der, tbs);
  if (field < 0 || der[field] !== 0xa0) return 1;
  // [0] { INTEGER v }: a0 03 02 01 v, version = v + 1.
  const integer = derContents(der, field);
  const value = integer < 0 ? -1 : derContents(der, integer);
  const v = value < 0 ? undefined : der[value];
  return v === undefined ? 3 : v + 1;
}

/**
 * Go's `CheckSignatureFrom`: the parent must be allowed to sign certificates (a version 3 certificate only with
 * basic constraints saying it is a CA; one of an earlier version, which has no extensions, may; key usage, when
 * present, must include certificate signing), and its key must verify the child.
 */
async function checkSignatureFrom(
  child: X509Certificate,
  parent: X509Certificate,
): Promise<string | undefined> {
  const { BasicConstraintsExtension, KeyUsageFlags, KeyUsagesExtension } = x509();
  const bc = parent.getExtension(BasicConstraintsExtension);
  const ku = parent.getExtension(KeyUsagesExtension);
  const notCA = bc === null ? certificateVersion(parent) === 3 : !bc.ca;
  if (notCA || (ku !== null && (ku.usages & KeyUsageFlags.keyCertSign) === 0)) {
    return 'x509: invalid signature: parent certificate cannot sign this kind of certificate';
  }
  let valid = false;
  try {
    valid = await child.verify({ publicKey: parent.publicKey, signatureOnly: true });
  } catch {
    valid = false;
  }
  if (valid) return undefined;
  return parent.publicKey.algorithm.name === 'ECDSA'
    ? 'x509: ECDSA verification failure'
    : 'crypto/rsa: verification error';
}

/** Go's `isValid` for an issuer candidate: validity, the CA bit of intermediates, the path length constraint. */
function checkIssuer(
  cert: X509Certificate,
  kind: 'intermediate' | 'root',
  below: number,
  now: Date,
): string | undefined {
  const expired = validityError(cert, now);
  if (expired !== undefined) return expired;
  const bc = cert.getExtension(x509().BasicConstraintsExtension);
  if (kind === 'intermediate' && (bc === null || !bc.ca)) {
    return 'x509: certificate is not authorized to sign other certificates';
  }
  if (bc !== null && bc.pathLength !== undefined && below - 1 > bc.pathLength) {
    return 'x509: too many intermediates for path length constraint';
  }
  return undefined;
}

function candidateName(cert: X509Certificate): string {
  const cn = cert.subjectName.getField('CN')[0];
  if (cn !== undefined && cn !== '') return cn;
  const o = cert.subjectName.getField('O')[0];
  if (o !== undefined) return o;
  return `serial:${BigInt(`0x${cert.serialNumber}`).toString()}`;
}

function usageAllowed(chain: X509Certificate[], usage: ChainUsage): boolean {
  if (usage === 'any') return true;
  const { ExtendedKeyUsage, ExtendedKeyUsageExtension } = x509();
  const wanted = usage === 'client' ? ExtendedKeyUsage.clientAuth : ExtendedKeyUsage.serverAuth;
  return chain.every((cert) => {
    const eku = cert.getExtension(ExtendedKeyUsageExtension);
    if (eku === null) return true; // no EKU: any usage
    const usages = eku.usages.map(String);
    return usages.includes(anyExtendedKeyUsage) || usages.includes(wanted);
  });
}

interface Search {
  roots: X509Certificate[];
  intermediates: X509Certificate[];
  now: Date;
  chains: X509Certificate[][];
  hint?: { error: string; cert: X509Certificate };
  budget: number;
}

async function buildChains(search: Search, chain: X509Certificate[]): Promise<void> {
  const current = chain[chain.length - 1];
  if (current === undefined || search.budget <= 0) return;
  const issuer = rawName(current, 'issuer');
  const consider = async (candidate: X509Certificate, kind: 'intermediate' | 'root'): Promise<void> => {
    if (chain.some((c) => equalBytes(c.rawData, candidate.rawData))) return;
    search.budget--;
    const error =
      (await checkSignatureFrom(current, candidate)) ??
      checkIssuer(candidate, kind, chain.length, search.now);
    if (error !== undefined) {
      search.hint ??= { error, cert: candidate };
      return;
    }
    if (kind === 'root') search.chains.push([...chain, candidate]);
    else await buildChains(search, [...chain, candidate]);
  };
  for (const root of search.roots)
    if (equalBytes(rawName(root, 'subject'), issuer)) await consider(root, 'root');
  for (const inter of search.intermediates) {
    if (equalBytes(rawName(inter, 'subject'), issuer)) await consider(inter, 'intermediate');
  }
}

/**
 * Parses trust roots from a PEM bundle (`--client-ca-file`, `--requestheader-client-ca-file`); the library
 * must be loaded (`verifyChain` loads it, and parses a PEM bundle itself).
 */
export function parseRoots(rootsPEM: string | readonly X509Certificate[]): X509Certificate[] {
  if (typeof rootsPEM !== 'string') return [...rootsPEM];
  return decodePEM(rootsPEM).map((der) => new (x509().X509Certificate)(der));
}

/**
 * Verifies a presented chain (DER, leaf first, then any intermediates)
 * against trusted roots at `now` for `usage`; the verified path (leaf to
 * root) on success, Go's error text on failure.
 */
export async function verifyChain(
  chainDER: readonly Uint8Array[],
  roots: string | readonly X509Certificate[],
  now: Date,
  usage: ChainUsage,
): Promise<ChainVerification> {
  await x509Library.load();
  const { X509Certificate } = x509();
  let presented: X509Certificate[];
  try {
    presented = chainDER.map((der) => new X509Certificate(ownBytes(der)));
  } catch (e) {
    return {
      ok: false,
      reason: `x509: malformed certificate: ${e instanceof Error ? e.message : String(e)}`,
    };
  }
  const leaf = presented[0];
  if (leaf === undefined) return { ok: false, reason: 'no certificate presented' };
  const expired = validityError(leaf, now);
  if (expired !== undefined) return { ok: false, reason: expired, leaf };
  const search: Search = {
    roots: parseRoots(roots),
    intermediates: presented.slice(1),
    now,
    chains: [],
    budget: 100,
  };
  // A leaf that is itself a trusted root is its own chain, as in Go.
  if (search.roots.some((r) => equalBytes(r.rawData, leaf.rawData))) search.chains.push([leaf]);
  else await buildChains(search, [leaf]);
  if (search.chains.length === 0) {
    let reason = 'x509: certificate signed by unknown authority';
    if (search.hint !== undefined) {
      reason += ` (possibly because of ${JSON.stringify(search.hint.error)} while trying to verify candidate authority certificate ${JSON.stringify(candidateName(search.hint.cert))})`;
    }
    return { ok: false, reason, leaf };
  }
  const chain = search.chains.find((c) => usageAllowed(c, usage));
  if (chain === undefined)
    return { ok: false, reason: 'x509: certificate specifies an incompatible key usage', leaf };
  return { ok: true, chain };
}

/** Colon-separated upper-case hex, as the real authenticator prints key identifiers. */
function columnHex(hex: string | undefined): string {
  return (hex ?? '').toUpperCase().match(/.{2}/g)?.join(':') ?? '';
}

/** `SN=<decimal>, SKID=<hex>, AKID=<hex>` — how the real x509 authenticator names a certificate that failed. */
export function certificateIdentifier(cert: X509Certificate): string {
  const { AuthorityKeyIdentifierExtension, SubjectKeyIdentifierExtension } = x509();
  const skid = cert.getExtension(SubjectKeyIdentifierExtension)?.keyId;
  const akid = cert.getExtension(AuthorityKeyIdentifierExtension)?.keyId;
  return `SN=${BigInt(`0x${cert.serialNumber}`).toString()}, SKID=${columnHex(skid)}, AKID=${columnHex(akid)}`;
}
