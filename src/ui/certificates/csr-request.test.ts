import { describe, expect, it } from 'vitest';
import { encodeBase64Text } from '../../machinery/base64-text';
import {
  csrObject,
  defaultRequestName,
  describeRequest,
  generateRequest,
  pemOfBytesField,
} from './csr-request';
import type { RequestDraft } from './signers';
import { Pkcs10CertificateRequest } from './x509';

const draft: RequestDraft = {
  commonName: 'system:node:n1',
  organizations: ['system:nodes'],
  signerName: 'orch.io/node-agent-serving',
  usages: ['digital signature', 'server auth'],
  dnsNames: ['n1.example'],
  ipAddresses: ['10.0.0.5'],
  expirationSeconds: '3600',
};

describe('generating a request', () => {
  it('makes a PKCS#10 request that verifies, with the subject and SANs asked for, and a PKCS#8 key', async () => {
    const generated = await generateRequest(draft);
    expect(generated.keyPEM).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    const request = new Pkcs10CertificateRequest(generated.requestPEM);
    expect(await request.verify()).toBe(true);
    const body = csrObject('n1-serving', 'certificates.orch.io/v1', generated.requestPEM, draft);
    expect(body.spec).toMatchObject({
      signerName: 'orch.io/node-agent-serving',
      usages: ['digital signature', 'server auth'],
      expirationSeconds: 3600,
    });
    expect(describeRequest(body.spec?.request ?? '')).toEqual({
      subject: 'O=system:nodes, CN=system:node:n1',
      commonName: 'system:node:n1',
      organizations: ['system:nodes'],
      dnsNames: ['n1.example'],
      ipAddresses: ['10.0.0.5'],
    });
  });

  it('leaves expirationSeconds out when not set', () => {
    expect(csrObject('x', 'v', 'PEM', { ...draft, expirationSeconds: ' ' }).spec).not.toHaveProperty(
      'expirationSeconds',
    );
  });

  it('names requests after their user', () => {
    expect(defaultRequestName('system:node:N1')).toMatch(/^system-node-n1-[a-z0-9]{1,5}$/);
    expect(defaultRequestName('')).toMatch(/^request-/);
  });
});

describe('reading status.certificate', () => {
  it('decodes the base64 JSON carries, keeps PEM as it is, and reads garbage as empty', () => {
    const pem = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n';
    expect(pemOfBytesField(encodeBase64Text(pem))).toBe(pem);
    expect(pemOfBytesField(pem)).toBe(pem);
    expect(pemOfBytesField('%%%')).toBe('');
    expect(pemOfBytesField(undefined)).toBe('');
  });
});
