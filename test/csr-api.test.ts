/**
 * CertificateSigningRequests over HTTP, as the API server itself treats
 * them (the signers are another suite's): the real validation of every bad
 * input of issue 13 — 422 with the real field path and message (400 for
 * base64 the decoder cannot read), never a 5xx, never stored —, the
 * requester recorded over what the client claimed, the request immutable
 * once created, approval and denial through `approval` with the real rules
 * on conditions, certificate writes through `status`, and who may do each
 * (CertificateApproval, CertificateSigning, CertificateSubjectRestriction),
 * and the Table `kubectl get csr` prints. (kubectl itself drives the same
 * flow in test/kubectl-csr.test.ts.)
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from './support/host';
import { base64, createTestCSR, type TestCSR } from './support/csr';
import { createTestCA, issueCertificate } from './support/pki';
import { namingProfile } from '../src/machinery/naming';

const group = 'certificates.orch.io';
const csrs = `/apis/${group}/v1/certificatesigningrequests`;
const rbac = '/apis/rbac.authorization.orch.io/v1';
const signer = 'example.com/signer';
const kind = `CertificateSigningRequest.${group}`;

type Json = Record<string, unknown>;
type Condition = { type: string; status: string; reason?: string; message?: string; [k: string]: unknown };

const rfc3339 = (d = new Date()): string => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

function csrBody(name: string, spec: Json): Json {
  return { apiVersion: `${group}/v1`, kind: 'CertificateSigningRequest', metadata: { name }, spec };
}

/** How `kubectl certificate approve|deny` shapes its condition: only `lastUpdateTime` is sent. */
function kubectlCondition(type: 'Approved' | 'Denied'): Condition {
  const verb = type === 'Approved' ? 'approve' : 'deny';
  return {
    type,
    status: 'True',
    reason: type === 'Approved' ? 'KubectlApprove' : 'KubectlDeny',
    message: `This CSR was ${type === 'Approved' ? 'approved' : 'denied'} by kubectl certificate ${verb}.`,
    lastUpdateTime: rfc3339(),
  };
}

