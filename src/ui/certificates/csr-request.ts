/**
 * Makes what a learner submits: a new ECDSA P-256 key pair (WebCrypto,
 * extractable so the page can keep the private key for "use as identity"
 * and the kubeconfig snippet), a PKCS#10 request signed with it — subject
 * `O=<group>…, CN=<user>`, the DNS and IP subjectAltNames in an
 * extensionRequest — and the CertificateSigningRequest object carrying it
 * base64-encoded in `spec.request`. P-256 rather than RSA because it is
 * fast to generate, and for non-RSA keys `key encipherment` is optional.
 */

import type { CertificateSigningRequest } from '../../api/certificates';
import { decodeBase64Text, encodeBase64Text } from '../../machinery/base64-text';
import {
  Name,
  PemConverter,
  Pkcs10CertificateRequest,
  Pkcs10CertificateRequestGenerator,
  SubjectAlternativeNameExtension,
} from './x509';
import type { RequestDraft } from './signers';

const keyAlgorithm: EcKeyGenParams = { name: 'ECDSA', namedCurve: 'P-256' };
const signingAlgorithm: EcdsaParams = { name: 'ECDSA', hash: 'SHA-256' };

export interface GeneratedRequest {
  /** The PKCS#10 request, PEM. */
  requestPEM: string;
  /** The private key, PKCS#8 PEM: it never leaves the page. */
  keyPEM: string;
}

/**
 * The PEM text of a `[]byte` field (`status.certificate`), which JSON carries base64-encoded; a value that
 * is PEM already (as some clients write it) is taken as it is, and anything unreadable reads as empty.
 */
export function pemOfBytesField(value: string | undefined): string {
  if (value === undefined || value === '') return '';
  if (value.includes('-----BEGIN')) return value;
  try {
    return decodeBase64Text(value);
  } catch {
    return '';
  }
}

/** The subject as an RDN sequence: each group its own O, then the CN (as `openssl req -subj /O=…/CN=…`). */
export function subjectName(commonName: string, organizations: readonly string[]): Name {
  return new Name([...organizations.map((o) => ({ O: [o] })), { CN: [commonName] }]);
}

export async function generateRequest(draft: RequestDraft): Promise<GeneratedRequest> {
  const keys = (await crypto.subtle.generateKey(keyAlgorithm, true, ['sign', 'verify'])) as CryptoKeyPair;
  const sans = [
    ...draft.dnsNames.map((value) => ({ type: 'dns' as const, value })),
    ...draft.ipAddresses.map((value) => ({ type: 'ip' as const, value })),
  ];
  const request = await Pkcs10CertificateRequestGenerator.create({
    name: subjectName(draft.commonName, draft.organizations),
    keys,
    signingAlgorithm,
    extensions: sans.length === 0 ? [] : [new SubjectAlternativeNameExtension(sans)],
  });
  const pkcs8 = await crypto.subtle.exportKey('pkcs8', keys.privateKey);
  return {
    requestPEM: request.toString('pem'),
    keyPEM: PemConverter.encode(pkcs8, 'PRIVATE KEY'),
  };
}

/** The object to POST: the draft's signer, usages and lifetime around the request. */
export function csrObject(
  name: string,
  apiVersion: string,
  requestPEM: string,
  draft: RequestDraft,
): CertificateSigningRequest {
  const seconds = draft.expirationSeconds.trim();
  return {
    apiVersion,
    kind: 'CertificateSigningRequest',
    metadata: { name },
    spec: {
      request: encodeBase64Text(requestPEM),
      signerName: draft.signerName,
      usages: [...draft.usages],
      ...(seconds === '' ? {} : { expirationSeconds: Number(seconds) }),
    },
  };
}

/** What a PKCS#10 request says (the detail view shows the request as the signer will read it). */
export function describeRequest(requestBase64: string): {
  subject: string;
  commonName: string;
  organizations: string[];
  dnsNames: string[];
  ipAddresses: string[];
} {
  const request = new Pkcs10CertificateRequest(decodeBase64Text(requestBase64));
  const san = request.extensions.find(
    (e): e is SubjectAlternativeNameExtension => e instanceof SubjectAlternativeNameExtension,
  );
  const names = san?.names.items ?? [];
  return {
    subject: request.subject,
    commonName: request.subjectName.getField('CN')[0] ?? '',
    organizations: request.subjectName.getField('O'),
    dnsNames: names.filter((n) => n.type === 'dns').map((n) => n.value),
    ipAddresses: names.filter((n) => n.type === 'ip').map((n) => n.value),
  };
}

/** A request name from the user name: lowercase, safe characters, a short random suffix. */
export function defaultRequestName(commonName: string): string {
  const base =
    commonName
      .toLowerCase()
      .replace(/[^a-z0-9.-]+/g, '-')
      .replace(/^[-.]+|[-.]+$/g, '')
      .slice(0, 40) || 'request';
  return `${base}-${Math.random().toString(36).slice(2, 7)}`;
}
