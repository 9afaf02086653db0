import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CertificateAuthority,
  createCertificateAuthority,
  type IssuedCertificate,
  issueClientCertificate,
} from '../pki/issue';
import type { RequestHeaderConfig } from './config';
import { AuthenticationRejected } from './rejection';
import { requestHeaderAuthenticator } from './request-header';

const now = new Date('2030-01-01T00:00:00Z');
let proxyCA: CertificateAuthority;
let clientCA: CertificateAuthority;
let proxy: IssuedCertificate;
let otherProxy: IssuedCertificate;
let user: IssuedCertificate;

beforeAll(async () => {
  const notBefore = new Date('2029-01-01T00:00:00Z');
  proxyCA = await createCertificateAuthority({ commonName: 'front-proxy-ca', notBefore });
  clientCA = await createCertificateAuthority({ commonName: 'orch-ca', notBefore });
  proxy = await issueClientCertificate(proxyCA, { user: 'front-proxy-client', notBefore });
  otherProxy = await issueClientCertificate(proxyCA, { user: 'sneaky-proxy', notBefore });
  user = await issueClientCertificate(clientCA, { user: 'front-proxy-client', notBefore });
});

const config = (): RequestHeaderConfig => ({
  usernameHeaders: ['X-Remote-User', 'X-Other-User'],
  groupHeaders: ['X-Remote-Group'],
  extraHeaderPrefixes: ['X-Remote-Extra-'],
  clientCA: proxyCA.pem,
  allowedNames: ['front-proxy-client'],
});

function proxied(): Request {
  const headers = new Headers();
  headers.set('x-remote-user', '');
  headers.set('X-Other-User', 'alice');
  headers.append('X-Remote-Group', 'dev');
  headers.append('X-Remote-Group', 'a,b');
  headers.set('X-Remote-Extra-Acme.com%2Fproject', 'orch');
  headers.append('x-remote-extra-scopes', 'read');
  headers.append('x-remote-extra-scopes', 'write');
  headers.set('Accept', 'application/json');
  return new Request('https://orch.test/api/v1/pods', { headers });
}

describe('request-header (front proxy) authenticator', () => {
  it('reads the identity headers after the proxy certificate verifies, then strips them', async () => {
    const auth = requestHeaderAuthenticator(config(), { now: () => now });
    const req = proxied();
    expect(await auth.authenticate(req, { peerCertificates: [proxy.der] })).toEqual({
      username: 'alice',
      groups: ['dev', 'a,b'],
      extra: { 'acme.com/project': ['orch'], scopes: ['read', 'write'] },
    });
    const left = [...req.headers.keys()];
    expect(left).toEqual(['accept']);
  });

  it('reads nothing without a proxy certificate', async () => {
    const auth = requestHeaderAuthenticator(config(), { now: () => now });
    const req = proxied();
    expect(await auth.authenticate(req, undefined)).toBeUndefined();
    expect(req.headers.get('X-Other-User')).toBe('alice');
  });

  const rejected: { name: string; cert: () => IssuedCertificate; reason: string }[] = [
    {
      name: 'signed by another CA',
      cert: () => user,
      reason: 'x509: certificate signed by unknown authority',
    },
    {
      name: 'with a name not allowed',
      cert: () => otherProxy,
      reason: 'x509: subject with cn=sneaky-proxy is not in the allowed list',
    },
  ];
  for (const r of rejected) {
    it(`rejects a proxy certificate ${r.name}`, async () => {
      const auth = requestHeaderAuthenticator(config(), { now: () => now });
      const err = await auth
        .authenticate(proxied(), { peerCertificates: [r.cert().der] })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AuthenticationRejected);
      expect((err as AuthenticationRejected).attempt).toEqual({
        authenticator: 'requestheader',
        result: 'rejected',
        reason: r.reason,
      });
    });
  }

  it('allows any verified name when allowedNames is empty; no username header is no opinion', async () => {
    const auth = requestHeaderAuthenticator({ ...config(), allowedNames: [] }, { now: () => now });
    expect((await auth.authenticate(proxied(), { peerCertificates: [otherProxy.der] }))?.username).toBe(
      'alice',
    );
    const bare = new Request('https://orch.test/api');
    expect(await auth.authenticate(bare, { peerCertificates: [proxy.der] })).toBeUndefined();
  });
});
