import { beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../api/meta';
import { toBase64 } from '../../../../auth/pki/pem';
import {
  BasicConstraintsExtension,
  PemConverter,
  Pkcs10CertificateRequestGenerator,
  X509CertificateGenerator,
} from '../../../../auth/pki/x509.lazy';
import { aggregateFieldErrors, type FieldError } from '../../../../machinery/field-errors';
import { validateCertificateSigningRequest, knownUsages, type CsrWrite } from './validation';
import { validateSignerName } from './signer-name';
import { derEnvelopeError, requestError } from './request';
import { certificateError } from './certificate';
import { goBytesValue } from './go-bytes';

const legacy = 'orch.io/legacy-unknown';
const b64 = (s: string): string => toBase64(new TextEncoder().encode(s));
const messages = (errors: FieldError[]): string => aggregateFieldErrors(errors);

const ecdsa = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
const rsa = {
  name: 'RSASSA-PKCS1-v1_5',
  modulusLength: 1024,
  publicExponent: new Uint8Array([1, 0, 1]),
  hash: 'SHA-256',
};

/** A PEM request, and the same with its last signature byte flipped. */
async function makeRequest(algorithm: typeof ecdsa | typeof rsa): Promise<{ good: string; bad: string }> {
  const keys = await crypto.subtle.generateKey(algorithm, true, ['sign', 'verify']);
  const csr = await Pkcs10CertificateRequestGenerator.create({
    name: 'CN=bob, O=dev',
    keys,
    signingAlgorithm: algorithm.name === 'ECDSA' ? { name: 'ECDSA', hash: 'SHA-256' } : algorithm,
  });
  const der = new Uint8Array(csr.rawData).slice();
  der[der.length - 1] = (der[der.length - 1] ?? 0) ^ 0xff;
  return {
    good: b64(csr.toString('pem')),
    bad: b64(PemConverter.encode(der.buffer, 'CERTIFICATE REQUEST')),
  };
}

let ec: { good: string; bad: string };
let rs: { good: string; bad: string };
let certificatePEM: string;

beforeAll(async () => {
  ec = await makeRequest(ecdsa);
  rs = await makeRequest(rsa);
  const keys = await crypto.subtle.generateKey(ecdsa, true, ['sign', 'verify']);
  const cert = await X509CertificateGenerator.createSelfSigned({
    name: 'CN=bob',
    keys,
    signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + 3600_000),
    extensions: [new BasicConstraintsExtension(false)],
  });
  certificatePEM = `${cert.toString('pem')}\n`;
});

function csr(spec: Record<string, unknown> = {}, status: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'certificates.orch.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name: 'r' },
    spec: { request: ec.good, signerName: 'example.com/signer', usages: ['client auth'], ...spec },
    status,
  };
}

const check = (
  obj: KubeObject,
  old?: KubeObject,
  write: CsrWrite = old === undefined ? 'create' : 'update',
) => validateCertificateSigningRequest(obj, old, write, legacy).then(messages);

