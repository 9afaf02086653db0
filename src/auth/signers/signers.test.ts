import { beforeAll, describe, expect, it } from 'vitest';
import { namingProfile } from '../../machinery/naming';
import { builtInSigner, builtInSigners, parseRequestPEM, requestView, type SignerKind } from './index';
import { makeRequestPEM, type RequestSpec } from '../../../test/support/signer-requests';
import { x509Library } from '../pki/x509';

// parseRequestPEM and requestView are synchronous: their callers load the library first, as this file does.
beforeAll(() => x509Library.load());

const orch = namingProfile('orch');
const kube = namingProfile('kubernetes');

const clientUsages = ['digital signature', 'key encipherment', 'client auth'];
const servingUsages = ['digital signature', 'key encipherment', 'server auth'];
const node = { cn: 'system:node:n1', orgs: ['system:nodes'] };

interface Row {
  name: string;
  spec: RequestSpec;
  usages: string[];
  /** undefined: accepted; otherwise the exact message of the refusal. */
  failure: string | undefined;
}

const table: Record<SignerKind, Row[]> = {
  apiserverClient: [
    {
      name: 'any subject, client usages',
      spec: { cn: 'alice', orgs: ['dev'] },
      usages: clientUsages,
      failure: undefined,
    },
    { name: 'client auth alone', spec: { cn: 'alice' }, usages: ['client auth'], failure: undefined },
    {
      name: 'SANs are not judged',
      spec: { cn: 'a', dns: ['x.example'] },
      usages: ['client auth'],
      failure: undefined,
    },
    {
      name: 'without client auth',
      spec: { cn: 'alice' },
      usages: ['digital signature', 'key encipherment'],
      failure: 'missing required usage for client certificate: client auth',
    },
    {
      name: 'a server usage',
      spec: { cn: 'alice' },
      usages: ['client auth', 'server auth'],
      failure: 'invalid usage for client certificate: server auth',
    },
    {
      name: 'the first bad usage is named',
      spec: { cn: 'alice' },
      usages: ['cert sign', 'client auth', 'server auth'],
      failure: 'invalid usage for client certificate: cert sign',
    },
  ],
  apiserverClientKubelet: [
    { name: 'a node, RSA usages', spec: node, usages: clientUsages, failure: undefined },
    {
      name: 'a node, without key encipherment',
      spec: node,
      usages: ['digital signature', 'client auth'],
      failure: undefined,
    },
    {
      name: 'usages in another order, one twice',
      spec: node,
      usages: ['client auth', 'digital signature', 'client auth', 'key encipherment'],
      failure: undefined,
    },
    {
      name: 'another organization',
      spec: { cn: 'system:node:n1', orgs: ['dev'] },
      usages: clientUsages,
      failure: 'subject organization is not system:nodes',
    },
    {
      name: 'two organizations',
      spec: { cn: 'system:node:n1', orgs: ['system:nodes', 'dev'] },
      usages: clientUsages,
      failure: 'subject organization is not system:nodes',
    },
    {
      name: 'no organization',
      spec: { cn: 'system:node:n1' },
      usages: clientUsages,
      failure: 'subject organization is not system:nodes',
    },
    {
      name: 'a DNS name',
      spec: { ...node, dns: ['n1'] },
      usages: clientUsages,
      failure: 'DNS subjectAltNames are not allowed',
    },
    {
      name: 'an email',
      spec: { ...node, emails: ['a@b.c'] },
      usages: clientUsages,
      failure: 'Email subjectAltNames are not allowed',
    },
    {
      name: 'an IP',
      spec: { ...node, ips: ['10.0.0.1'] },
      usages: clientUsages,
      failure: 'IP subjectAltNames are not allowed',
    },
    {
      name: 'a URI',
      spec: { ...node, uris: ['spiffe://x/y'] },
      usages: clientUsages,
      failure: 'URI subjectAltNames are not allowed',
    },
    {
      name: 'a CN that is not a node',
      spec: { cn: 'alice', orgs: ['system:nodes'] },
      usages: clientUsages,
      failure: 'subject common name does not begin with system:node:',
    },
    {
      name: 'a missing usage',
      spec: node,
      usages: ['key encipherment', 'client auth'],
      failure: 'usages did not match [client auth digital signature key encipherment]',
    },
    {
      name: 'an extra usage',
      spec: node,
      usages: [...clientUsages, 'server auth'],
      failure: 'usages did not match [client auth digital signature key encipherment]',
    },
    {
      name: 'the organization is checked before the names',
      spec: { cn: 'alice', orgs: ['dev'], dns: ['x'] },
      usages: [],
      failure: 'subject organization is not system:nodes',
    },
  ],
  kubeletServing: [
    {
      name: 'a node with a DNS name',
      spec: { ...node, dns: ['n1.example'] },
      usages: servingUsages,
      failure: undefined,
    },
    {
      name: 'a node with an IP',
      spec: { ...node, ips: ['10.0.0.1', '::1'] },
      usages: servingUsages,
      failure: undefined,
    },
    {
      name: 'without key encipherment',
      spec: { ...node, dns: ['n1'] },
      usages: ['digital signature', 'server auth'],
      failure: undefined,
    },
    { name: 'no name', spec: node, usages: servingUsages, failure: 'DNS or IP subjectAltName is required' },
    {
      name: 'an email besides',
      spec: { ...node, dns: ['n1'], emails: ['a@b.c'] },
      usages: servingUsages,
      failure: 'Email subjectAltNames are not allowed',
    },
    {
      name: 'a URI besides',
      spec: { ...node, ips: ['10.0.0.1'], uris: ['https://n1'] },
      usages: servingUsages,
      failure: 'URI subjectAltNames are not allowed',
    },
    {
      name: 'client usages',
      spec: { ...node, dns: ['n1'] },
      usages: clientUsages,
      failure: 'usages did not match [digital signature key encipherment server auth]',
    },
    {
      name: 'another organization',
      spec: { cn: 'system:node:n1', orgs: ['system:masters'], dns: ['n1'] },
      usages: servingUsages,
      failure: 'subject organization is not system:nodes',
    },
    {
      name: 'the CN is checked last',
      spec: { cn: 'web', orgs: ['system:nodes'], dns: ['n1'] },
      usages: ['server auth'],
      failure: 'usages did not match [digital signature key encipherment server auth]',
    },
    {
      name: 'a CN that is not a node',
      spec: { cn: 'web', orgs: ['system:nodes'], dns: ['n1'] },
      usages: servingUsages,
      failure: 'subject common name does not begin with system:node:',
    },
  ],
  legacyUnknown: [
    {
      name: 'anything',
      spec: { cn: 'x', orgs: ['system:masters'], ca: true },
      usages: ['cert sign', 'any'],
      failure: undefined,
    },
    { name: 'no usage', spec: { cn: 'x' }, usages: [], failure: undefined },
  ],
};

