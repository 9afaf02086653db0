import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CertificateAuthority,
  createCertificateAuthority,
  type IssuedCertificate,
  issueCertificate,
  issueClientCertificate,
} from '../pki/issue';
import { toBase64 } from '../pki/pem';
import {
  bodyDigest,
  connectionWithProof,
  proofHeaders,
  proofMessage,
  verifyProofOfPossession,
  withProofOfPossession,
} from './proof-of-possession';
import { AuthenticationRejected } from './rejection';
import { x509Authenticator } from './x509';

const now = new Date('2030-01-01T00:00:00Z');
let ca: CertificateAuthority;
let alice: IssuedCertificate;
let rsaAlice: IssuedCertificate;

beforeAll(async () => {
  ca = await createCertificateAuthority({
    commonName: 'orch-ca',
    notBefore: new Date('2029-01-01T00:00:00Z'),
  });
  const validity = {
    notBefore: new Date('2029-12-01T00:00:00Z'),
    notAfter: new Date('2030-02-01T00:00:00Z'),
  };
  alice = await issueClientCertificate(ca, { user: 'alice', groups: ['dev'], ...validity });
  const rsaCA = await createCertificateAuthority({ commonName: 'rsa', keyAlgorithm: 'RSA-2048' });
  rsaAlice = await issueCertificate(rsaCA, {
    subject: { commonName: 'rsa-user' },
    keyAlgorithm: 'RSA-2048',
    extendedKeyUsages: ['clientAuth'],
    ...validity,
  });
});

/**
 * Signs as a page would (the page-side signer lives in src/client, which
 * this layer may not import; test/proof-of-possession.test.ts checks the
 * two agree).
 */
async function signRequest(
  request: Request,
  cred: { privateKey: CryptoKey; chain: Uint8Array[] },
  at: Date,
): Promise<Request> {
  const url = new URL(request.url);
  const timestamp = at.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const digest = await bodyDigest(await request.clone().arrayBuffer());
  const params =
    cred.privateKey.algorithm.name === 'ECDSA'
      ? { name: 'ECDSA', hash: 'SHA-256' }
      : { name: cred.privateKey.algorithm.name };
  const message = proofMessage(request.method, url.pathname + url.search, timestamp, digest);
  const signature = new Uint8Array(
    await crypto.subtle.sign(params, cred.privateKey, new Uint8Array(message)),
  );
  const headers = new Headers(request.headers);
  headers.set(proofHeaders.certificate, cred.chain.map((der) => toBase64(der)).join(','));
  headers.set(proofHeaders.timestamp, timestamp);
  headers.set(
    proofHeaders.signature,
    toBase64(signature).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''),
  );
  return new Request(request, { headers });
}

function credential(cert: IssuedCertificate): { privateKey: CryptoKey; chain: Uint8Array[] } {
  if (cert.keys === undefined) throw new Error('no keys');
  return { privateKey: cert.keys.privateKey, chain: [cert.der] };
}

const post = (): Request =>
  new Request('https://orch.test/api/v1/namespaces/default/configmaps?dryRun=All', {
    method: 'POST',
    body: '{"kind":"ConfigMap"}',
    headers: { 'content-type': 'application/json' },
  });

async function rejection(p: Promise<unknown>): Promise<string> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(AuthenticationRejected);
  return (e as AuthenticationRejected).attempt.reason ?? '';
}

describe('proof of possession', () => {
  it('accepts a signed request (ECDSA and RSA), body intact', async () => {
    for (const cert of [alice, rsaAlice]) {
      const signed = await signRequest(post(), credential(cert), now);
      const chain = await verifyProofOfPossession(signed, { now: () => now });
      expect(chain).toEqual([cert.der]);
      expect(await signed.text()).toBe('{"kind":"ConfigMap"}');
    }
  });

  it('feeds the x509 authenticator', async () => {
    const auth = withProofOfPossession(x509Authenticator({ clientCA: ca.pem, now: () => now }), {
      now: () => now,
    });
    const signed = await signRequest(post(), credential(alice), now);
    expect(await auth.authenticate(signed, undefined)).toEqual({ username: 'alice', groups: ['dev'] });
  });

  it('has no opinion without any proof header, and prefers a TLS peer chain', async () => {
    expect(await verifyProofOfPossession(post(), { now: () => now })).toBeUndefined();
    const tls = { peerCertificates: [new Uint8Array([9])], secure: true };
    const signed = await signRequest(post(), credential(alice), now);
    expect(await connectionWithProof(signed, tls, { now: () => now })).toBe(tls);
  });

  it('declines at once only without a certificate and without proof headers', async () => {
    const auth = withProofOfPossession(x509Authenticator({ clientCA: ca.pem, now: () => now }), {
      now: () => now,
    });
    const plain = post();
    expect(auth.declinesAtOnce?.(plain, undefined)).toBe(true);
    expect(await auth.authenticate(plain, undefined)).toBeUndefined();
    const signed = await signRequest(post(), credential(alice), now);
    expect(auth.declinesAtOnce?.(signed, undefined)).toBe(false);
    expect(await auth.authenticate(signed, undefined)).toEqual({ username: 'alice', groups: ['dev'] });
    const tls = { peerCertificates: [alice.der], secure: true };
    expect(auth.declinesAtOnce?.(post(), tls)).toBe(false);
  });

  it('rejects a certificate presented without proof', async () => {
    const req = post();
    req.headers.set(proofHeaders.certificate, btoa(String.fromCharCode(...alice.der)));
    expect(await rejection(verifyProofOfPossession(req, { now: () => now }))).toBe(
      'client certificate presented without proof of possession',
    );
  });

  it('rejects a tampered body, method or path', async () => {
    const signed = await signRequest(post(), credential(alice), now);
    const tamperedBody = new Request(signed.url, {
      method: 'POST',
      headers: signed.headers,
      body: '{"kind":"Secret"}',
    });
    expect(await rejection(verifyProofOfPossession(tamperedBody, { now: () => now }))).toMatch(
      /signature does not verify/,
    );
    const otherPath = new Request('https://orch.test/api/v1/namespaces/kube-system/secrets', {
      method: 'POST',
      headers: signed.headers,
      body: '{"kind":"ConfigMap"}',
    });
    expect(await rejection(verifyProofOfPossession(otherPath, { now: () => now }))).toMatch(
      /signature does not verify/,
    );
  });

  it('rejects a signature made with another key', async () => {
    const signed = await signRequest(
      post(),
      { privateKey: (rsaAlice.keys as CryptoKeyPair).privateKey, chain: [alice.der] },
      now,
    );
    expect(await rejection(verifyProofOfPossession(signed, { now: () => now }))).toMatch(
      /signature does not verify/,
    );
  });

  it('rejects an old or future timestamp', async () => {
    const old = await signRequest(post(), credential(alice), new Date(now.getTime() - 6 * 60_000));
    expect(await rejection(verifyProofOfPossession(old, { now: () => now }))).toMatch(
      /outside the allowed window of 300s/,
    );
    const future = await signRequest(post(), credential(alice), new Date(now.getTime() + 6 * 60_000));
    expect(await rejection(verifyProofOfPossession(future, { now: () => now }))).toMatch(
      /outside the allowed window/,
    );
    const recent = await signRequest(post(), credential(alice), new Date(now.getTime() - 4 * 60_000));
    expect(await verifyProofOfPossession(recent, { now: () => now })).toHaveLength(1);
  });
});
