/**
 * A certificate request as the built-in signers read it: Go's `ParseCSR`
 * (the first PEM block must be a `CERTIFICATE REQUEST`) and the few fields
 * of Go's `x509.CertificateRequest` the signer rules look at — the subject's
 * common name and organizations, and the subject alternative names sorted
 * by kind. SAN kinds Go does not surface (otherName, directoryName, …) are
 * skipped, as Go skips them.
 */

import { goPemDecode } from '../pki/go-pem';
import { ownBytes } from '../pki/pem';
import { type Pkcs10CertificateRequest, type SubjectAlternativeNameExtension, x509 } from '../pki/x509';

const subjectAltNameOid = '2.5.29.17';

export interface RequestView {
  csr: Pkcs10CertificateRequest;
  /** Go keeps the last CN of the subject. */
  commonName: string;
  organizations: string[];
  dnsNames: string[];
  emailAddresses: string[];
  ipAddresses: string[];
  uris: string[];
}

/**
 * Go's `certificates.ParseCSR` over PEM text, with its error text for a
 * wrong or missing block. The block is the one Go's PEM reader finds first,
 * as the registry's check of `spec.request` finds it, so every request the
 * registry admits parses here. (Text decoded from the stored bytes finds
 * the same block as the bytes: PEM's structure is ASCII.) The X.509 library
 * must be loaded (see ../pki/x509.ts).
 */
export function parseRequestPEM(pem: string): Pkcs10CertificateRequest {
  const block = goPemDecode(pem)?.block;
  if (block === undefined || block.type !== 'CERTIFICATE REQUEST')
    throw new Error('PEM block type must be CERTIFICATE REQUEST');
  const { Pkcs10CertificateRequest } = x509();
  try {
    return new Pkcs10CertificateRequest(ownBytes(block.bytes));
  } catch (e) {
    throw new Error(`x509: malformed certificate request: ${e instanceof Error ? e.message : String(e)}`);
  }
}

export function requestView(csr: Pkcs10CertificateRequest): RequestView {
  const SubjectAlternativeName = x509().SubjectAlternativeNameExtension;
  const view: RequestView = {
    csr,
    commonName: csr.subjectName.getField('CN').at(-1) ?? '',
    organizations: csr.subjectName.getField('O'),
    dnsNames: [],
    emailAddresses: [],
    ipAddresses: [],
    uris: [],
  };
  for (const ext of csr.extensions) {
    if (ext.type !== subjectAltNameOid) continue;
    let san: SubjectAlternativeNameExtension;
    try {
      san = new SubjectAlternativeName(ext.rawData);
    } catch {
      // A name kind the library cannot represent (otherName, X.400): Go ignores those too.
      continue;
    }
    for (const name of san.names.items) {
      if (name.type === 'dns') view.dnsNames.push(name.value);
      else if (name.type === 'email') view.emailAddresses.push(name.value);
      else if (name.type === 'ip') view.ipAddresses.push(name.value);
      else if (name.type === 'url') view.uris.push(name.value);
    }
  }
  return view;
}
