/**
 * The page-side signer (src/client/proof-of-possession.ts) and the
 * server-side verifier (src/auth/authn/proof-of-possession.ts) must agree
 * on header names and the signed message; neither layer may import the
 * other, so this scenario signs with one and verifies with the other, for
 * a learner's client certificate (x509) and for the authenticating proxy's.
 */

import { beforeAll, describe, expect, it } from 'vitest';
import { proofHeaders, withProofOfPossession } from '../src/auth/authn/proof-of-possession';
import { requestHeaderAuthenticator } from '../src/auth/authn/request-header';
import { x509Authenticator } from '../src/auth/authn/x509';
import {
  type CertificateAuthority,
  createCertificateAuthority,
  type IssuedCertificate,
  issueClientCertificate,
} from '../src/auth/pki';
import { clientProofHeaders, signRequest, signingFetch } from '../src/client/proof-of-possession';

let ca: CertificateAuthority;
let alice: IssuedCertificate;
let proxyCA: CertificateAuthority;
let proxy: IssuedCertificate;

beforeAll(async () => {
  ca = await createCertificateAuthority({ commonName: 'orch-ca' });
  alice = await issueClientCertificate(ca, { user: 'alice', groups: ['dev'] });
  proxyCA = await createCertificateAuthority({ commonName: 'front-proxy-ca', keyAlgorithm: 'RSA-2048' });
  proxy = await issueClientCertificate(proxyCA, { user: 'front-proxy-client' });
});

const keyOf = (cert: IssuedCertificate): CryptoKey => (cert.keys as CryptoKeyPair).privateKey;

describe('proof of possession between page and worker', () => {
  it('uses the same header names on both sides', () => {
    expect(clientProofHeaders).toEqual(proofHeaders);
  });

  it('authenticates a page holding a client certificate', async () => {
    const auth = withProofOfPossession(x509Authenticator({ clientCA: ca.pem }));
    const request = new Request('http://localhost:5173/api/v1/namespaces/default/configmaps', {
      method: 'POST',
      body: '{"kind":"ConfigMap"}',
    });
    const signed = await signRequest(request, { privateKey: keyOf(alice), chain: [alice.der] });
    expect(await auth.authenticate(signed, undefined)).toEqual({ username: 'alice', groups: ['dev'] });
    expect(await signed.text()).toBe('{"kind":"ConfigMap"}');
  });

  it('authenticates the front proxy through its proven certificate', async () => {
    const auth = withProofOfPossession(
      requestHeaderAuthenticator({ usernameHeaders: ['X-Remote-User'], clientCA: proxyCA.pem }),
    );
    let seen: Request | undefined;
    const send = signingFetch({ privateKey: keyOf(proxy), chain: [proxy.der] }, async (input) => {
      seen = input as Request;
      return new Response(null, { status: 204 });
    });
    await send('http://localhost:5173/api/v1/pods', { headers: { 'X-Remote-User': 'bob' } });
    expect(seen).toBeDefined();
    expect(await auth.authenticate(seen as Request, undefined)).toEqual({ username: 'bob', groups: [] });
  });
});
