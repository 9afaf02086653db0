/**
 * PKCS#10 requests for the signer tests: any subject (CN and several O),
 * subject alternative names of every kind the rules look at, and extra
 * extensions a request may ask for (a CA bit, key usages), made with
 * WebCrypto so they verify.
 */

import { encodePEM } from '../../src/auth/pki/pem';
import {
  exportPrivateKeyPEM,
  generateKeyPair,
  signatureParams,
  type KeyAlgorithmName,
} from '../../src/auth/pki/keys';
import {
  BasicConstraintsExtension,
  type Extension,
  Pkcs10CertificateRequestGenerator,
  SubjectAlternativeNameExtension,
} from '../../src/auth/pki/x509.lazy';

export interface RequestSpec {
  cn?: string;
  orgs?: string[];
  dns?: string[];
  ips?: string[];
  emails?: string[];
  uris?: string[];
  /** Ask for basic constraints CA:TRUE. */
  ca?: boolean;
  extensions?: Extension[];
  key?: KeyAlgorithmName;
}

/** A signed request as PEM text. */
export async function makeRequestPEM(spec: RequestSpec): Promise<string> {
  return (await makeRequest(spec)).pem;
}

/** A signed request as PEM text, with its private key (PKCS#8 PEM) for using the certificate later. */
export async function makeRequest(spec: RequestSpec): Promise<{ pem: string; keyPEM: string }> {
  const keys = await generateKeyPair(spec.key ?? 'ECDSA-P256');
  const names = [
    ...(spec.dns ?? []).map((value) => ({ type: 'dns' as const, value })),
    ...(spec.emails ?? []).map((value) => ({ type: 'email' as const, value })),
    ...(spec.ips ?? []).map((value) => ({ type: 'ip' as const, value })),
    ...(spec.uris ?? []).map((value) => ({ type: 'url' as const, value })),
  ];
  const extensions: Extension[] = [...(spec.extensions ?? [])];
  if (names.length > 0) extensions.push(new SubjectAlternativeNameExtension(names));
  if (spec.ca === true) extensions.push(new BasicConstraintsExtension(true, undefined, true));
  const name: Record<string, string[]>[] = [
    ...(spec.orgs ?? []).map((o) => ({ O: [o] })),
    ...(spec.cn !== undefined ? [{ CN: [spec.cn] }] : []),
  ];
  const csr = await Pkcs10CertificateRequestGenerator.create({
    name,
    keys,
    signingAlgorithm: signatureParams(keys.privateKey) as Algorithm,
    extensions,
  });
  return {
    pem: encodePEM(new Uint8Array(csr.rawData), 'CERTIFICATE REQUEST'),
    keyPEM: await exportPrivateKeyPEM(keys.privateKey),
  };
}
