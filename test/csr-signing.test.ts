/**
 * Certificate signing requests through the Node host over HTTPS, as the
 * controller manager's certificate controllers handle them: an approved
 * request to a built-in signer gets its certificate (seen by a watch), a
 * request breaking its signer's rules gets `Failed`/`SignerValidationFailure`,
 * a CA bit is dropped, the lifetime is the smaller of the signing duration
 * and `expirationSeconds`, backdated 5 minutes; a custom signer's request
 * is approved and never signed; node client requests are auto-approved
 * after a SubjectAccessReview; the cleaner deletes requests on an injected
 * clock. openssl (Debian's) verifies an issued certificate against the
 * cluster CA; skipped with the reason printed when it is missing.
 */

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import 'reflect-metadata';
import { BasicConstraintsExtension, X509Certificate } from '@peculiar/x509';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRequestPEM, type RequestSpec } from './support/signer-requests';
import { startTestHost, type TestHost } from './support/host';
import { openWatch } from './support/watch';

const group = 'certificates.orch.io';
const base = `/apis/${group}/v1/certificatesigningrequests`;
const signers = {
  client: 'orch.io/apiserver-client',
  nodeClient: 'orch.io/apiserver-client-node-agent',
  serving: 'orch.io/node-agent-serving',
};
const clientUsages = ['digital signature', 'key encipherment', 'client auth'];
const hour = 3_600_000;

const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');
const unb64 = (text: string): string => Buffer.from(text, 'base64').toString('utf8');

interface CsrInput {
  name: string;
  subject: RequestSpec;
  signerName: string;
  usages: string[];
  expirationSeconds?: number;
}

