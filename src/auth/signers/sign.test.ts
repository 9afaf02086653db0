import { describe, expect, it } from 'vitest';
import { namingProfile } from '../../machinery/naming';
import { createCertificateAuthority } from '../pki/issue';
import { verifyChain } from '../pki/verify';
import { decodePEM } from '../pki/pem';
import {
  AuthorityKeyIdentifierExtension,
  BasicConstraintsExtension,
  ExtendedKeyUsageExtension,
  KeyUsageFlags,
  KeyUsagesExtension,
  SubjectAlternativeNameExtension,
  SubjectKeyIdentifierExtension,
  X509Certificate,
} from '../pki/x509.lazy';
import { certificateSigningService, defaultSigningDurationMs } from './index';
import { certificateLifetimeMs, validityPeriod } from './sign';
import { certificateUsages } from './usages';
import { makeRequestPEM } from '../../../test/support/signer-requests';

const profile = namingProfile('orch');
const hour = 3_600_000;
const now = new Date('2026-03-01T12:00:00Z');

async function service(durationMs?: number) {
  const ca = await createCertificateAuthority({
    commonName: 'test-ca',
    notBefore: new Date('2026-01-01T00:00:00Z'),
  });
  const authorities = {
    apiserverClient: ca,
    apiserverClientKubelet: ca,
    kubeletServing: ca,
    legacyUnknown: ca,
  };
  return {
    ca,
    signing: certificateSigningService({
      profile,
      authorities,
      ...(durationMs !== undefined ? { durationMs } : {}),
    }),
  };
}

async function issue(
  signing: Awaited<ReturnType<typeof service>>['signing'],
  input: { pem: string; usages: string[]; signer?: string; expirationSeconds?: number },
): Promise<X509Certificate> {
  const outcome = await signing.sign({
    request: input.pem,
    usages: input.usages,
    signerName: input.signer ?? 'orch.io/apiserver-client',
    ...(input.expirationSeconds !== undefined ? { expirationSeconds: input.expirationSeconds } : {}),
    now,
  });
  if (!('certificate' in outcome)) throw new Error(`refused: ${outcome.failure}`);
  return new X509Certificate(outcome.certificate);
}

describe('certificate lifetime', () => {
  it.each([
    { name: 'no request: the signing duration', duration: 8760 * hour, seconds: undefined, ttl: 8760 * hour },
    { name: 'shorter request honoured', duration: 8760 * hour, seconds: 3600, ttl: hour },
    { name: 'longer request capped', duration: 2 * hour, seconds: 86_400, ttl: 2 * hour },
    { name: 'under ten minutes raised to ten', duration: 8760 * hour, seconds: 60, ttl: 600_000 },
  ])('$name', ({ duration, seconds, ttl }) => {
    expect(certificateLifetimeMs(duration, seconds)).toBe(ttl);
  });

  it('backdates the start 5 minutes; a short certificate ends its lifetime after now, a long one after the start', () => {
    const caEnd = new Date('2036-01-01T00:00:00Z');
    const short = validityPeriod(now, hour, caEnd);
    expect(short.notBefore.toISOString()).toBe('2026-03-01T11:55:00.000Z');
    expect(short.notAfter.toISOString()).toBe('2026-03-01T13:00:00.000Z');
    const long = validityPeriod(now, 8 * hour, caEnd);
    expect(long.notAfter.getTime() - long.notBefore.getTime()).toBe(8 * hour);
  });

  it('never outlives the CA, and refuses once the CA has expired', () => {
    const caEnd = new Date('2026-03-01T12:30:00Z');
    expect(validityPeriod(now, 8760 * hour, caEnd).notAfter).toEqual(caEnd);
    expect(() => validityPeriod(now, hour, new Date('2026-03-01T11:00:00Z'))).toThrow(
      'the signer has expired: NotAfter=2026-03-01 11:00:00 +0000 UTC',
    );
    expect(() => validityPeriod(now, hour, new Date('2026-03-01T11:58:00Z'))).toThrow(
      'refusing to sign a certificate that expired in the past: NotAfter=2026-03-01 11:58:00 +0000 UTC',
    );
  });
});

describe('usages', () => {
  it('maps key usages to bits and extended usages to OIDs in Go order', () => {
    expect(
      certificateUsages([
        'client auth',
        'signing',
        'server auth',
        'key encipherment',
        's/mime',
        'email protection',
      ]),
    ).toEqual({
      keyUsage: KeyUsageFlags.digitalSignature | KeyUsageFlags.keyEncipherment,
      extendedKeyUsages: ['1.3.6.1.5.5.7.3.1', '1.3.6.1.5.5.7.3.2', '1.3.6.1.5.5.7.3.4'],
    });
    expect(() => certificateUsages(['client auth', 'nope', 'x y'])).toThrow(
      'unrecognized usage values: ["nope" "x y"]',
    );
  });
});

