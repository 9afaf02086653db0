/**
 * The Node host over TLS: it answers HTTPS with a certificate for
 * localhost and 127.0.0.1 that its CA (the one the kubeconfig carries)
 * vouches for; it asks every client for a certificate and hands the chain
 * the client presented to the core (DER, leaf first, ending at the
 * self-issued root), verifying nothing itself; a client certificate from
 * the kubeconfig authenticates as its CN and O groups, and one from a CA
 * the server does not trust is a 401, and a request without credentials
 * is anonymous (open endpoints only). Raw
 * targets (dot segments) and Node parser errors answered as Status bodies
 * are covered over TLS by test/reliability.test.ts.
 */

import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionInfo } from '../src/api/connection';
import { startTestHost, type TestHost } from './support/host';
import { createTestCA, issueCertificate } from './support/pki';

/** The DER bytes of each certificate in a PEM bundle. */
function derOf(pem: string): Uint8Array[] {
  return [...pem.matchAll(/-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g)].map(
    (m) => new Uint8Array(Buffer.from((m[1] ?? '').replace(/\s/g, ''), 'base64')),
  );
}

function dispatcher(connect: { ca?: string; cert?: string; key?: string }): RequestInit['dispatcher'] {
  // Node's fetch takes an undici dispatcher; its typings name undici-types' class, the same shape.
  return new Agent({ connect }) as unknown as RequestInit['dispatcher'];
}

describe('TLS serving (profile kubernetes)', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost({
      profile: 'kubernetes',
      runtimeConfig: 'authentication.k8s.io/v1beta1=true',
    });
  });
  afterAll(() => host.close());

  it('answers HTTPS for 127.0.0.1 and localhost, trusted through the CA it hands out', async () => {
    expect(host.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const ca = host.caPEM ?? '';
    expect(ca).toContain('-----BEGIN CERTIFICATE-----');
    for (const base of [host.url, `https://localhost:${host.port}`]) {
      const res = await fetch(`${base}/version`, { dispatcher: dispatcher({ ca }) });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { gitVersion: string }).gitVersion).toMatch(/^v1\.27\./);
    }
    // Without the CA the certificate is not trusted.
    await expect(fetch(`${host.url}/version`)).rejects.toThrow();
  });

  it('hands the presented client chain to the core, DER, leaf first, ending at the self-issued root', async () => {
    const root = await createTestCA('chain-root');
    const leaf = await issueCertificate(root, { cn: 'chain-user', orgs: ['chain-group'] });
    const seen: (ConnectionInfo | undefined)[] = [];
    const original = host.api.fetch.bind(host.api);
    host.api.fetch = (request, conn) => {
      seen.push(conn);
      return original(request, conn);
    };
    try {
      await fetch(`${host.url}/version`, {
        dispatcher: dispatcher({ ca: host.caPEM, cert: leaf.certPEM + root.certPEM, key: leaf.keyPEM }),
      });
      await fetch(`${host.url}/version`, { dispatcher: dispatcher({ ca: host.caPEM }) });
    } finally {
      host.api.fetch = original;
    }
    const [withCert, without] = seen;
    expect(withCert?.secure).toBe(true);
    expect(withCert?.remote?.address).toMatch(/127\.0\.0\.1/);
    expect(withCert?.peerCertificates).toEqual([...derOf(leaf.certPEM), ...derOf(root.certPEM)]);
    expect(without?.secure).toBe(true);
    expect(without?.peerCertificates).toBeUndefined();
  });

  it('a client certificate from the kubeconfig authenticates as its CN and O groups', async () => {
    const identity = host.identities.find((i) => i.name === 'admin-cert');
    expect(identity?.clientCertificatePEM).toContain('-----BEGIN CERTIFICATE-----');
    const review = await host.request('POST', '/apis/authentication.k8s.io/v1beta1/selfsubjectreviews', {
      as: 'admin-cert',
      body: { apiVersion: 'authentication.k8s.io/v1beta1', kind: 'SelfSubjectReview' },
    });
    expect(review.status, review.text).toBe(201);
    expect(review.body.status.userInfo.username).toBe(identity?.username);
    expect(review.body.status.userInfo.groups).toEqual(
      expect.arrayContaining(['system:masters', 'system:authenticated']),
    );
    const list = await host.request('GET', '/api/v1/namespaces', { as: 'admin-cert' });
    expect(list.status).toBe(200);
  });

  it('a client certificate from a CA the server does not trust is 401 Unauthorized', async () => {
    const stranger = await createTestCA('stranger-ca');
    const cert = await issueCertificate(stranger, { cn: 'mallory', orgs: ['system:masters'] });
    const res = await fetch(`${host.url}/api/v1/namespaces`, {
      dispatcher: dispatcher({ ca: host.caPEM, cert: cert.certPEM, key: cert.keyPEM }),
    });
    const body = (await res.json()) as { kind: string; reason: string; code: number };
    expect(res.status).toBe(401);
    expect(body).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
  });

  it('anonymous requests reach the open endpoints but not the API', async () => {
    for (const path of ['/version', '/healthz', '/livez', '/readyz'])
      expect((await host.request('GET', path, { as: 'anonymous' })).status, path).toBe(200);
    const list = await host.request('GET', '/api/v1/namespaces', { as: 'anonymous' });
    expect(list.status).toBe(403);
    expect(list.body.message).toContain('User "system:anonymous" cannot list resource "namespaces"');
  });
});