describe('spec.request', () => {
  it('accepts well-formed requests signed by their own key (ECDSA and RSA)', async () => {
    expect(await check(csr())).toBe('');
    expect(await check(csr({ request: rs.good }))).toBe('');
  });

  const hello = '[]byte{0x68, 0x65, 0x6c, 0x6c, 0x6f}';
  const cases: [string, () => string, string][] = [
    ['not PEM', () => b64('hello'), `${hello}: PEM block type must be CERTIFICATE REQUEST`],
    [
      'a CERTIFICATE block',
      () => b64('-----BEGIN CERTIFICATE-----\nAA==\n-----END CERTIFICATE-----\n'),
      'PEM block type must be CERTIFICATE REQUEST',
    ],
    [
      'a block whose END does not match (Go skips it)',
      () => b64('-----BEGIN CERTIFICATE REQUEST-----\nAA==\n-----END CERTIFICATE-----\n'),
      'PEM block type must be CERTIFICATE REQUEST',
    ],
    [
      'a request block holding no ASN.1 SEQUENCE',
      () => b64('-----BEGIN CERTIFICATE REQUEST-----\naGVsbG8=\n-----END CERTIFICATE REQUEST-----\n'),
      "asn1: structure error: tags don't match (16 vs {class:1 tag:8 length:101 isCompound:true}) {optional:false explicit:false application:false private:false defaultValue:<nil> tag:<nil> stringType:0 timeType:0 set:false omitEmpty:false} certificateRequest @2",
    ],
    ['an ECDSA signature that does not verify', () => ec.bad, 'x509: ECDSA verification failure'],
    ['an RSA signature that does not verify', () => rs.bad, 'crypto/rsa: verification error'],
  ];
  it.each(cases)('refuses %s', async (_name, request, detail) => {
    const out = await check(csr({ request: request() }));
    expect(out.startsWith('spec.request: Invalid value: []byte{')).toBe(true);
    expect(out.endsWith(`: ${detail}`)).toBe(true);
  });

  it('shows only the beginning of a huge bad value', async () => {
    const out = await check(csr({ request: b64('x'.repeat(1 << 20)) }));
    expect(out.length).toBeLessThan(2000);
    expect(out).toContain(`... (${(1 << 20) - 256} more bytes)}: PEM block type must be CERTIFICATE REQUEST`);
  });

  it.each([
    ['BEGIN lines sharing one far END', '-----BEGIN A-----\n'.repeat(100_000) + '-----END B-----\n'],
    ['a type line of 2 MB of spaces', `-----BEGIN A${' '.repeat(2_000_000)}\n`],
    ['300 000 header lines', `-----BEGIN A-----\n${'a: b\n'.repeat(300_000)}`],
  ])('answers adversarial PEM text (%s) in one linear pass', async (_name, text) => {
    const bytes = new TextEncoder().encode(text);
    expect(await requestError(bytes)).toBe('PEM block type must be CERTIFICATE REQUEST');
    expect(certificateError(bytes)).toBe('must contain at least one CERTIFICATE PEM block');
  });

  it("leaves a missing request to the schema's Required value", async () => {
    const obj = csr();
    delete (obj.spec as Record<string, unknown>).request;
    expect(await check(obj)).toBe('');
  });

  it.each([
    [[], 'asn1: syntax error: sequence truncated'],
    [[0x30, 0x05, 0x01], 'asn1: syntax error: data truncated'],
    [[0x30, 0x00, 0x00], 'asn1: syntax error: trailing data'],
    [[0x30, 0x80], 'asn1: syntax error: indefinite length found (not DER)'],
    [[0x30, 0x81, 0x05], 'asn1: structure error: non-minimal length'],
    [[0x30], 'asn1: syntax error: truncated tag or length'],
  ])("the DER envelope %j: Go's asn1 text", (bytes, message) => {
    expect(derEnvelopeError(new Uint8Array(bytes))).toBe(message);
  });

  it("prints bytes as Go's %#v", () => {
    expect(goBytesValue(undefined)).toBe('[]byte(nil)');
    expect(goBytesValue(new Uint8Array())).toBe('[]byte{}');
    expect(goBytesValue(new Uint8Array([0x0a, 0xff]))).toBe('[]byte{0xa, 0xff}');
  });
});

describe('spec.signerName', () => {
  const subdomain =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
  const label =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
  const cases: [string, string][] = [
    ['example.com/signer', ''],
    ['example.com/ns.name', ''],
    ['', 'spec.signerName: Required value'],
    [
      'example.com',
      'spec.signerName: Invalid value: "example.com": must be a fully qualified domain and path of the form \'example.com/signer-name\'',
    ],
    [
      'example.com/a/b',
      'spec.signerName: Invalid value: "example.com/a/b": must be a fully qualified domain and path of the form \'example.com/signer-name\'',
    ],
    [
      'example/signer',
      'spec.signerName: Invalid value: "example": should be a domain with at least two segments separated by dots',
    ],
    [
      'Example.com/signer',
      `spec.signerName: Invalid value: "Example.com": validating label "Example": ${label}`,
    ],
    [
      'example.com/Signer',
      `spec.signerName: Invalid value: "Signer": validating label "Signer": ${subdomain}`,
    ],
    ['example.com/', `spec.signerName: Invalid value: "": validating label "": ${subdomain}`],
    [`${'a.'.repeat(126)}com/x`, 'spec.signerName: Too long: must have at most 253 bytes'],
    [
      `example.com/${'a'.repeat(250)}.${'b'.repeat(63)}.${'c'.repeat(250)}`,
      'spec.signerName: Too long: must have at most 571 bytes',
    ],
  ];
  it.each(cases)('%j', (name, expected) => {
    expect(messages(validateSignerName('spec.signerName', name))).toBe(expected);
  });

  it('refuses the legacy signer through v1, but tolerates it on stored requests', async () => {
    expect(await check(csr({ signerName: legacy }))).toBe(
      'spec.signerName: Invalid value: "orch.io/legacy-unknown": the legacy signerName is not allowed via this API version',
    );
    expect(await check(csr({ signerName: legacy }), csr({ signerName: legacy }))).toBe('');
  });
});

