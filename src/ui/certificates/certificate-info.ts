/**
 * Reads an issued certificate the way a learner wants to see it: subject
 * (CN is the user, each O a group), issuer, SANs, key usages and extended
 * key usages in the API's own words (`digital signature`, `client auth`),
 * the CA bit, validity and lifetime — and whether it chains to the cluster
 * CA: the issuer names the CA's subject and the CA's key verifies the
 * signature.
 */

import {
  BasicConstraintsExtension,
  ExtendedKeyUsage,
  ExtendedKeyUsageExtension,
  KeyUsageFlags,
  KeyUsagesExtension,
  SubjectAlternativeNameExtension,
  X509Certificate,
} from './x509';

export interface CertificateFacts {
  subject: string;
  commonName: string;
  organizations: string[];
  issuer: string;
  serialNumber: string;
  notBefore: Date;
  notAfter: Date;
  lifetimeSeconds: number;
  dnsNames: string[];
  ipAddresses: string[];
  /** Email and URI SANs, which no built-in signer allows for serving. */
  otherNames: string[];
  keyUsages: string[];
  extendedKeyUsages: string[];
  isCA: boolean;
  keyAlgorithm: string;
}

const keyUsageNames: [KeyUsageFlags, string][] = [
  [KeyUsageFlags.digitalSignature, 'digital signature'],
  [KeyUsageFlags.nonRepudiation, 'content commitment'],
  [KeyUsageFlags.keyEncipherment, 'key encipherment'],
  [KeyUsageFlags.dataEncipherment, 'data encipherment'],
  [KeyUsageFlags.keyAgreement, 'key agreement'],
  [KeyUsageFlags.keyCertSign, 'cert sign'],
  [KeyUsageFlags.cRLSign, 'crl sign'],
  [KeyUsageFlags.encipherOnly, 'encipher only'],
  [KeyUsageFlags.decipherOnly, 'decipher only'],
];

const extendedUsageNames: Record<string, string> = {
  [ExtendedKeyUsage.serverAuth]: 'server auth',
  [ExtendedKeyUsage.clientAuth]: 'client auth',
  [ExtendedKeyUsage.codeSigning]: 'code signing',
  [ExtendedKeyUsage.emailProtection]: 'email protection',
  [ExtendedKeyUsage.timeStamping]: 'timestamping',
  [ExtendedKeyUsage.ocspSigning]: 'ocsp signing',
};

/** Every CERTIFICATE block of a PEM text, in order (leaf first in `status.certificate`). */
export function certificatesOf(pem: string): X509Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  return blocks.map((block) => new X509Certificate(block));
}

export function certificateFacts(cert: X509Certificate): CertificateFacts {
  const san = cert.getExtension(SubjectAlternativeNameExtension)?.names.items ?? [];
  const ku = cert.getExtension(KeyUsagesExtension)?.usages ?? 0;
  const eku = cert.getExtension(ExtendedKeyUsageExtension)?.usages ?? [];
  const algorithm = cert.publicKey.algorithm as KeyAlgorithm & { namedCurve?: string };
  return {
    subject: cert.subject,
    commonName: cert.subjectName.getField('CN')[0] ?? '',
    organizations: cert.subjectName.getField('O'),
    issuer: cert.issuer,
    serialNumber: cert.serialNumber,
    notBefore: cert.notBefore,
    notAfter: cert.notAfter,
    lifetimeSeconds: Math.round((cert.notAfter.getTime() - cert.notBefore.getTime()) / 1000),
    dnsNames: san.filter((n) => n.type === 'dns').map((n) => n.value),
    ipAddresses: san.filter((n) => n.type === 'ip').map((n) => n.value),
    otherNames: san.filter((n) => n.type === 'email' || n.type === 'url').map((n) => `${n.type}:${n.value}`),
    keyUsages: keyUsageNames.filter(([flag]) => (ku & flag) !== 0).map(([, name]) => name),
    extendedKeyUsages: eku.map((u) => extendedUsageNames[String(u)] ?? String(u)),
    isCA: cert.getExtension(BasicConstraintsExtension)?.ca ?? false,
    keyAlgorithm:
      algorithm.namedCurve !== undefined ? `${algorithm.name} ${algorithm.namedCurve}` : algorithm.name,
  };
}

export interface ChainCheck {
  ok: boolean;
  caSubject: string;
  /** Why the chain does not hold, when it does not. */
  problem?: string;
}

/** Whether `leaf` was issued by the CA in `caPEM`: names match and the CA's key verifies the signature. */
export async function checkChain(leaf: X509Certificate, caPEM: string): Promise<ChainCheck> {
  const ca = certificatesOf(caPEM)[0];
  if (ca === undefined) return { ok: false, caSubject: '', problem: 'no CA certificate to check against' };
  if (leaf.issuer !== ca.subject)
    return { ok: false, caSubject: ca.subject, problem: `issued by ${leaf.issuer}, not by ${ca.subject}` };
  const verified = await leaf.verify({ publicKey: ca.publicKey, signatureOnly: true });
  return verified
    ? { ok: true, caSubject: ca.subject }
    : {
        ok: false,
        caSubject: ca.subject,
        problem: "the CA's key does not verify the certificate's signature",
      };
}

/** `1 h 5 min`, `365 d`: a lifetime the way a person reads it. */
export function durationText(seconds: number): string {
  const d = Math.floor(seconds / 86400);
  const h = Math.floor((seconds % 86400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const parts = [
    d > 0 ? `${d} d` : '',
    h > 0 ? `${h} h` : '',
    m > 0 ? `${m} min` : '',
    s > 0 && d === 0 ? `${s} s` : '',
  ];
  return parts.filter((p) => p !== '').join(' ') || '0 s';
}
