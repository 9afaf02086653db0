/**
 * Issuing certificates from the cluster CA: the self-signed CA itself
 * (CA:TRUE, keyCertSign), serving certificates (SANs, serverAuth) for the
 * Node host, client certificates (CN the user, each O a group, clientAuth)
 * for kubeconfigs, and — through the same `issueCertificate` — whatever the
 * CSR signer later needs, since it supplies the requester's public key and
 * the usages itself. Every certificate carries subject and authority key
 * identifiers, which the x509 authenticator prints when verification fails.
 */

import { type Extension, x509, x509Library, type X509Certificate } from './x509';
import {
  exportPrivateKeyPEM,
  generateKeyPair,
  importPrivateKeyPEM,
  type KeyAlgorithmName,
  signatureParams,
} from './keys';
import { encodePEM } from './pem';

export type ExtendedKeyUsageName = 'serverAuth' | 'clientAuth';
export type KeyUsageName = 'digitalSignature' | 'keyEncipherment' | 'keyCertSign' | 'cRLSign';

/** A certificate with its DER, its PEM and, when this module generated the key, the key pair. */
export interface IssuedCertificate {
  der: Uint8Array;
  pem: string;
  certificate: X509Certificate;
  keys?: CryptoKeyPair;
}

/** A CA: its certificate and the key pair that signs with it. */
export interface CertificateAuthority {
  der: Uint8Array;
  pem: string;
  certificate: X509Certificate;
  keys: CryptoKeyPair;
}

export interface SubjectSpec {
  commonName: string;
  /** Each organization becomes a group when the certificate authenticates a user. */
  organizations?: readonly string[];
}

export interface CertificateSpec {
  subject: SubjectSpec;
  /** The key to certify (a CSR's); omitted: a new key pair is generated and returned. */
  publicKey?: CryptoKey;
  keyAlgorithm?: KeyAlgorithmName;
  extendedKeyUsages?: readonly ExtendedKeyUsageName[];
  /** Default digitalSignature (+ keyEncipherment for RSA keys, as the real signers set). */
  keyUsages?: readonly KeyUsageName[];
  dnsNames?: readonly string[];
  ipAddresses?: readonly string[];
  notBefore?: Date;
  /** Default one year after notBefore. */
  notAfter?: Date;
  /** Hex; default 128 random bits. */
  serialNumber?: string;
  isCA?: boolean;
}

// Functions, not tables: the library's constants exist only once it is loaded.
const ekuOid = (usage: ExtendedKeyUsageName): string => x509().ExtendedKeyUsage[usage];
const kuFlag = (usage: KeyUsageName): number => x509().KeyUsageFlags[usage];

/** A positive random serial (hex), as real signers use: 128 bits with the sign bit clear. */
export function randomSerialNumber(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0] ?? 0) & 0x7f;
  if (bytes[0] === 0) bytes[0] = 1; // keep the DER integer its full length
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** X.509 time has one-second precision; rounding here keeps comparisons with parsed certificates exact. */
function wholeSeconds(d: Date): Date {
  return new Date(Math.floor(d.getTime() / 1000) * 1000);
}

function subjectName(subject: SubjectSpec): Record<string, string[]>[] {
  // One attribute per RDN, organizations first and CN last, as openssl and kubeadm order them.
  return [...(subject.organizations ?? []).map((o) => ({ O: [o] })), { CN: [subject.commonName] }];
}

function toIssued(cert: X509Certificate, keys?: CryptoKeyPair): IssuedCertificate {
  const der = new Uint8Array(cert.rawData);
  return {
    der,
    pem: encodePEM(der, 'CERTIFICATE'),
    certificate: cert,
    ...(keys !== undefined ? { keys } : {}),
  };
}

async function extensionsFor(
  spec: CertificateSpec,
  publicKey: CryptoKey,
  issuerPublicKey: CryptoKey,
): Promise<Extension[]> {
  const {
    AuthorityKeyIdentifierExtension,
    BasicConstraintsExtension,
    ExtendedKeyUsageExtension,
    KeyUsagesExtension,
    SubjectAlternativeNameExtension,
    SubjectKeyIdentifierExtension,
  } = x509();
  const extensions: Extension[] = [];
  const isCA = spec.isCA === true;
  extensions.push(new BasicConstraintsExtension(isCA, undefined, true));
  const defaultUsages: KeyUsageName[] = isCA
    ? ['digitalSignature', 'keyEncipherment', 'keyCertSign']
    : publicKey.algorithm.name === 'ECDSA'
      ? ['digitalSignature']
      : ['digitalSignature', 'keyEncipherment'];
  const flags = (spec.keyUsages ?? defaultUsages).reduce((acc, u) => acc | kuFlag(u), 0);
  extensions.push(new KeyUsagesExtension(flags, true));
  if (spec.extendedKeyUsages !== undefined && spec.extendedKeyUsages.length > 0) {
    extensions.push(new ExtendedKeyUsageExtension(spec.extendedKeyUsages.map(ekuOid)));
  }
  const names = [
    ...(spec.dnsNames ?? []).map((value) => ({ type: 'dns' as const, value })),
    ...(spec.ipAddresses ?? []).map((value) => ({ type: 'ip' as const, value })),
  ];
  if (names.length > 0) extensions.push(new SubjectAlternativeNameExtension(names));
  extensions.push(await SubjectKeyIdentifierExtension.create(publicKey));
  extensions.push(await AuthorityKeyIdentifierExtension.create(issuerPublicKey));
  return extensions;
}