describe('signing', () => {
  it('issues from the CA: subject, usages, CA:FALSE, the CA key id, chain verifies', async () => {
    const { ca, signing } = await service();
    const cert = await issue(signing, {
      pem: await makeRequestPEM({ cn: 'alice', orgs: ['dev', 'ops'] }),
      usages: ['digital signature', 'key encipherment', 'client auth'],
    });
    expect(cert.subjectName.getField('CN')).toEqual(['alice']);
    expect(cert.subjectName.getField('O')).toEqual(['dev', 'ops']);
    expect(cert.issuer).toBe(ca.certificate.subject);
    expect(cert.getExtension(BasicConstraintsExtension)?.ca).toBe(false);
    expect(cert.getExtension(KeyUsagesExtension)?.usages).toBe(
      KeyUsageFlags.digitalSignature | KeyUsageFlags.keyEncipherment,
    );
    expect(cert.getExtension(ExtendedKeyUsageExtension)?.usages).toEqual(['1.3.6.1.5.5.7.3.2']);
    expect(cert.getExtension(AuthorityKeyIdentifierExtension)?.keyId).toBe(
      ca.certificate.getExtension(SubjectKeyIdentifierExtension)?.keyId,
    );
    expect(cert.getExtension(SubjectKeyIdentifierExtension)).toBeNull();
    expect(cert.notAfter.getTime() - cert.notBefore.getTime()).toBe(defaultSigningDurationMs);
    const der = decodePEM(cert.toString('pem'))[0];
    if (der === undefined) throw new Error('no certificate');
    expect((await verifyChain([der], ca.pem, now, 'client')).ok).toBe(true);
  });

  it('drops a requested CA bit and every requested extension but the names', async () => {
    const { signing } = await service();
    const pem = await makeRequestPEM({
      cn: 'x',
      ca: true,
      dns: ['a.example'],
      extensions: [new KeyUsagesExtension(KeyUsageFlags.keyCertSign | KeyUsageFlags.cRLSign, true)],
    });
    const cert = await issue(signing, { pem, usages: ['client auth'], signer: 'orch.io/legacy-unknown' });
    expect(cert.getExtension(BasicConstraintsExtension)?.ca).toBe(false);
    // Only client auth was asked for: no key usage bit, so no key usage extension at all.
    expect(cert.getExtension(KeyUsagesExtension)).toBeNull();
    expect(cert.getExtension(SubjectAlternativeNameExtension)?.names.toJSON()).toEqual([
      { type: 'dns', value: 'a.example' },
    ]);
    expect(cert.extensions.map((e) => e.type)).toEqual(['2.5.29.37', '2.5.29.19', '2.5.29.35', '2.5.29.17']);
  });

  it('issues an expirationSeconds of an hour for 65 minutes, backdated', async () => {
    const { signing } = await service();
    const cert = await issue(signing, {
      pem: await makeRequestPEM({ cn: 'bob', key: 'RSA-2048' }),
      usages: ['client auth'],
      expirationSeconds: 3600,
    });
    expect(cert.notBefore.toISOString()).toBe('2026-03-01T11:55:00.000Z');
    expect(cert.notAfter.toISOString()).toBe('2026-03-01T13:00:00.000Z');
  });

  it('gives each certificate its own positive random serial', async () => {
    const { signing } = await service();
    const pem = await makeRequestPEM({ cn: 'carol' });
    const a = await issue(signing, { pem, usages: ['client auth'] });
    const b = await issue(signing, { pem, usages: ['client auth'] });
    expect(a.serialNumber).not.toBe(b.serialNumber);
    expect(Number.parseInt(a.serialNumber.slice(0, 2), 16)).toBeLessThan(0x80);
  });

  it('reports a broken rule instead of signing, and knows node client requests', async () => {
    const { signing } = await service();
    const pem = await makeRequestPEM({ cn: 'system:node:n1', orgs: ['system:nodes'] });
    expect(
      await signing.sign({
        request: pem,
        usages: ['client auth'],
        signerName: 'orch.io/apiserver-client-node-agent',
        now,
      }),
    ).toEqual({ failure: 'usages did not match [client auth digital signature key encipherment]' });
    expect(await signing.nodeClientCommonName(pem, ['digital signature', 'client auth'])).toBe(
      'system:node:n1',
    );
    expect(await signing.nodeClientCommonName(pem, ['client auth'])).toBeUndefined();
    expect(signing.handles('orch.io/node-agent-serving')).toBe(true);
    expect(signing.handles('example.com/custom')).toBe(false);
  });

  it('runs only the signers that have a CA', async () => {
    const ca = await createCertificateAuthority({ commonName: 'serving-ca' });
    const only = certificateSigningService({ profile, authorities: { kubeletServing: ca } });
    expect(only.handles('orch.io/node-agent-serving')).toBe(true);
    expect(only.handles('orch.io/apiserver-client')).toBe(false);
  });

  it('reads the expiry of an issued certificate', async () => {
    const { signing } = await service();
    const outcome = await signing.sign({
      request: await makeRequestPEM({ cn: 'dave' }),
      usages: ['client auth'],
      signerName: 'orch.io/apiserver-client',
      expirationSeconds: 7200,
      now,
    });
    const pem = 'certificate' in outcome ? outcome.certificate : '';
    expect((await signing.certificateNotAfter(pem))?.toISOString()).toBe('2026-03-01T14:00:00.000Z');
    expect(await signing.certificateNotAfter('garbage')).toBeUndefined();
    // The block Go's reader finds first: a malformed one before it is skipped.
    expect(
      (await signing.certificateNotAfter(`-----BEGIN X-----\n@@@@\n-----END X-----\n${pem}`))?.toISOString(),
    ).toBe('2026-03-01T14:00:00.000Z');
  });
});
