import { describe, expect, it } from 'vitest';
import { certificateFacts, certificatesOf, checkChain, durationText } from './certificate-info';
import {
  BasicConstraintsExtension,
  ExtendedKeyUsage,
  ExtendedKeyUsageExtension,
  KeyUsageFlags,
  KeyUsagesExtension,
  SubjectAlternativeNameExtension,
  X509CertificateGenerator,
} from './x509';

const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };

async function keys(): Promise<CryptoKeyPair> {
  return (await crypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as CryptoKeyPair;
}

async function makeCA(name: string) {
  const k = await keys();
  const cert = await X509CertificateGenerator.createSelfSigned({
    name,
    keys: k,
    signingAlgorithm: alg,
    notBefore: new Date('2026-01-01T00:00:00Z'),
    notAfter: new Date('2027-01-01T00:00:00Z'),
    extensions: [new BasicConstraintsExtension(true, undefined, true)],
  });
  return { cert, keys: k };
}

describe('reading an issued certificate', () => {
  it('names user, groups, SANs, usages, validity, and checks the chain to the CA', async () => {
    const ca = await makeCA('CN=orch-sandbox-ca');
    const other = await makeCA('CN=orch-sandbox-ca');
    const leafKeys = await keys();
    const leaf = await X509CertificateGenerator.create({
      subject: 'O=developers, O=ops, CN=carol',
      issuer: ca.cert.subject,
      publicKey: leafKeys.publicKey,
      signingKey: ca.keys.privateKey,
      signingAlgorithm: alg,
      serialNumber: '0a1b',
      notBefore: new Date('2026-01-01T00:00:00Z'),
      notAfter: new Date('2026-01-01T01:05:00Z'),
      extensions: [
        new KeyUsagesExtension(KeyUsageFlags.digitalSignature | KeyUsageFlags.keyEncipherment, true),
        new ExtendedKeyUsageExtension([ExtendedKeyUsage.clientAuth]),
        new SubjectAlternativeNameExtension([
          { type: 'dns', value: 'carol.example' },
          { type: 'ip', value: '10.0.0.7' },
        ]),
        new BasicConstraintsExtension(false, undefined, true),
      ],
    });
    const pem = `${leaf.toString('pem')}\n${ca.cert.toString('pem')}\n`;
    const chain = certificatesOf(pem);
    expect(chain).toHaveLength(2);
    const first = chain[0];
    if (first === undefined) throw new Error('no leaf');
    expect(certificateFacts(first)).toMatchObject({
      commonName: 'carol',
      organizations: ['developers', 'ops'],
      issuer: 'CN=orch-sandbox-ca',
      dnsNames: ['carol.example'],
      ipAddresses: ['10.0.0.7'],
      keyUsages: ['digital signature', 'key encipherment'],
      extendedKeyUsages: ['client auth'],
      isCA: false,
      lifetimeSeconds: 3900,
      keyAlgorithm: 'ECDSA P-256',
    });
    expect(await checkChain(first, ca.cert.toString('pem'))).toEqual({
      ok: true,
      caSubject: 'CN=orch-sandbox-ca',
    });
    // Same name, another key: the names match but the signature does not verify.
    expect((await checkChain(first, other.cert.toString('pem'))).ok).toBe(false);
    expect((await checkChain(first, '')).problem).toBe('no CA certificate to check against');
  });

  it('writes durations as a person reads them', () => {
    expect(durationText(3900)).toBe('1 h 5 min');
    expect(durationText(31_536_000)).toBe('365 d');
    expect(durationText(45)).toBe('45 s');
  });
});