describe('spec.usages and spec.expirationSeconds', () => {
  it('knows the 23 real usages, sorted', () => {
    expect(knownUsages).toHaveLength(23);
    expect([...knownUsages].sort()).toEqual(knownUsages);
  });
  it('requires usages, refuses unknown and repeated ones', async () => {
    expect(await check(csr({ usages: [] }))).toBe('spec.usages: Required value');
    const out = await check(csr({ usages: ['client auth', 'flying', 'client auth'] }));
    expect(out).toBe(
      `[spec.usages[1]: Unsupported value: "flying": supported values: ${knownUsages.map((u) => `"${u}"`).join(', ')}, spec.usages[2]: Duplicate value: "client auth"]`,
    );
  });
  it('tolerates usages a stored request already breaks', async () => {
    const bad = csr({ usages: ['flying', 'flying'] });
    expect(await check(bad, bad)).toBe('');
  });
  it('needs at least 600 seconds', async () => {
    expect(await check(csr({ expirationSeconds: 599 }))).toBe(
      'spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 600 seconds (10 minutes)',
    );
    expect(await check(csr({ expirationSeconds: 600 }))).toBe('');
  });
});

describe('status.conditions', () => {
  const approved = { type: 'Approved', status: 'True' };
  const denied = { type: 'Denied', status: 'True' };
  it.each([
    [[{ type: 'Approved' }], 'status.conditions[0].status: Required value'],
    [[{ type: '', status: 'True' }], 'status.conditions[0].type: Required value'],
    [
      [{ type: 'Approved', status: 'False' }],
      'status.conditions[0].status: Unsupported value: "False": supported values: "True"',
    ],
    [
      [{ type: 'Custom', status: 'Maybe' }],
      'status.conditions[0].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"',
    ],
    [[{ type: 'Custom', status: 'False' }], ''],
    [[approved, approved], 'status.conditions[1].type: Duplicate value: "Approved"'],
    [
      [approved, denied],
      'status.conditions[1].type: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive',
    ],
  ])('%j', async (conditions, expected) => {
    expect(await check(csr({}, { conditions }), csr(), 'approval')).toBe(expected);
  });

  it('an update may not remove a final condition, nor add Approved outside approval', async () => {
    const old = csr({}, { conditions: [approved, { type: 'Failed', status: 'True' }] });
    expect(await check(csr({}, { conditions: [] }), old, 'status')).toBe(
      '[status.conditions: Forbidden: updates may not remove a condition of type "Approved", status.conditions: Forbidden: updates may not remove a condition of type "Failed"]',
    );
    expect(await check(csr({}, { conditions: [denied] }), csr(), 'status')).toBe(
      'status.conditions: Forbidden: updates may not add a condition of type "Denied"',
    );
    expect(await check(csr({}, { conditions: [denied] }), csr(), 'approval')).toBe('');
  });
});

describe('status.certificate', () => {
  it('accepts CERTIFICATE blocks, set once through status', async () => {
    expect(await check(csr({}, { certificate: b64(certificatePEM) }), csr(), 'status')).toBe('');
    expect(await check(csr({}, { certificate: b64(certificatePEM + certificatePEM) }), csr(), 'status')).toBe(
      '',
    );
  });
  it.each([
    ['junk', 'must contain at least one CERTIFICATE PEM block'],
    [
      '-----BEGIN PRIVATE KEY-----\nAA==\n-----END PRIVATE KEY-----\n',
      'only CERTIFICATE PEM blocks are allowed, found "PRIVATE KEY"',
    ],
    [
      '-----BEGIN CERTIFICATE-----\nA: b\n\nAA==\n-----END CERTIFICATE-----\n',
      'no PEM block headers are permitted',
    ],
    ['-----BEGIN CERTIFICATE-----\naGVsbG8=\n-----END CERTIFICATE-----\n', 'x509: malformed certificate'],
    [
      '-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n',
      'found CERTIFICATE PEM block containing 0 certificates',
    ],
  ])('refuses %j', async (pem, detail) => {
    expect(await check(csr({}, { certificate: b64(pem) }), csr(), 'status')).toBe(
      `status.certificate: Invalid value: "<certificate data>": ${detail}`,
    );
  });
  it('may be set only through status, and never changed', async () => {
    const issued = csr({}, { certificate: b64(certificatePEM) });
    expect(await check(issued, csr(), 'approval')).toBe(
      'status.certificate: Forbidden: updates may not set certificate content',
    );
    expect(
      await check(csr({}, { certificate: b64(certificatePEM + certificatePEM) }), issued, 'status'),
    ).toBe('status.certificate: Forbidden: updates may not modify existing certificate content');
  });
});
