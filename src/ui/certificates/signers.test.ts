import { describe, expect, it } from 'vitest';
import { namingProfile } from '../../machinery/naming';
import { apiNames } from './names';
import { blocking, checkDraft, outcome, ruleOfFailure, signerFor, type RequestDraft } from './signers';

const orch = apiNames(namingProfile('orch'));
const upstream = apiNames(namingProfile('kubernetes'));

function draft(over: Partial<RequestDraft>): RequestDraft {
  return {
    commonName: 'carol',
    organizations: ['developers'],
    signerName: orch.signers.apiserverClient,
    usages: ['digital signature', 'key encipherment', 'client auth'],
    dnsNames: [],
    ipAddresses: [],
    expirationSeconds: '',
    ...over,
  };
}

/** The message the server would answer with, or undefined when nothing is broken. */
function reported(d: RequestDraft): string | undefined {
  return checkDraft(orch, d).find((c) => c.reported === true && c.source === 'signer')?.message;
}

describe('signer names per profile', () => {
  it('renames beyond the domain in the orch profile and keeps upstream names in the kubernetes one', () => {
    expect(orch.signers).toEqual({
      apiserverClient: 'orch.io/apiserver-client',
      apiserverClientKubelet: 'orch.io/apiserver-client-node-agent',
      kubeletServing: 'orch.io/node-agent-serving',
      legacyUnknown: 'orch.io/legacy-unknown',
    });
    expect(upstream.signers.apiserverClient).toBe('kubernetes.io/kube-apiserver-client');
    expect(upstream.signers.kubeletServing).toBe('kubernetes.io/kubelet-serving');
    expect(orch.certificatesGroup).toBe('certificates.orch.io');
    expect(upstream.rootCAConfigMap).toBe('kube-root-ca.crt');
    expect(orch.rootCAConfigMap).toBe('orch-root-ca.crt');
  });

  it('treats a name no built-in signer owns as custom', () => {
    expect(signerFor(orch, 'example.com/mine').kind).toBe('custom');
    expect(signerFor(orch, orch.signers.kubeletServing).sans).toBe('required');
  });
});

describe('the rules each signer applies, first broken one reported', () => {
  const cases: { name: string; d: Partial<RequestDraft>; message: string | undefined }[] = [
    { name: 'a valid client request', d: {}, message: undefined },
    {
      name: 'client without client auth',
      d: { usages: ['digital signature'] },
      message: 'missing required usage for client certificate: client auth',
    },
    {
      name: 'node client with a DNS SAN and the wrong O',
      d: { signerName: orch.signers.apiserverClientKubelet, dnsNames: ['n1'], commonName: 'system:node:n1' },
      message: 'subject organization is not system:nodes',
    },
    {
      name: 'node client with a DNS SAN',
      d: {
        signerName: orch.signers.apiserverClientKubelet,
        organizations: ['system:nodes'],
        dnsNames: ['n1'],
        commonName: 'system:node:n1',
      },
      message: 'DNS subjectAltNames are not allowed',
    },
    {
      name: 'node client without the system:node: prefix',
      d: { signerName: orch.signers.apiserverClientKubelet, organizations: ['system:nodes'] },
      message: 'subject common name does not begin with system:node:',
    },
    {
      name: 'serving without SANs',
      d: {
        signerName: orch.signers.kubeletServing,
        organizations: ['system:nodes'],
        commonName: 'system:node:n1',
        usages: ['digital signature', 'key encipherment', 'server auth'],
      },
      message: 'DNS or IP subjectAltName is required',
    },
    {
      name: 'serving with client auth',
      d: {
        signerName: orch.signers.kubeletServing,
        organizations: ['system:nodes'],
        commonName: 'system:node:n1',
        ipAddresses: ['10.0.0.5'],
        usages: ['digital signature', 'client auth'],
      },
      message: 'usages did not match [digital signature key encipherment server auth]',
    },
    {
      name: 'serving without key encipherment (non-RSA keys)',
      d: {
        signerName: orch.signers.kubeletServing,
        organizations: ['system:nodes'],
        commonName: 'system:node:n1',
        dnsNames: ['n1.example'],
        usages: ['digital signature', 'server auth'],
      },
      message: undefined,
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      expect(reported(draft(c.d))).toBe(c.message);
    });

  it('the reported rule maps back from the Failed message', () => {
    expect(ruleOfFailure('DNS or IP subjectAltName is required')).toBe(
      'At least one DNS or IP subjectAltName',
    );
    expect(ruleOfFailure('something else')).toBeUndefined();
  });
});

describe('what stops a request before the signer', () => {
  it('the API refuses a short lifetime and the legacy signer; admission refuses system:masters', () => {
    const short = checkDraft(orch, draft({ expirationSeconds: '5' }));
    expect(outcome(short)).toBe('api');
    expect(short.find((c) => !c.ok)?.message).toBe(
      'spec.expirationSeconds: Invalid value: 5: may not specify a duration less than 600 seconds (10 minutes)',
    );
    expect(outcome(checkDraft(orch, draft({ signerName: orch.signers.legacyUnknown })))).toBe('api');
    const masters = checkDraft(orch, draft({ organizations: ['system:masters'] }));
    expect(outcome(masters)).toBe('admission');
    expect(masters.find((c) => !c.ok)?.message).toBe(
      'use of orch.io/apiserver-client signer with system:masters group is not allowed',
    );
  });

  it('only what no request can be built without blocks the form', () => {
    expect(blocking(checkDraft(orch, draft({ commonName: '' })))).toHaveLength(1);
    expect(blocking(checkDraft(orch, draft({ ipAddresses: ['not-an-ip'] })))).toHaveLength(1);
    expect(blocking(checkDraft(orch, draft({ ipAddresses: ['::1', '10.1.2.3'] })))).toHaveLength(0);
    expect(blocking(checkDraft(orch, draft({ expirationSeconds: '5' })))).toHaveLength(0);
    expect(outcome(checkDraft(orch, draft({})))).toBe('ok');
  });
});