describe('built-in signer rules', () => {
  it('names the four signers after the profile', () => {
    expect(builtInSigners(orch).map((s) => s.name)).toEqual([
      'orch.io/apiserver-client',
      'orch.io/apiserver-client-node-agent',
      'orch.io/node-agent-serving',
      'orch.io/legacy-unknown',
    ]);
    expect(builtInSigners(kube).map((s) => s.name)).toEqual([
      'kubernetes.io/kube-apiserver-client',
      'kubernetes.io/kube-apiserver-client-kubelet',
      'kubernetes.io/kubelet-serving',
      'kubernetes.io/legacy-unknown',
    ]);
    expect(builtInSigner(orch, 'example.com/custom')).toBeUndefined();
    expect(builtInSigner(orch, 'kubernetes.io/kube-apiserver-client')).toBeUndefined();
  });

  for (const [kind, rows] of Object.entries(table) as [SignerKind, Row[]][]) {
    describe(kind, () => {
      it.each(rows)('$name', async (row) => {
        const signer = builtInSigners(orch).find((s) => s.kind === kind);
        const view = requestView(parseRequestPEM(await makeRequestPEM(row.spec)));
        expect(signer?.validate(view, row.usages)).toBe(row.failure);
      });
    });
  }

  it('reads requests as Go does: the first PEM block must be a request, the last CN counts', async () => {
    expect(() => parseRequestPEM('hello')).toThrow('PEM block type must be CERTIFICATE REQUEST');
    expect(() => parseRequestPEM('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n')).toThrow(
      'PEM block type must be CERTIFICATE REQUEST',
    );
    const view = requestView(
      parseRequestPEM(
        await makeRequestPEM({
          cn: 'a',
          orgs: ['x', 'y'],
          dns: ['d'],
          ips: ['10.1.2.3'],
          emails: ['e@f.g'],
          uris: ['spiffe://t/u'],
        }),
      ),
    );
    expect(view).toMatchObject({
      commonName: 'a',
      organizations: ['x', 'y'],
      dnsNames: ['d'],
      ipAddresses: ['10.1.2.3'],
      emailAddresses: ['e@f.g'],
      uris: ['spiffe://t/u'],
    });
  });

  it('finds the block Go finds: past a malformed one, never a request whose END line has text after it', async () => {
    const request = await makeRequestPEM({ cn: 'real' });
    const skipped = [
      `-----BEGIN X-----\n@@@@\n-----END X-----\n${request}`,
      `${(await makeRequestPEM({ cn: 'decoy' })).trimEnd()} trailing\n${request}`,
    ];
    for (const pem of skipped) expect(requestView(parseRequestPEM(pem)).commonName).toBe('real');
    // A malformed request block with nothing after it: no block at all, as Go says.
    expect(() =>
      parseRequestPEM('-----BEGIN CERTIFICATE REQUEST-----\n@@@@\n-----END CERTIFICATE REQUEST-----\n'),
    ).toThrow('PEM block type must be CERTIFICATE REQUEST');
  });
});