async function createCsr(host: TestHost, input: CsrInput, headers: Record<string, string> = {}) {
  const res = await host.request('POST', base, {
    headers,
    body: {
      apiVersion: `${group}/v1`,
      kind: 'CertificateSigningRequest',
      metadata: { name: input.name },
      spec: {
        request: b64(await makeRequestPEM(input.subject)),
        signerName: input.signerName,
        usages: input.usages,
        ...(input.expirationSeconds !== undefined ? { expirationSeconds: input.expirationSeconds } : {}),
      },
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function setCondition(host: TestHost, name: string, type: 'Approved' | 'Denied') {
  const current = (await host.request('GET', `${base}/${name}`)).body;
  const res = await host.request('PUT', `${base}/${name}/approval`, {
    body: {
      ...current,
      status: { conditions: [{ type, status: 'True', reason: 'Test', message: `${type} by the test` }] },
    },
  });
  expect(res.status, res.text).toBe(200);
}

/** The parts of a request these checks read, as the server returns them. */
interface Csr {
  metadata: { name: string };
  status?: {
    certificate?: string;
    conditions?: { type: string; status?: string; reason?: string; message?: string }[];
  };
}

/**
 * Polls (the controllers act asynchronously) until `done` holds for the request (undefined once it is
 * gone); fails after a generous while.
 */
async function waitFor(
  host: TestHost,
  name: string,
  done: (csr: Csr | undefined) => boolean,
): Promise<Csr | undefined> {
  for (let i = 0; i < 200; i++) {
    const res = await host.request('GET', `${base}/${name}`);
    const csr = res.status === 404 ? undefined : (res.body as Csr);
    if (done(csr)) return csr;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`request ${name} never reached the expected state`);
}

const issued = (csr: Csr | undefined): boolean => (csr?.status?.certificate ?? '') !== '';
const hasCondition = (csr: Csr | undefined, type: string): boolean =>
  (csr?.status?.conditions ?? []).some((c) => c.type === type);
const failed = (csr: Csr | undefined): boolean => hasCondition(csr, 'Failed');
const approved = (csr: Csr | undefined): boolean => hasCondition(csr, 'Approved');

function certificateOf(csr: Csr | undefined): X509Certificate {
  return new X509Certificate(unb64(csr?.status?.certificate ?? ''));
}

describe('certificate signing controllers', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost();
  });
  afterAll(() => host.close());

  it('create → approve → issued, as a watch sees it', async () => {
    const list = await host.request('GET', base);
    const watch = await openWatch(
      host.url,
      `${base}?watch=1&resourceVersion=${list.body.metadata.resourceVersion}`,
    );
    try {
      await createCsr(host, {
        name: 'flow',
        subject: { cn: 'alice', orgs: ['dev'] },
        signerName: signers.client,
        usages: clientUsages,
      });
      await setCondition(host, 'flow', 'Approved');
      for (let n = 1; !watch.events.some((e) => e.object.metadata.name === 'flow' && issued(e.object)); n++)
        await watch.waitFor(n, 10_000);
      const types = watch.events.filter((e) => e.object.metadata.name === 'flow').map((e) => e.type);
      expect(types).toEqual(['ADDED', 'MODIFIED', 'MODIFIED']);
      const cert = certificateOf(watch.events.at(-1)?.object);
      expect(cert.subjectName.getField('CN')).toEqual(['alice']);
      expect(cert.subjectName.getField('O')).toEqual(['dev']);
    } finally {
      watch.abort();
    }
  });

  it.each([
    {
      name: 'client-without-client-auth',
      subject: { cn: 'bob' },
      signerName: signers.client,
      usages: ['digital signature'],
      message: 'missing required usage for client certificate: client auth',
    },
    {
      name: 'serving-without-names',
      subject: { cn: 'system:node:n1', orgs: ['system:nodes'] },
      signerName: signers.serving,
      usages: ['digital signature', 'key encipherment', 'server auth'],
      message: 'DNS or IP subjectAltName is required',
    },
    {
      name: 'serving-with-email',
      subject: { cn: 'system:node:n1', orgs: ['system:nodes'], dns: ['n1'], emails: ['n1@example.com'] },
      signerName: signers.serving,
      usages: ['digital signature', 'key encipherment', 'server auth'],
      message: 'Email subjectAltNames are not allowed',
    },
    {
      name: 'node-client-with-dns',
      subject: { cn: 'system:node:n1', orgs: ['system:nodes'], dns: ['n1'] },
      signerName: signers.nodeClient,
      usages: clientUsages,
      message: 'DNS subjectAltNames are not allowed',
    },
  ])('$name: Failed with SignerValidationFailure, no certificate', async (row) => {
    await createCsr(host, row);
    await setCondition(host, row.name, 'Approved');
    const csr = await waitFor(host, row.name, failed);
    expect(csr?.status?.certificate).toBeUndefined();
    expect(csr?.status?.conditions?.find((c) => c.type === 'Failed')).toMatchObject({
      type: 'Failed',
      status: 'True',
      reason: 'SignerValidationFailure',
      message: row.message,
    });
  });

  it('issues a CA-bit request without the CA bit', async () => {
    await createCsr(host, {
      name: 'ca-bit',
      subject: { cn: 'carol', ca: true },
      signerName: signers.client,
      usages: ['client auth'],
    });
    await setCondition(host, 'ca-bit', 'Approved');
    const cert = certificateOf(await waitFor(host, 'ca-bit', issued));
    expect(cert.getExtension(BasicConstraintsExtension)?.ca).toBe(false);
  });

  // The registry, the admission plugin and the signer must all read the block Go's PEM reader finds first.
  const goPemCases = [
    {
      name: 'after-a-malformed-block',
      pem: async () => `-----BEGIN X-----\n@@@@\n-----END X-----\n${await makeRequestPEM({ cn: 'frank' })}`,
      cn: 'frank',
    },
    {
      name: 'after-a-request-with-text-after-its-end-line',
      pem: async () =>
        `${(await makeRequestPEM({ cn: 'ignored' })).trimEnd()} trailing\n${await makeRequestPEM({ cn: 'grace' })}`,
      cn: 'grace',
    },
  ];
  it.each(goPemCases)('$name: approved and issued for the block Go reads', async (row) => {
    const res = await host.request('POST', base, {
      body: {
        apiVersion: `${group}/v1`,
        kind: 'CertificateSigningRequest',
        metadata: { name: row.name },
        spec: { request: b64(await row.pem()), signerName: signers.client, usages: clientUsages },
      },
    });
    expect(res.status, res.text).toBe(201);
    await setCondition(host, row.name, 'Approved');
    const cert = certificateOf(await waitFor(host, row.name, issued));
    expect(cert.subjectName.getField('CN')).toEqual([row.cn]);
  });

  it('refuses system:masters in the block Go reads, behind a block only a lenient reader takes', async () => {
    const pem = `${(await makeRequestPEM({ cn: 'mallory' })).trimEnd()} trailing\n${await makeRequestPEM({ cn: 'mallory', orgs: ['system:masters'] })}`;
    const res = await host.request('POST', base, {
      body: {
        apiVersion: `${group}/v1`,
        kind: 'CertificateSigningRequest',
        metadata: { name: 'masters-behind' },
        spec: { request: b64(pem), signerName: signers.client, usages: clientUsages },
      },
    });
    expect(res.status, res.text).toBe(403);
    expect(res.body.message).toContain(
      `use of ${signers.client} signer with system:masters group is not allowed`,
    );
  });

  it.each([
    { name: 'lifetime-hour', expirationSeconds: 3600, seconds: 3900 },
    { name: 'lifetime-default', expirationSeconds: undefined, seconds: 8760 * 3600 },
  ])('$name: min(duration, expirationSeconds), started 5 minutes early', async (row) => {
    await createCsr(host, {
      name: row.name,
      subject: { cn: 'dave' },
      signerName: signers.client,
      usages: ['client auth'],
      ...(row.expirationSeconds !== undefined ? { expirationSeconds: row.expirationSeconds } : {}),
    });
    const before = Math.floor(Date.now() / 1000) * 1000;
    await setCondition(host, row.name, 'Approved');
    const csr = await waitFor(host, row.name, issued);
    const after = Date.now();
    const cert = certificateOf(csr);
    expect((cert.notAfter.getTime() - cert.notBefore.getTime()) / 1000).toBe(row.seconds);
    expect(cert.notBefore.getTime()).toBeGreaterThanOrEqual(before - 5 * 60_000);
    expect(cert.notBefore.getTime()).toBeLessThanOrEqual(after - 5 * 60_000);
  });

  it('approves a custom signer’s request and never signs it', async () => {
    await createCsr(host, {
      name: 'custom',
      subject: { cn: 'erin' },
      signerName: 'example.com/custom',
      usages: ['client auth'],
    });
    await setCondition(host, 'custom', 'Approved');
    // A built-in request approved after it is issued only once the controllers have seen the custom one.
    await createCsr(host, {
      name: 'after-custom',
      subject: { cn: 'erin' },
      signerName: signers.client,
      usages: ['client auth'],
    });
    await setCondition(host, 'after-custom', 'Approved');
    await waitFor(host, 'after-custom', issued);
    await host.api.controllersIdle();
    const csr = (await host.request('GET', `${base}/custom`)).body;
    expect(csr.status.certificate).toBeUndefined();
    expect(csr.status.conditions.map((c: { type: string }) => c.type)).toEqual(['Approved']);
  });

  describe('auto-approval of node client requests', () => {
    const bootstrapper = {
      'Impersonate-User': 'system:bootstrap:abc123',
      'Impersonate-Group': 'system:bootstrappers',
    };
    const node = { 'Impersonate-User': 'system:node:n1', 'Impersonate-Group': 'system:nodes' };
    const nodeSubject = { cn: 'system:node:n1', orgs: ['system:nodes'] };
    const bind = async (name: string, role: string, subjectGroup: string) => {
      const res = await host.request('POST', '/apis/rbac.authorization.orch.io/v1/clusterrolebindings', {
        body: {
          apiVersion: 'rbac.authorization.orch.io/v1',
          kind: 'ClusterRoleBinding',
          metadata: { name },
          roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: role },
          subjects: [{ apiGroup: 'rbac.authorization.orch.io', kind: 'Group', name: subjectGroup }],
        },
      });
      expect(res.status, res.text).toBe(201);
    };

    // As kubeadm sets a cluster up: bootstrap tokens may submit requests (kubeadm:kubelet-bootstrap).
    beforeAll(() => bind('kubelet-bootstrap', 'system:node-bootstrapper', 'system:bootstrappers'));

    /**
     * Proves the approver got past the requests made before: the administrator (who may create
     * `nodeclient`) asks for a node certificate, and the approver, whose watch delivers requests
     * in order, approves it only after it has taken up the earlier ones; then waits for its queue.
     */
    const approverBarrier = async (name: string) => {
      await createCsr(host, {
        name,
        subject: nodeSubject,
        signerName: signers.nodeClient,
        usages: clientUsages,
      });
      await waitFor(host, name, approved);
      await host.api.controllersIdle();
    };

    it('leaves a bootstrapper’s request pending without the nodeclient permission', async () => {
      await createCsr(
        host,
        { name: 'node-unbound', subject: nodeSubject, signerName: signers.nodeClient, usages: clientUsages },
        bootstrapper,
      );
      await approverBarrier('node-unbound-barrier');
      const csr = (await host.request('GET', `${base}/node-unbound`)).body;
      expect(csr.status?.conditions ?? []).toEqual([]);
    });

    it.each([
      {
        name: 'node-bootstrap',
        role: 'system:certificates.orch.io:certificatesigningrequests:nodeclient',
        group: 'system:bootstrappers',
        as: bootstrapper,
        message: 'Auto approving kubelet client certificate after SubjectAccessReview.',
      },
      {
        name: 'node-self',
        role: 'system:certificates.orch.io:certificatesigningrequests:selfnodeclient',
        group: 'system:nodes',
        as: node,
        message: 'Auto approving self kubelet client certificate after SubjectAccessReview.',
      },
    ])('$name: approved after a SubjectAccessReview, then issued', async (row) => {
      await bind(`auto-${row.name}`, row.role, row.group);
      await createCsr(
        host,
        { name: row.name, subject: nodeSubject, signerName: signers.nodeClient, usages: clientUsages },
        row.as,
      );
      const csr = await waitFor(host, row.name, issued);
      expect(csr?.status?.conditions?.[0]).toMatchObject({
        type: 'Approved',
        status: 'True',
        reason: 'AutoApproved',
        message: row.message,
      });
      expect(certificateOf(csr).subjectName.getField('CN')).toEqual(['system:node:n1']);
    });

    it('never auto-approves a request to another signer', async () => {
      await createCsr(
        host,
        { name: 'node-other-signer', subject: nodeSubject, signerName: signers.client, usages: clientUsages },
        bootstrapper,
      );
      await approverBarrier('node-other-signer-barrier');
      expect((await host.request('GET', `${base}/node-other-signer`)).body.status?.conditions ?? []).toEqual(
        [],
      );
    });
  });

  const openssl = '/usr/bin/openssl';
  const opensslSkip = existsSync(openssl) ? undefined : `${openssl} is missing: the openssl check is skipped`;
  if (opensslSkip !== undefined) console.warn(`SKIP: ${opensslSkip}`);
  it.skipIf(opensslSkip !== undefined)(
    'openssl verifies an issued certificate against the cluster CA',
    async () => {
      await createCsr(host, {
        name: 'openssl',
        subject: { cn: 'frank', orgs: ['dev'] },
        signerName: signers.client,
        usages: clientUsages,
      });
      await setCondition(host, 'openssl', 'Approved');
      const csr = await waitFor(host, 'openssl', issued);
      const dir = mkdtempSync(join(tmpdir(), 'csr-openssl-'));
      writeFileSync(join(dir, 'ca.pem'), host.caPEM ?? '');
      writeFileSync(join(dir, 'cert.pem'), unb64(csr?.status?.certificate ?? ''));
      const verify = execFileSync(
        openssl,
        ['verify', '-CAfile', join(dir, 'ca.pem'), '-purpose', 'sslclient', join(dir, 'cert.pem')],
        {
          encoding: 'utf8',
        },
      );
      expect(verify.trim()).toBe(`${join(dir, 'cert.pem')}: OK`);
      const text = execFileSync(openssl, ['x509', '-noout', '-text', '-in', join(dir, 'cert.pem')], {
        encoding: 'utf8',
      });
      expect(text).toContain('CA:FALSE');
      expect(text).toContain('TLS Web Client Authentication');
    },
  );
});

