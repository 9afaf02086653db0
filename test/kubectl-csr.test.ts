/**
 * The certificate request flow with kubectl against the Node host
 * (kubernetes profile, so kubectl's own names apply): submit with `apply`,
 * `get csr` and its columns, `certificate approve` and `certificate deny`,
 * then the issued certificate used in a kubeconfig of its own that
 * authenticates as the request's CN over HTTPS (`auth whoami`, served with
 * `authentication.k8s.io/v1beta1` on). Skipped, with the reason printed,
 * without kubectl.
 */

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRequest } from './support/signer-requests';
import { startTestHost, type TestHost } from './support/host';
import { kubectl, kubectlSkipReason } from './support/kubectl';

const skip = kubectlSkipReason();
const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

function csrManifest(name: string, request: string, signerName: string, expirationSeconds?: number): string {
  return stringify({
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name },
    spec: {
      request: b64(request),
      signerName,
      usages: ['digital signature', 'key encipherment', 'client auth'],
      ...(expirationSeconds !== undefined ? { expirationSeconds } : {}),
    },
  });
}

describe.skipIf(skip !== undefined)('kubectl and certificate signing requests (profile kubernetes)', () => {
  let host: TestHost;
  const k = (args: string[], input?: string) => kubectl(host.kubeconfigPath, args, input);
  let key = '';

  beforeAll(async () => {
    host = await startTestHost({
      profile: 'kubernetes',
      runtimeConfig: 'authentication.k8s.io/v1beta1=true',
    });
    const jane = await makeRequest({ cn: 'jane', orgs: ['dev', 'ops'] });
    key = jane.keyPEM;
    const other = await makeRequest({ cn: 'mallory' });
    for (const [name, pem, expiration] of [
      ['jane', jane.pem, 7200],
      ['mallory', other.pem, undefined],
    ] as const) {
      const r = await k(
        ['apply', '-f', '-'],
        csrManifest(name, pem, 'kubernetes.io/kube-apiserver-client', expiration),
      );
      expect(r.code, r.stderr).toBe(0);
    }
  });
  afterAll(() => host.close());

  it('get csr shows the real columns, pending', async () => {
    const r = await k(['get', 'csr']);
    expect(r.code, r.stderr).toBe(0);
    const [header, ...rows] = r.stdout.trim().split('\n');
    expect(header?.split(/\s+/)).toEqual([
      'NAME',
      'AGE',
      'SIGNERNAME',
      'REQUESTOR',
      'REQUESTEDDURATION',
      'CONDITION',
    ]);
    const jane = rows.find((l) => l.startsWith('jane '))?.split(/\s+/);
    expect(jane?.[2]).toBe('kubernetes.io/kube-apiserver-client');
    // kubectl's HumanDuration: minutes up to three hours.
    expect(jane?.[4]).toBe('120m');
    expect(jane?.[5]).toBe('Pending');
    expect(rows.find((l) => l.startsWith('mallory '))?.split(/\s+/)[4]).toBe('<none>');
  });

  it('certificate approve and deny', async () => {
    const approve = await k(['certificate', 'approve', 'jane']);
    expect(approve.stdout.trim()).toBe('certificatesigningrequest.certificates.k8s.io/jane approved');
    const deny = await k(['certificate', 'deny', 'mallory']);
    expect(deny.stdout.trim()).toBe('certificatesigningrequest.certificates.k8s.io/mallory denied');
    // The signing controller acts asynchronously: poll until the certificate is there.
    for (let i = 0; i < 100; i++) {
      const got = await k(['get', 'csr', 'jane', '-o', 'jsonpath={.status.certificate}']);
      if (got.stdout !== '') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const table = await k(['get', 'csr']);
    const condition = (name: string) =>
      table.stdout
        .split('\n')
        .find((l) => l.startsWith(`${name} `))
        ?.split(/\s+/)
        .at(-1);
    expect(condition('jane')).toBe('Approved,Issued');
    expect(condition('mallory')).toBe('Denied');
  });

  it('the issued certificate authenticates as its CN over HTTPS (auth whoami)', async () => {
    const r = await k(['get', 'csr', 'jane', '-o', 'jsonpath={.status.certificate}']);
    expect(r.code, r.stderr).toBe(0);
    const dir = mkdtempSync(join(tmpdir(), 'csr-kubeconfig-'));
    const path = join(dir, 'kubeconfig');
    writeFileSync(
      path,
      stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [
          {
            name: 'sandbox',
            cluster: { server: host.url, 'certificate-authority-data': b64(host.caPEM ?? '') },
          },
        ],
        users: [{ name: 'jane', user: { 'client-certificate-data': r.stdout, 'client-key-data': b64(key) } }],
        contexts: [{ name: 'jane', context: { cluster: 'sandbox', user: 'jane' } }],
        'current-context': 'jane',
      }),
    );
    const who = await kubectl(path, ['auth', 'whoami', '-o', 'json']);
    expect(who.code, who.stderr).toBe(0);
    const info = (JSON.parse(who.stdout) as { status: { userInfo: { username: string; groups: string[] } } })
      .status.userInfo;
    expect(info.username).toBe('jane');
    expect(info.groups).toEqual(['dev', 'ops', 'system:authenticated']);
  });
});
