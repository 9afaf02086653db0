import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CertificateAuthority,
  createCertificateAuthority,
  issueCertificate,
  issueClientCertificate,
} from './issue';
import { decodePEM } from './pem';
import { certificateVersion, verifyChain } from './verify';
import { x509, x509Library } from './x509';
import { v1LeafPEM, v1RootPEM } from '../../../test/support/v1-ca';

const day = 86_400_000;
const now = new Date('2030-06-01T12:00:00Z');
const at = (offsetDays: number): Date => new Date(now.getTime() + offsetDays * day);

let ca: CertificateAuthority;
let otherCA: CertificateAuthority;
let sameNameCA: CertificateAuthority;
let rsaCA: CertificateAuthority;

beforeAll(async () => {
  ca = await createCertificateAuthority({ commonName: 'orch-ca', notBefore: at(-10), notAfter: at(3650) });
  otherCA = await createCertificateAuthority({
    commonName: 'other-ca',
    notBefore: at(-10),
    notAfter: at(3650),
  });
  sameNameCA = await createCertificateAuthority({
    commonName: 'orch-ca',
    notBefore: at(-10),
    notAfter: at(3650),
  });
  rsaCA = await createCertificateAuthority({
    commonName: 'rsa-ca',
    keyAlgorithm: 'RSA-2048',
    notBefore: at(-10),
  });
});

