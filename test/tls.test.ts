/**
 * The Node host over TLS: it answers HTTPS with a certificate for
 * localhost and 127.0.0.1 that its CA (the one the kubeconfig carries)
 * vouches for; it asks every client for a certificate and hands the chain
 * the client presented to the core (DER, leaf first, ending at the
 * self-issued root), verifying nothing itself; a client certificate from
 * the kubeconfig authenticates as its CN and O groups, and one from a CA
 * the server does not trust is a 401, and a request without credentials
 * is anonymous (open endpoints only). The certificate request names the
 * CAs the server trusts for client certificates, as the real server's
 * handshake does (kubectl's test suite reads them with `openssl s_client`). Raw
 * targets (dot segments) and Node parser errors answered as Status bodies
 * are covered over TLS by test/reliability.test.ts.
 */

import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { existsSync } from 'node:fs';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionInfo } from '../src/api/connection';
import { startTestHost, type TestHost } from './support/host';
import { createTestCA, issueCertificate } from './support/pki';
import { v1LeafKeyPEM, v1LeafPEM, v1RootPEM } from './support/v1-ca';

/** The DER bytes of each certificate in a PEM bundle. */
function derOf(pem: string): Uint8Array[] {
  return [...pem.matchAll(/-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g)].map(
    (m) => new Uint8Array(Buffer.from((m[1] ?? '').replace(/\s/g, ''), 'base64')),
  );
}

/** `CN = name` as openssl prints a subject, from a PEM certificate. */
function opensslSubject(pem: string): string {
  return new X509Certificate(pem).subject.replace(/\n/g, ', ').replace(/=/g, ' = ');
}

const openssl = '/usr/bin/openssl';
const opensslSkip = existsSync(openssl) ? undefined : `${openssl} is missing: the handshake check is skipped`;
if (opensslSkip !== undefined) console.warn(`SKIP: ${opensslSkip}`);

/** The acceptable client CA names of the server's certificate request, as `openssl s_client` prints them. */
function acceptableClientCANames(port: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      openssl,
      ['s_client', '-connect', `127.0.0.1:${port}`],
      { timeout: 20_000 },
      (error, stdout) => {
        // s_client exits 0 once its input ends; its output is read either way.
        if (error !== null && stdout === '') return reject(error);
        const lines = stdout.split('\n');
        const start = lines.indexOf('Acceptable client certificate CA names');
        if (start < 0) return resolve([]);
        const names: string[] = [];
        for (const line of lines.slice(start + 1)) {
          if (!/^(?:[A-Za-z]+ = )/.test(line)) break;
          names.push(line.trim());
        }
        resolve(names);
      },
    );
    child.stdin?.end();
  });
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

describe('the certificate request names the client CAs', () => {
  const cases: {
    name: string;
    cas: () => Promise<{ file?: string; proxy?: string }>;
    expected: (cas: { file?: string; cluster: string; proxy?: string }) => (string | undefined)[];
  }[] = [
    {
      name: 'the cluster CA alone, by default',
      cas: () => Promise.resolve({}),
      expected: ({ cluster }) => [cluster],
    },
    {
      name: '--client-ca-file, the cluster CA, then --requestheader-client-ca-file',
      cas: async () => ({
        file: (await createTestCA('127.0.0.1')).certPEM,
        proxy: (await createTestCA('front-proxy-ca')).certPEM,
      }),
      expected: ({ file, cluster, proxy }) => [file, cluster, proxy],
    },
  ];
  for (const c of cases)
    it.skipIf(opensslSkip !== undefined)(c.name, async () => {
      const { file, proxy } = await c.cas();
      const host = await startTestHost({
        profile: 'kubernetes',
        authentication: {
          ...(file !== undefined ? { clientCA: file } : {}),
          ...(proxy !== undefined
            ? { requestHeader: { usernameHeaders: ['X-Remote-User'], clientCA: proxy } }
            : {}),
        },
      });
      try {
        const names = await acceptableClientCANames(host.port);
        const expected = c.expected({ file, cluster: host.caPEM ?? '', proxy });
        expect(names).toEqual(expected.map((pem) => opensslSubject(pem ?? '')));
        // The name kubectl's suite looks for (its apiserver's --client-ca-file is a CA named so).
        if (file !== undefined) expect(names[0]).toBe('CN = 127.0.0.1');
      } finally {
        await host.close();
      }
    });
});

describe('--client-ca-file naming a version 1 CA (no extensions, as kubectl’s suite uses)', () => {
  it('a certificate it issued authenticates as its CN and O groups', async () => {
    const host = await startTestHost({
      profile: 'kubernetes',
      runtimeConfig: 'authentication.k8s.io/v1beta1=true',
      authentication: { clientCA: v1RootPEM },
    });
    try {
      const res = await fetch(`${host.url}/apis/authentication.k8s.io/v1beta1/selfsubjectreviews`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1beta1', kind: 'SelfSubjectReview' }),
        dispatcher: dispatcher({ ca: host.caPEM, cert: v1LeafPEM, key: v1LeafKeyPEM }),
      });
      const review = (await res.json()) as { status: { userInfo: { username: string; groups: string[] } } };
      expect(res.status, JSON.stringify(review)).toBe(201);
      expect(review.status.userInfo).toMatchObject({
        username: 'v1-user',
        groups: ['dev', 'system:authenticated'],
      });
    } finally {
      await host.close();
    }
  });
});
