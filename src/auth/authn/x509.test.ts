import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CertificateAuthority,
  createCertificateAuthority,
  issueCertificate,
  issueClientCertificate,
} from '../pki/issue';
import { AuthenticationRejected } from './rejection';
import { x509Authenticator } from './x509';

const now = new Date('2030-01-01T00:00:00Z');
const hour = 3_600_000;
let ca: CertificateAuthority;
let other: CertificateAuthority;
const request = new Request('https://orch.test/api');

beforeAll(async () => {
  ca = await createCertificateAuthority({ commonName: 'orch-ca', notBefore: new Date(now.getTime() - hour) });
  other = await createCertificateAuthority({
    commonName: 'other-ca',
    notBefore: new Date(now.getTime() - hour),
  });
});

describe('x509 authenticator', () => {
  const valid = { notBefore: new Date(now.getTime() - hour), notAfter: new Date(now.getTime() + hour) };

  it('names the user from CN and groups from O', async () => {
    const cert = await issueClientCertificate(ca, {
      user: 'alice',
      groups: ['system:masters', 'dev'],
      ...valid,
    });
    const auth = x509Authenticator({ clientCA: ca.pem, now: () => now });
    expect(await auth.authenticate(request, { peerCertificates: [cert.der] })).toEqual({
      username: 'alice',
      groups: ['system:masters', 'dev'],
    });
  });

  it('has no opinion without a certificate or without a CN', async () => {
    const auth = x509Authenticator({ clientCA: ca.pem, now: () => now });
    expect(await auth.authenticate(request, undefined)).toBeUndefined();
    expect(await auth.authenticate(request, { peerCertificates: [] })).toBeUndefined();
    const noCN = await issueCertificate(ca, {
      subject: { commonName: '' },
      extendedKeyUsages: ['clientAuth'],
      ...valid,
    });
    expect(await auth.authenticate(request, { peerCertificates: [noCN.der] })).toBeUndefined();
  });

  const rejections: { name: string; make: () => Promise<Uint8Array>; reason: RegExp }[] = [
    {
      name: 'expired',
      make: async () =>
        (
          await issueClientCertificate(ca, {
            user: 'a',
            notBefore: new Date(now.getTime() - 2 * hour),
            notAfter: new Date(now.getTime() - hour),
          })
        ).der,
      reason:
        /^verifying certificate SN=\d+, SKID=([0-9A-F]{2}:)+[0-9A-F]{2}, AKID=([0-9A-F]{2}:)+[0-9A-F]{2} failed: x509: certificate has expired or is not yet valid: current time 2030-01-01T00:00:00Z is after /,
    },
    {
      name: 'not yet valid',
      make: async () =>
        (
          await issueClientCertificate(ca, {
            user: 'a',
            notBefore: new Date(now.getTime() + hour),
            notAfter: new Date(now.getTime() + 2 * hour),
          })
        ).der,
      reason:
        /failed: x509: certificate has expired or is not yet valid: current time 2030-01-01T00:00:00Z is before /,
    },
    {
      name: 'wrong CA',
      make: async () => (await issueClientCertificate(other, { user: 'a', ...valid })).der,
      reason: /failed: x509: certificate signed by unknown authority$/,
    },
  ];
  for (const r of rejections) {
    it(`rejects a certificate that is ${r.name} with 401`, async () => {
      const auth = x509Authenticator({ clientCA: ca.pem, now: () => now });
      const err = await auth
        .authenticate(request, { peerCertificates: [await r.make()] })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AuthenticationRejected);
      const rejected = err as AuthenticationRejected;
      expect(rejected.status).toMatchObject({ code: 401, reason: 'Unauthorized', message: 'Unauthorized' });
      expect(rejected.attempt.authenticator).toBe('x509');
      expect(rejected.attempt.result).toBe('rejected');
      expect(rejected.attempt.reason).toMatch(r.reason);
    });
  }
});