describe('verifyChain', () => {
  const cases: {
    name: string;
    build: () => Promise<{ chain: Uint8Array[]; roots: string }>;
    usage?: 'client' | 'server';
    want: string | RegExp | 'ok';
  }[] = [
    {
      name: 'valid client certificate',
      build: async () => {
        const c = await issueClientCertificate(ca, {
          user: 'alice',
          groups: ['dev'],
          notBefore: at(-1),
          notAfter: at(1),
        });
        return { chain: [c.der], roots: ca.pem };
      },
      want: 'ok',
    },
    {
      name: 'valid RSA chain',
      build: async () => {
        const c = await issueClientCertificate(rsaCA, { user: 'bob', notBefore: at(-1), notAfter: at(1) });
        return { chain: [c.der], roots: rsaCA.pem + ca.pem };
      },
      want: 'ok',
    },
    {
      name: 'expired',
      build: async () => {
        const c = await issueClientCertificate(ca, { user: 'alice', notBefore: at(-3), notAfter: at(-1) });
        return { chain: [c.der], roots: ca.pem };
      },
      want: 'x509: certificate has expired or is not yet valid: current time 2030-06-01T12:00:00Z is after 2030-05-31T12:00:00Z',
    },
    {
      name: 'not yet valid',
      build: async () => {
        const c = await issueClientCertificate(ca, { user: 'alice', notBefore: at(1), notAfter: at(3) });
        return { chain: [c.der], roots: ca.pem };
      },
      want: 'x509: certificate has expired or is not yet valid: current time 2030-06-01T12:00:00Z is before 2030-06-02T12:00:00Z',
    },
    {
      name: 'signed by another CA',
      build: async () => {
        const c = await issueClientCertificate(otherCA, {
          user: 'mallory',
          notBefore: at(-1),
          notAfter: at(1),
        });
        return { chain: [c.der], roots: ca.pem };
      },
      want: 'x509: certificate signed by unknown authority',
    },
    {
      name: 'signed by another CA of the same name',
      build: async () => {
        const c = await issueClientCertificate(sameNameCA, {
          user: 'mallory',
          notBefore: at(-1),
          notAfter: at(1),
        });
        return { chain: [c.der], roots: ca.pem };
      },
      want: 'x509: certificate signed by unknown authority (possibly because of "x509: ECDSA verification failure" while trying to verify candidate authority certificate "orch-ca")',
    },
    {
      name: 'issuer without the CA bit',
      build: async () => {
        const notCA = await issueCertificate(ca, {
          subject: { commonName: 'not-a-ca' },
          notBefore: at(-1),
          notAfter: at(5),
        });
        const fakeCA: CertificateAuthority = { ...notCA, keys: notCA.keys ?? ca.keys };
        const leaf = await issueClientCertificate(fakeCA, {
          user: 'eve',
          notBefore: at(-1),
          notAfter: at(1),
        });
        return { chain: [leaf.der, notCA.der], roots: ca.pem };
      },
      want: 'x509: certificate signed by unknown authority (possibly because of "x509: invalid signature: parent certificate cannot sign this kind of certificate" while trying to verify candidate authority certificate "not-a-ca")',
    },
    {
      name: 'issued by a version 1 root, which has no basic constraints',
      build: () => Promise.resolve({ chain: decodePEM(v1LeafPEM), roots: v1RootPEM }),
      want: 'ok',
    },
    {
      name: 'valid through an intermediate',
      build: async () => {
        const inter = await issueCertificate(ca, {
          subject: { commonName: 'intermediate' },
          isCA: true,
          notBefore: at(-1),
          notAfter: at(5),
        });
        const interCA: CertificateAuthority = { ...inter, keys: inter.keys ?? ca.keys };
        const leaf = await issueClientCertificate(interCA, {
          user: 'carol',
          notBefore: at(-1),
          notAfter: at(1),
        });
        return { chain: [leaf.der, inter.der], roots: ca.pem };
      },
      want: 'ok',
    },
    {
      name: 'intermediate missing from the presented chain',
      build: async () => {
        const inter = await issueCertificate(ca, {
          subject: { commonName: 'intermediate' },
          isCA: true,
          notBefore: at(-1),
          notAfter: at(5),
        });
        const interCA: CertificateAuthority = { ...inter, keys: inter.keys ?? ca.keys };
        const leaf = await issueClientCertificate(interCA, {
          user: 'carol',
          notBefore: at(-1),
          notAfter: at(1),
        });
        return { chain: [leaf.der], roots: ca.pem };
      },
      want: 'x509: certificate signed by unknown authority',
    },
    {
      name: 'server-only certificate used for client auth',
      build: async () => {
        const c = await issueCertificate(ca, {
          subject: { commonName: 'web' },
          extendedKeyUsages: ['serverAuth'],
          notBefore: at(-1),
          notAfter: at(1),
        });
        return { chain: [c.der], roots: ca.pem };
      },
      want: 'x509: certificate specifies an incompatible key usage',
    },
    {
      name: 'server certificate for server auth',
      usage: 'server',
      build: async () => {
        const c = await issueCertificate(ca, {
          subject: { commonName: 'web' },
          extendedKeyUsages: ['serverAuth'],
          dnsNames: ['localhost'],
          notBefore: at(-1),
          notAfter: at(1),
        });
        return { chain: [c.der], roots: ca.pem };
      },
      want: 'ok',
    },
    {
      name: 'garbage bytes',
      build: async () => ({ chain: [new Uint8Array([1, 2, 3])], roots: ca.pem }),
      want: /^x509: malformed certificate/,
    },
  ];

  for (const c of cases) {
    it(c.name, async () => {
      const { chain, roots } = await c.build();
      const result = await verifyChain(chain, roots, now, c.usage ?? 'client');
      if (c.want === 'ok') {
        expect(result).toMatchObject({ ok: true });
      } else {
        expect(result.ok).toBe(false);
        if (!result.ok) {
          if (typeof c.want === 'string') expect(result.reason).toBe(c.want);
          else expect(result.reason).toMatch(c.want);
        }
      }
    });
  }
});

describe('certificateVersion', () => {
  it('reads the version from the TBSCertificate, 1 when it is absent', async () => {
    await x509Library.load();
    const { X509Certificate } = x509();
    expect(certificateVersion(new X509Certificate(v1RootPEM))).toBe(1);
    expect(certificateVersion(new X509Certificate(v1LeafPEM))).toBe(3);
    expect(certificateVersion(new X509Certificate(ca.pem))).toBe(3);
  });
});
