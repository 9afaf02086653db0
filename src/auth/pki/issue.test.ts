import { describe, expect, it } from 'vitest';
import {
  createCertificateAuthority,
  exportCertificateAuthority,
  importCertificateAuthority,
  issueClientCertificate,
  issueServingCertificate,
} from './issue';
import { decodePEM, encodePEM } from './pem';
import { verifyChain } from './verify';
import {
  BasicConstraintsExtension,
  KeyUsageFlags,
  KeyUsagesExtension,
  SubjectAlternativeNameExtension,
} from './x509.lazy';

describe('PKI', () => {
  it('creates a CA that is CA:TRUE with keyCertSign', async () => {
    const ca = await createCertificateAuthority({ commonName: 'orch-ca' });
    expect(ca.certificate.getExtension(BasicConstraintsExtension)?.ca).toBe(true);
    const ku = ca.certificate.getExtension(KeyUsagesExtension)?.usages ?? 0;
    expect(ku & KeyUsageFlags.keyCertSign).toBeTruthy();
    expect(await ca.certificate.isSelfSigned()).toBe(true);
  });

  it('issues client certificates naming the user and groups', async () => {
    const ca = await createCertificateAuthority({ commonName: 'orch-ca' });
    const cert = await issueClientCertificate(ca, { user: 'alice', groups: ['system:masters', 'dev'] });
    expect(cert.certificate.subjectName.getField('CN')).toEqual(['alice']);
    expect(cert.certificate.subjectName.getField('O')).toEqual(['system:masters', 'dev']);
    expect(cert.keys).toBeDefined();
    expect((await verifyChain([cert.der], ca.pem, new Date(), 'client')).ok).toBe(true);
  });

  it('issues serving certificates with SANs', async () => {
    const ca = await createCertificateAuthority({ commonName: 'orch-ca', keyAlgorithm: 'RSA-2048' });
    const cert = await issueServingCertificate(ca, {
      commonName: 'orch-apiserver',
      dnsNames: ['localhost'],
      ipAddresses: ['127.0.0.1'],
    });
    const san = cert.certificate.getExtension(SubjectAlternativeNameExtension);
    expect(san?.names.toJSON()).toEqual([
      { type: 'dns', value: 'localhost' },
      { type: 'ip', value: '127.0.0.1' },
    ]);
    expect((await verifyChain([cert.der], ca.pem, new Date(), 'server')).ok).toBe(true);
    expect((await verifyChain([cert.der], ca.pem, new Date(), 'client')).ok).toBe(false);
  });

  it('round-trips a CA through PEM for persistence and keeps signing', async () => {
    for (const keyAlgorithm of ['ECDSA-P256', 'RSA-2048'] as const) {
      const ca = await createCertificateAuthority({ commonName: 'orch-ca', keyAlgorithm });
      const saved = await exportCertificateAuthority(ca);
      expect(saved.privateKeyPEM).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
      const restored = await importCertificateAuthority(saved);
      const cert = await issueClientCertificate(restored, { user: 'bob' });
      expect((await verifyChain([cert.der], saved.certificatePEM, new Date(), 'client')).ok).toBe(true);
    }
  });

  it('encodes and decodes PEM bundles', async () => {
    const a = await createCertificateAuthority({ commonName: 'a' });
    const b = await createCertificateAuthority({ commonName: 'b' });
    const bundle = `# comment\n${encodePEM([a.der, b.der], 'CERTIFICATE')}trailing text\n`;
    expect(decodePEM(bundle)).toEqual([a.der, b.der]);
  });
});
