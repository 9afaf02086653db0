/**
 * Certificate signing requests for tests: a PKCS#10 request made with
 * `@peculiar/x509` (ECDSA P-256 by default, RSA on request), as PEM and as
 * the base64 a CertificateSigningRequest's `spec.request` carries, plus a
 * copy whose signature no longer verifies.
 */

import 'reflect-metadata';
import * as x509 from '@peculiar/x509';

export interface TestCSR {
  pem: string;
  /** base64 of the PEM: the value of `spec.request`. */
  request: string;
  /** The same request with one signature byte flipped: parses, but its signature does not verify. */
  badSignature: string;
}

export interface CSRSubject {
  cn: string;
  orgs?: string[];
  rsa?: boolean;
}

export const base64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

export async function createTestCSR(subject: CSRSubject): Promise<TestCSR> {
  const algorithm = subject.rsa
    ? {
        name: 'RSASSA-PKCS1-v1_5',
        modulusLength: 2048,
        publicExponent: new Uint8Array([1, 0, 1]),
        hash: 'SHA-256',
      }
    : { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = await crypto.subtle.generateKey(algorithm, true, ['sign', 'verify']);
  const name = [`CN=${subject.cn}`, ...(subject.orgs ?? []).map((o) => `O=${o}`)].join(', ');
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({
    name,
    keys,
    signingAlgorithm: subject.rsa ? algorithm : { name: 'ECDSA', hash: 'SHA-256' },
  });
  const pem = `${csr.toString('pem')}\n`;
  const der = new Uint8Array(csr.rawData).slice();
  // The signature BIT STRING ends the DER: flipping its last byte keeps the structure intact.
  der[der.length - 1] = (der[der.length - 1] ?? 0) ^ 0xff;
  const badPem = `${x509.PemConverter.encode(der.buffer, 'CERTIFICATE REQUEST')}\n`;
  return { pem, request: base64(pem), badSignature: base64(badPem) };
}