describe('signing flags', () => {
  it('--cluster-signing-duration caps a longer expirationSeconds (2h: short, so not backdated at the end)', async () => {
    const host = await startTestHost({ clusterSigning: { durationMs: 2 * hour } });
    try {
      await createCsr(host, {
        name: 'capped',
        subject: { cn: 'gina' },
        signerName: signers.client,
        usages: ['client auth'],
        expirationSeconds: 86_400,
      });
      await setCondition(host, 'capped', 'Approved');
      const cert = certificateOf(await waitFor(host, 'capped', issued));
      expect((cert.notAfter.getTime() - cert.notBefore.getTime()) / 1000).toBe(2 * 3600 + 300);
    } finally {
      await host.close();
    }
  });

  it('per-signer files: that signer signs with its own CA, the others are not run', async () => {
    const { createTestCA } = await import('./support/pki');
    const servingCA = await createTestCA('serving-ca');
    const host = await startTestHost({
      clusterSigning: {
        signers: {
          kubeletServing: {
            certPEM: servingCA.certPEM,
            keyPEM: servingCA.keyPEM,
            certFile: '/s.crt',
            keyFile: '/s.key',
          },
        },
      },
    });
    try {
      await createCsr(host, {
        name: 'own-ca',
        subject: { cn: 'system:node:n1', orgs: ['system:nodes'], ips: ['10.0.0.1'] },
        signerName: signers.serving,
        usages: ['digital signature', 'server auth'],
      });
      await setCondition(host, 'own-ca', 'Approved');
      await createCsr(host, {
        name: 'not-run',
        subject: { cn: 'ivy' },
        signerName: signers.client,
        usages: ['client auth'],
      });
      await setCondition(host, 'not-run', 'Approved');
      const cert = certificateOf(await waitFor(host, 'own-ca', issued));
      expect(cert.issuer).toBe(servingCA.cert.subject);
      await host.api.controllersIdle();
      expect((await host.request('GET', `${base}/not-run`)).body.status.certificate).toBeUndefined();
    } finally {
      await host.close();
    }
  });

  it('signs with a version 1 CA and its key in SEC1 form (EC PRIVATE KEY), as Go’s keyutil reads it', async () => {
    const { v1RootKeyPEM, v1RootPEM } = await import('./support/v1-ca');
    const host = await startTestHost({
      clusterSigning: {
        default: { certPEM: v1RootPEM, keyPEM: v1RootKeyPEM, certFile: '/ca.crt', keyFile: '/ca.key' },
      },
    });
    try {
      await createCsr(host, {
        name: 'v1-ca',
        subject: { cn: 'jay' },
        signerName: signers.client,
        usages: clientUsages,
      });
      await setCondition(host, 'v1-ca', 'Approved');
      const cert = certificateOf(await waitFor(host, 'v1-ca', issued));
      expect(cert.issuer).toBe('CN=v1-root');
      expect(cert.subject).toBe('CN=jay');
    } finally {
      await host.close();
    }
  });

  it('refuses to start with a key that is not the certificate’s', async () => {
    const { createTestCA } = await import('./support/pki');
    const a = await createTestCA('a');
    const b = await createTestCA('b');
    await expect(
      startTestHost({
        clusterSigning: {
          default: { certPEM: a.certPEM, keyPEM: b.keyPEM, certFile: '/a.crt', keyFile: '/b.key' },
        },
      }),
    ).rejects.toThrow(
      'failed to start orch.io/node-agent-serving certificate controller: error reading CA cert file "/a.crt": tls: private key does not match public key',
    );
  });
});

