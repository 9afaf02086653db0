/**
 * Certificates for tests: a throw-away CA and certificates it issues
 * (ECDSA P-256, quick to make), as PEM. Used for what the server itself
 * must not issue — a client certificate from a CA the server does not
 * trust, a chain to check what the host hands the core, files for
 * `--tls-cert-file`.
 */

import 'reflect-metadata';
import type { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;

export interface TestCA {
  certPEM: string;
  keyPEM: string;
  cert: x509.X509Certificate;
  key: CryptoKey;
}

export interface IssuedCertificate {
  certPEM: string;
  keyPEM: string;
}

const ecdsa = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
const signing = { name: 'ECDSA', hash: 'SHA-256' };

async function keyPair(): Promise<CryptoKeyPair> {
  return crypto.subtle.generateKey(ecdsa, true, ['sign', 'verify']);
}

async function privatePEM(key: CryptoKey): Promise<string> {
  return x509.PemConverter.encode(await crypto.subtle.exportKey('pkcs8', key), 'PRIVATE KEY');
}

/** RFC 4514 names need escaping for a few characters; test names avoid them. */
function subject(cn: string, orgs: string[] = []): string {
  return [`CN=${cn}`, ...orgs.map((o) => `O=${o}`)].join(', ');
}

export async function createTestCA(cn = 'test-ca'): Promise<TestCA> {
  const keys = await keyPair();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    name: subject(cn),
    keys,
    signingAlgorithm: signing,
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + 24 * 3600_000),
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return {
    certPEM: `${cert.toString('pem')}\n`,
    keyPEM: await privatePEM(keys.privateKey),
    cert,
    key: keys.privateKey,
  };
}

/** A leaf certificate: a server's (`dns`/`ips` as subject alternative names) or a client's (CN user, O groups). */
export async function issueCertificate(
  ca: TestCA,
  leaf: { cn: string; orgs?: string[]; dns?: string[]; ips?: string[]; server?: boolean },
): Promise<IssuedCertificate> {
  const keys = await keyPair();
  const names: x509.JsonGeneralName[] = [
    ...(leaf.dns ?? []).map((value) => ({ type: 'dns' as const, value })),
    ...(leaf.ips ?? []).map((value) => ({ type: 'ip' as const, value })),
  ];
  const cert = await x509.X509CertificateGenerator.create({
    subject: subject(leaf.cn, leaf.orgs),
    issuer: ca.cert.subject,
    publicKey: keys.publicKey,
    signingKey: ca.key,
    signingAlgorithm: signing,
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + 24 * 3600_000),
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment,
        true,
      ),
      new x509.ExtendedKeyUsageExtension([
        leaf.server === true ? x509.ExtendedKeyUsage.serverAuth : x509.ExtendedKeyUsage.clientAuth,
      ]),
      ...(names.length > 0 ? [new x509.SubjectAlternativeNameExtension(names)] : []),
      await x509.AuthorityKeyIdentifierExtension.create(ca.cert.publicKey),
    ],
  });
  return { certPEM: `${cert.toString('pem')}\n`, keyPEM: await privatePEM(keys.privateKey) };
}