/** A new self-signed cluster CA (CA:TRUE, keyCertSign), valid ten years by default. */
export async function createCertificateAuthority(options: {
  commonName: string;
  keyAlgorithm?: KeyAlgorithmName;
  notBefore?: Date;
  notAfter?: Date;
}): Promise<CertificateAuthority> {
  await x509Library.load();
  const keys = await generateKeyPair(options.keyAlgorithm);
  const notBefore = wholeSeconds(options.notBefore ?? new Date());
  const notAfter = wholeSeconds(options.notAfter ?? new Date(notBefore.getTime() + 3650 * 86_400_000));
  const spec: CertificateSpec = { subject: { commonName: options.commonName }, isCA: true };
  const cert = await x509().X509CertificateGenerator.create({
    serialNumber: randomSerialNumber(),
    subject: subjectName(spec.subject),
    issuer: subjectName(spec.subject),
    notBefore,
    notAfter,
    publicKey: keys.publicKey,
    signingKey: keys.privateKey,
    signingAlgorithm: signatureParams(keys.privateKey) as Algorithm,
    extensions: await extensionsFor(spec, keys.publicKey, keys.publicKey),
  });
  const issued = toIssued(cert);
  return { der: issued.der, pem: issued.pem, certificate: cert, keys };
}

/** A certificate signed by `ca`; generates the subject's key pair unless `spec.publicKey` is given. */
export async function issueCertificate(
  ca: CertificateAuthority,
  spec: CertificateSpec,
): Promise<IssuedCertificate> {
  await x509Library.load();
  const keys = spec.publicKey === undefined ? await generateKeyPair(spec.keyAlgorithm) : undefined;
  const publicKey = spec.publicKey ?? keys?.publicKey;
  if (publicKey === undefined) throw new Error('no public key to certify');
  const notBefore = wholeSeconds(spec.notBefore ?? new Date());
  const notAfter = wholeSeconds(spec.notAfter ?? new Date(notBefore.getTime() + 365 * 86_400_000));
  const cert = await x509().X509CertificateGenerator.create({
    serialNumber: spec.serialNumber ?? randomSerialNumber(),
    subject: subjectName(spec.subject),
    issuer: ca.certificate.subjectName,
    notBefore,
    notAfter,
    publicKey,
    signingKey: ca.keys.privateKey,
    signingAlgorithm: signatureParams(ca.keys.privateKey) as Algorithm,
    extensions: await extensionsFor(spec, publicKey, ca.keys.publicKey),
  });
  return toIssued(cert, keys);
}

/** A server certificate (serverAuth) for the given DNS names and IP addresses. */
export function issueServingCertificate(
  ca: CertificateAuthority,
  options: { commonName: string; dnsNames?: string[]; ipAddresses?: string[]; notAfter?: Date },
): Promise<IssuedCertificate> {
  return issueCertificate(ca, {
    subject: { commonName: options.commonName },
    extendedKeyUsages: ['serverAuth'],
    ...(options.dnsNames !== undefined ? { dnsNames: options.dnsNames } : {}),
    ...(options.ipAddresses !== undefined ? { ipAddresses: options.ipAddresses } : {}),
    ...(options.notAfter !== undefined ? { notAfter: options.notAfter } : {}),
  });
}

/** A client certificate (clientAuth) naming a user: CN the user name, O each group. */
export function issueClientCertificate(
  ca: CertificateAuthority,
  options: { user: string; groups?: string[]; notBefore?: Date; notAfter?: Date },
): Promise<IssuedCertificate> {
  return issueCertificate(ca, {
    subject: { commonName: options.user, organizations: options.groups ?? [] },
    extendedKeyUsages: ['clientAuth'],
    ...(options.notBefore !== undefined ? { notBefore: options.notBefore } : {}),
    ...(options.notAfter !== undefined ? { notAfter: options.notAfter } : {}),
  });
}

/** What to persist to restore a CA later: its certificate and PKCS#8 key, both PEM. */
export interface PersistedCertificateAuthority {
  certificatePEM: string;
  privateKeyPEM: string;
}

export async function exportCertificateAuthority(
  ca: CertificateAuthority,
): Promise<PersistedCertificateAuthority> {
  return { certificatePEM: ca.pem, privateKeyPEM: await exportPrivateKeyPEM(ca.keys.privateKey) };
}

export async function importCertificateAuthority(
  saved: PersistedCertificateAuthority,
): Promise<CertificateAuthority> {
  await x509Library.load();
  const certificate = new (x509().X509Certificate)(saved.certificatePEM);
  const keys = await importPrivateKeyPEM(saved.privateKeyPEM);
  const issued = toIssued(certificate);
  return { der: issued.der, pem: issued.pem, certificate, keys };
}