describe('the cleaner, on an injected clock', () => {
  let host: TestHost;
  let clock = Date.now();
  beforeAll(async () => {
    host = await startTestHost({ now: () => new Date(clock) });
  });
  afterAll(() => host.close());

  const gone = async (name: string) => waitFor(host, name, (csr) => csr === undefined);
  const present = async (name: string) => (await host.request('GET', `${base}/${name}`)).status === 200;

  it('deletes issued requests when the certificate expires, others on their own deadlines', async () => {
    const subject = { cn: 'hal' };
    await createCsr(host, {
      name: 'gc-pending',
      subject,
      signerName: signers.client,
      usages: ['client auth'],
    });
    await createCsr(host, {
      name: 'gc-denied',
      subject,
      signerName: signers.client,
      usages: ['client auth'],
    });
    await setCondition(host, 'gc-denied', 'Denied');
    await createCsr(host, {
      name: 'gc-failed',
      subject,
      signerName: signers.client,
      usages: ['server auth'],
    });
    await setCondition(host, 'gc-failed', 'Approved');
    await waitFor(host, 'gc-failed', failed);
    await createCsr(host, {
      name: 'gc-custom',
      subject,
      signerName: 'example.com/custom',
      usages: ['client auth'],
    });
    await setCondition(host, 'gc-custom', 'Approved');
    // Issued for ten minutes: it expires before any condition's hour runs out.
    await createCsr(host, {
      name: 'gc-issued',
      subject,
      signerName: signers.client,
      usages: ['client auth'],
      expirationSeconds: 600,
    });
    await setCondition(host, 'gc-issued', 'Approved');
    await waitFor(host, 'gc-issued', issued);

    const table: { advanceMs: number; deleted: string[]; kept: string[] }[] = [
      {
        advanceMs: 5 * 60_000,
        deleted: [],
        kept: ['gc-issued', 'gc-denied', 'gc-failed', 'gc-custom', 'gc-pending'],
      },
      {
        advanceMs: 6 * 60_000,
        deleted: ['gc-issued'],
        kept: ['gc-denied', 'gc-failed', 'gc-custom', 'gc-pending'],
      },
      { advanceMs: 50 * 60_000, deleted: ['gc-denied', 'gc-failed', 'gc-custom'], kept: ['gc-pending'] },
      { advanceMs: 23 * hour, deleted: ['gc-pending'], kept: [] },
    ];
    for (const step of table) {
      clock += step.advanceMs;
      for (const name of step.deleted) await gone(name);
      await host.api.controllersIdle();
      for (const name of step.kept)
        expect(await present(name), `${name} after +${step.advanceMs} ms`).toBe(true);
    }
  });
});
