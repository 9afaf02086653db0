/**
 * What the server takes from `@peculiar/x509`, loaded on first use (see
 * machinery/lazy-module.ts and ./x509.ts): only requests that touch a
 * certificate or a certificate request need it. The library's ASN.1 schema
 * decorators need the `reflect-metadata` polyfill before its own module body
 * runs, hence the import first.
 */

import 'reflect-metadata';

export {
  AuthorityKeyIdentifierExtension,
  BasicConstraintsExtension,
  ExtendedKeyUsage,
  ExtendedKeyUsageExtension,
  Extension,
  KeyUsageFlags,
  KeyUsagesExtension,
  Name,
  PemConverter,
  Pkcs10CertificateRequest,
  Pkcs10CertificateRequestGenerator,
  PublicKey,
  SubjectAlternativeNameExtension,
  SubjectKeyIdentifierExtension,
  X509Certificate,
  X509CertificateGenerator,
} from '@peculiar/x509';