describe('CertificateSigningRequest API (profile orch)', () => {
  let host: TestHost;
  let bob: TestCSR;
  let masters: TestCSR;
  let certificatePEM: string;
  let serial = 0;
  const admin = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    host.request(method, path, { ...(body !== undefined ? { body } : {}), headers });
  const fresh = (prefix: string): string => `${prefix}-${++serial}`;

  /** A pending request for the custom signer, created by the administrator. */
  async function pending(prefix: string, spec: Json = {}): Promise<Json> {
    const name = fresh(prefix);
    const r = await admin(
      'POST',
      csrs,
      csrBody(name, { request: bob.request, signerName: signer, usages: ['client auth'], ...spec }),
    );
    expect(r.status, r.text).toBe(201);
    return r.body as Json;
  }

  /** PUT the object with `conditions` appended to `approval`, as kubectl does. */
  async function decide(name: string, conditions: Condition[], as: Record<string, string> = {}) {
    const current = (await admin('GET', `${csrs}/${name}`)).body as Json & {
      status?: { conditions?: Condition[] };
    };
    const body = {
      ...current,
      status: { ...current.status, conditions: [...(current.status?.conditions ?? []), ...conditions] },
    };
    return host.request('PUT', `${csrs}/${name}/approval`, { body, headers: as });
  }

  async function clusterRole(name: string, rules: Json[], user: string): Promise<void> {
    const role = await admin('POST', `${rbac}/clusterroles`, { metadata: { name }, rules });
    expect(role.status, role.text).toBe(201);
    const binding = await admin('POST', `${rbac}/clusterrolebindings`, {
      metadata: { name },
      roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name },
      subjects: [{ apiGroup: 'rbac.authorization.orch.io', kind: 'User', name: user }],
    });
    expect(binding.status, binding.text).toBe(201);
  }

  beforeAll(async () => {
    host = await startTestHost();
    bob = await createTestCSR({ cn: 'bob', orgs: ['dev'] });
    masters = await createTestCSR({ cn: 'root', orgs: ['system:masters'] });
    const ca = await createTestCA();
    certificatePEM = (await issueCertificate(ca, { cn: 'bob', orgs: ['dev'] })).certPEM;
  });
  afterAll(() => host.close());

  describe('bad input on create: the real status and message, nothing stored', () => {
    interface Case {
      name: string;
      spec: () => Json;
      status: 400 | 422;
      /** The whole message, or its end (after the `[]byte{…}` value) for long values. */
      message?: (name: string) => string;
      endsWith?: string;
      check?: (text: string) => void;
    }
    const invalid = (name: string, cause: string): string => `${kind} "${name}" is invalid: ${cause}`;
    const usagesList =
      '"any", "cert sign", "client auth", "code signing", "content commitment", "crl sign", "data encipherment", "decipher only", "digital signature", "email protection", "encipher only", "ipsec end system", "ipsec tunnel", "ipsec user", "key agreement", "key encipherment", "microsoft sgc", "netscape sgc", "ocsp signing", "s/mime", "server auth", "signing", "timestamping"';
    const ok = (): Json => ({ request: bob.request, signerName: signer, usages: ['client auth'] });
    const cases: Case[] = [
      {
        name: 'spec.request not base64',
        spec: () => ({ ...ok(), request: 'hello!!' }),
        status: 400,
        message: () =>
          'CertificateSigningRequest in version "v1" cannot be handled as a CertificateSigningRequest: illegal base64 data at input byte 5',
      },
      {
        name: 'spec.request not PEM',
        spec: () => ({ ...ok(), request: base64('hello') }),
        status: 422,
        message: (n) =>
          invalid(
            n,
            'spec.request: Invalid value: []byte{0x68, 0x65, 0x6c, 0x6c, 0x6f}: PEM block type must be CERTIFICATE REQUEST',
          ),
      },
      {
        name: 'spec.request a CERTIFICATE block',
        spec: () => ({ ...ok(), request: base64(certificatePEM) }),
        status: 422,
        endsWith: '}: PEM block type must be CERTIFICATE REQUEST',
      },
      {
        name: 'spec.request whose signature does not verify',
        spec: () => ({ ...ok(), request: bob.badSignature }),
        status: 422,
        endsWith: '}: x509: ECDSA verification failure',
      },
      {
        name: 'spec.request of 2 MB of garbage',
        spec: () => ({ ...ok(), request: base64('x'.repeat(2_000_000)) }),
        status: 422,
        endsWith: ', ... (1999744 more bytes)}: PEM block type must be CERTIFICATE REQUEST',
        check: (text) => expect(text.length).toBeLessThan(10_000),
      },
      {
        name: 'spec.request missing',
        spec: () => ({ signerName: signer, usages: ['client auth'] }),
        status: 422,
        message: (n) => invalid(n, 'spec.request: Required value'),
      },
      {
        name: 'a signer name without a path',
        spec: () => ({ ...ok(), signerName: 'example.com' }),
        status: 422,
        message: (n) =>
          invalid(
            n,
            'spec.signerName: Invalid value: "example.com": must be a fully qualified domain and path of the form \'example.com/signer-name\'',
          ),
      },
      {
        name: 'a malformed signer name',
        spec: () => ({ ...ok(), signerName: 'example/x_y' }),
        status: 422,
        message: (n) =>
          invalid(
            n,
            `[spec.signerName: Invalid value: "example": should be a domain with at least two segments separated by dots, spec.signerName: Invalid value: "x_y": validating label "x_y": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')]`,
          ),
      },
      {
        name: 'no signer name',
        spec: () => ({ request: bob.request, usages: ['client auth'] }),
        status: 422,
        message: (n) => invalid(n, 'spec.signerName: Required value'),
      },
      {
        name: 'the legacy signer through v1',
        spec: () => ({ ...ok(), signerName: 'orch.io/legacy-unknown' }),
        status: 422,
        message: (n) =>
          invalid(
            n,
            'spec.signerName: Invalid value: "orch.io/legacy-unknown": the legacy signerName is not allowed via this API version',
          ),
      },
      {
        name: 'no usages',
        spec: () => ({ ...ok(), usages: [] }),
        status: 422,
        message: (n) => invalid(n, 'spec.usages: Required value'),
      },
      {
        name: 'an unknown usage',
        spec: () => ({ ...ok(), usages: ['client auth', 'flying'] }),
        status: 422,
        message: (n) =>
          invalid(n, `spec.usages[1]: Unsupported value: "flying": supported values: ${usagesList}`),
      },
      {
        name: 'a repeated usage',
        spec: () => ({ ...ok(), usages: ['client auth', 'digital signature', 'client auth'] }),
        status: 422,
        message: (n) => invalid(n, 'spec.usages[2]: Duplicate value: "client auth"'),
      },
      {
        name: 'expirationSeconds: 5',
        spec: () => ({ ...ok(), expirationSeconds: 5 }),
        status: 422,
        message: (n) =>
          invalid(
            n,
            'spec.expirationSeconds: Invalid value: 5: may not specify a duration less than 600 seconds (10 minutes)',
          ),
      },
    ];
    it.each(cases.map((c) => [c.name, c] as const))('%s', async (_label, c) => {
      const name = fresh('bad');
      const r = await admin('POST', csrs, csrBody(name, c.spec()));
      expect(r.status, r.text.slice(0, 2000)).toBe(c.status);
      expect(r.body.reason).toBe(c.status === 400 ? 'BadRequest' : 'Invalid');
      const message = String(r.body.message);
      if (c.message !== undefined) expect(message).toBe(c.message(name));
      if (c.endsWith !== undefined) {
        expect(
          message.startsWith(`${kind} "${name}" is invalid: spec.request: Invalid value: []byte{0x`),
        ).toBe(true);
        expect(message.endsWith(c.endsWith)).toBe(true);
      }
      c.check?.(r.text);
      expect((await admin('GET', `${csrs}/${name}`)).status).toBe(404);
    });
  });

  it('records the requester, whatever the client claimed, and starts with an empty status', async () => {
    await clusterRole(
      'csr-test-requester',
      [{ apiGroups: [group], resources: ['certificatesigningrequests'], verbs: ['create'] }],
      'bob',
    );
    const name = fresh('who');
    const r = await admin(
      'POST',
      csrs,
      {
        ...csrBody(name, {
          request: bob.request,
          signerName: signer,
          usages: ['client auth'],
          username: 'system:admin',
          uid: 'forged',
          groups: ['system:masters'],
          extra: { forged: ['yes'] },
        }),
        status: { conditions: [{ type: 'Approved', status: 'True' }] },
      },
      {
        'Impersonate-User': 'bob',
        'Impersonate-Uid': 'bob-uid',
        'Impersonate-Group': 'dev',
        'Impersonate-Extra-Scopes': 'csr',
      },
    );
    expect(r.status, r.text).toBe(201);
    expect(r.body.spec).toMatchObject({
      username: 'bob',
      uid: 'bob-uid',
      groups: ['dev', 'system:authenticated'],
      extra: { scopes: ['csr'] },
    });
    expect(r.body.spec.extra).not.toHaveProperty('forged');
    expect(r.body.status).toEqual({});
  });

  it('keeps the request immutable: a PUT of the main resource drops spec and status changes', async () => {
    const created = await pending('immutable');
    const name = (created.metadata as Json).name as string;
    const changed = {
      ...created,
      metadata: { ...(created.metadata as Json), labels: { team: 'a' } },
      spec: { ...(created.spec as Json), usages: ['server auth'], username: 'mallory' },
      status: { conditions: [{ type: 'Approved', status: 'True' }] },
    };
    const r = await admin('PUT', `${csrs}/${name}`, changed);
    expect(r.status, r.text).toBe(200);
    expect(r.body.spec).toEqual(created.spec);
    expect(r.body.status).toEqual({});
    expect(r.body.metadata.labels).toEqual({ team: 'a' });
  });

  it('approves through approval as kubectl does: the condition is kept, with its transition time filled', async () => {
    const name = ((await pending('approve')).metadata as Json).name as string;
    const r = await decide(name, [kubectlCondition('Approved')]);
    expect(r.status, r.text).toBe(200);
    const stored = await admin('GET', `${csrs}/${name}`);
    const [condition] = stored.body.status.conditions as Condition[];
    expect(condition).toMatchObject({ type: 'Approved', status: 'True', reason: 'KubectlApprove' });
    expect(condition?.lastTransitionTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // A signer's stale status write cannot drop the decision.
    const signerWrite = { ...stored.body, status: { certificate: base64(certificatePEM) } };
    const lost = await admin('PUT', `${csrs}/${name}/status`, signerWrite);
    expect(lost.status).toBe(422);
    expect(lost.body.message).toBe(
      `${kind} "${name}" is invalid: status.conditions: Forbidden: updates may not remove a condition of type "Approved"`,
    );
    expect((await admin('GET', `${csrs}/${name}`)).body.status.conditions).toHaveLength(1);
  });

  it('denies through approval; approving it afterwards is refused', async () => {
    const name = ((await pending('deny')).metadata as Json).name as string;
    // Without any timestamp: the server fills both.
    const denied = await decide(name, [{ type: 'Denied', status: 'True', reason: 'Policy' }]);
    expect(denied.status, denied.text).toBe(200);
    const [condition] = denied.body.status.conditions as Condition[];
    expect(condition?.lastUpdateTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(condition?.lastTransitionTime).toBe(condition?.lastUpdateTime);
    const r = await decide(name, [kubectlCondition('Approved')]);
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(
      `${kind} "${name}" is invalid: status.conditions[1].type: Invalid value: "Approved": Approved and Denied conditions are mutually exclusive`,
    );
    expect(
      (await admin('GET', `${csrs}/${name}`)).body.status.conditions.map((c: Condition) => c.type),
    ).toEqual(['Denied']);
  });

  describe('bad conditions and certificates on the subresources: 422 with the real message', () => {
    const approved = { type: 'Approved', status: 'True' };
    interface Case {
      name: string;
      /** Set up the stored request (approve it, …) before the write under test. */
      before?: (name: string) => Promise<unknown>;
      subresource: 'approval' | 'status';
      status: (current: Json) => Json;
      cause: string;
    }
    const cases: Case[] = [
      {
        name: 'duplicate condition types',
        subresource: 'approval',
        status: () => ({ conditions: [approved, approved] }),
        cause: 'status.conditions[1].type: Duplicate value: "Approved"',
      },
      {
        name: 'a condition without a status',
        subresource: 'approval',
        status: () => ({ conditions: [{ type: 'Approved' }] }),
        cause: 'status.conditions[0].status: Required value',
      },
      {
        name: 'Approved other than True',
        subresource: 'approval',
        status: () => ({ conditions: [{ type: 'Approved', status: 'False' }] }),
        cause: 'status.conditions[0].status: Unsupported value: "False": supported values: "True"',
      },
      {
        name: 'removing Approved',
        before: (n) => decide(n, [kubectlCondition('Approved')]),
        subresource: 'approval',
        status: () => ({ conditions: [] }),
        cause: 'status.conditions: Forbidden: updates may not remove a condition of type "Approved"',
      },
      {
        name: 'Approved added through status',
        subresource: 'status',
        status: () => ({ conditions: [approved] }),
        cause: 'status.conditions: Forbidden: updates may not add a condition of type "Approved"',
      },
      {
        name: 'a certificate that is not PEM',
        subresource: 'status',
        status: () => ({ certificate: base64('not a certificate') }),
        cause:
          'status.certificate: Invalid value: "<certificate data>": must contain at least one CERTIFICATE PEM block',
      },
      {
        name: 'a private key as the certificate',
        subresource: 'status',
        status: () => ({
          certificate: base64('-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n'),
        }),
        cause:
          'status.certificate: Invalid value: "<certificate data>": only CERTIFICATE PEM blocks are allowed, found "PRIVATE KEY"',
      },
      {
        name: 'a certificate replaced',
        before: (n) =>
          admin('PUT', `${csrs}/${n}/status`, {
            ...csrBody(n, {}),
            status: { certificate: base64(certificatePEM) },
          }),
        subresource: 'status',
        status: () => ({ certificate: base64(certificatePEM + certificatePEM) }),
        cause: 'status.certificate: Forbidden: updates may not modify existing certificate content',
      },
      {
        name: 'a certificate set through approval',
        subresource: 'approval',
        status: () => ({ certificate: base64(certificatePEM), conditions: [approved] }),
        cause: '',
      },
    ];
    it.each(cases.map((c) => [c.name, c] as const))('%s', async (_label, c) => {
      const name = ((await pending('sub')).metadata as Json).name as string;
      await c.before?.(name);
      const current = (await admin('GET', `${csrs}/${name}`)).body as Json;
      const r = await admin('PUT', `${csrs}/${name}/${c.subresource}`, {
        ...current,
        status: c.status(current),
      });
      if (c.cause === '') {
        // approval ignores everything but the conditions: the certificate never lands
        expect(r.status, r.text).toBe(200);
        expect(r.body.status.certificate).toBeUndefined();
        return;
      }
      expect(r.status, r.text.slice(0, 1000)).toBe(422);
      expect(r.body.message).toBe(`${kind} "${name}" is invalid: ${c.cause}`);
    });
  });

  it('lists as a Table with the real columns: NAME, AGE, SIGNERNAME, REQUESTOR, REQUESTEDDURATION, CONDITION', async () => {
    const approved = ((await pending('table', { expirationSeconds: 600 })).metadata as Json).name as string;
    await decide(approved, [kubectlCondition('Approved')]);
    const denied = ((await pending('table')).metadata as Json).name as string;
    await decide(denied, [kubectlCondition('Denied')]);
    const waiting = ((await pending('table', { expirationSeconds: 3600 })).metadata as Json).name as string;
    const r = await host.request('GET', csrs, {
      headers: { Accept: `application/json;as=Table;v=v1;g=${namingProfile('orch').metaGroup}` },
    });
    expect(r.status).toBe(200);
    expect(r.body.columnDefinitions.map((c: { name: string }) => c.name)).toEqual([
      'Name',
      'Age',
      'SignerName',
      'Requestor',
      'RequestedDuration',
      'Condition',
    ]);
    const rows = new Map<string, unknown[]>(
      (r.body.rows as { cells: unknown[] }[]).map((row) => [String(row.cells[0]), row.cells]),
    );
    const requestor = host.identities.find((i) => i.name === 'admin')?.username ?? '';
    expect(rows.get(approved)?.slice(2)).toEqual([signer, requestor, '10m', 'Approved']);
    expect(rows.get(denied)?.slice(2)).toEqual([signer, requestor, '<none>', 'Denied']);
    expect(rows.get(waiting)?.slice(2)).toEqual([signer, requestor, '60m', 'Pending']);
  });

  describe('who may approve and sign', () => {
    const aliceApprover = 'csr-test-approval-writer';
    const signerBot = { 'Impersonate-User': 'signer-bot' };

    beforeAll(async () => {
      const csrRules = (sub: string): Json[] => [
        { apiGroups: [group], resources: ['certificatesigningrequests'], verbs: ['get', 'list', 'watch'] },
        { apiGroups: [group], resources: [`certificatesigningrequests/${sub}`], verbs: ['update'] },
      ];
      await clusterRole(aliceApprover, csrRules('approval'), 'alice');
      await clusterRole('csr-test-status-writer', csrRules('status'), 'signer-bot');
    });

    it('alice without approve on the signer: 403 from CertificateApproval; with `<domain>/*`: approved', async () => {
      const name = ((await pending('alice')).metadata as Json).name as string;
      const denied = await decide(name, [kubectlCondition('Approved')], {
        authorization: `Bearer ${host.identities.find((i) => i.name === 'alice')?.token ?? ''}`,
      });
      expect(denied.status).toBe(403);
      expect(denied.body.message).toBe(
        `certificatesigningrequests.${group} "${name}" is forbidden: user not permitted to approve requests with signerName "${signer}"`,
      );
      await clusterRole(
        'csr-test-approver',
        [
          {
            apiGroups: [group],
            resources: ['signers'],
            resourceNames: ['example.com/*'],
            verbs: ['approve'],
          },
        ],
        'alice',
      );
      const approved = await decide(name, [kubectlCondition('Approved')], {
        authorization: `Bearer ${host.identities.find((i) => i.name === 'alice')?.token ?? ''}`,
      });
      expect(approved.status, approved.text).toBe(200);
    });

    it('a signer without sign may not store a certificate; with sign on the signer it may', async () => {
      const name = ((await pending('sign')).metadata as Json).name as string;
      await decide(name, [kubectlCondition('Approved')]);
      const current = (await admin('GET', `${csrs}/${name}`)).body as Json & { status: Json };
      const write = { ...current, status: { ...current.status, certificate: base64(certificatePEM) } };
      const refused = await admin('PUT', `${csrs}/${name}/status`, write, signerBot);
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe(
        `certificatesigningrequests.${group} "${name}" is forbidden: user not permitted to sign requests with signerName "${signer}"`,
      );
      await clusterRole(
        'csr-test-signer',
        [{ apiGroups: [group], resources: ['signers'], resourceNames: [signer], verbs: ['sign'] }],
        'signer-bot',
      );
      const signed = await admin('PUT', `${csrs}/${name}/status`, write, signerBot);
      expect(signed.status, signed.text).toBe(200);
      expect(signed.body.status.certificate).toBe(base64(certificatePEM));
      expect(signed.body.status.conditions).toHaveLength(1);
    });

    it('CertificateSubjectRestriction: system:masters for the API server client signer is refused', async () => {
      const name = fresh('masters');
      const r = await admin(
        'POST',
        csrs,
        csrBody(name, {
          request: masters.request,
          signerName: 'orch.io/apiserver-client',
          usages: ['client auth'],
        }),
      );
      expect(r.status).toBe(403);
      expect(r.body.message).toBe(
        `certificatesigningrequests.${group} "${name}" is forbidden: use of orch.io/apiserver-client signer with system:masters group is not allowed`,
      );
    });
  });
});
