/**
 * The one door to `@peculiar/x509`. The library's ASN.1 schema decorators
 * need the `reflect-metadata` polyfill loaded before its own module body
 * runs, so every file in the project that wants X.509 parsing or
 * generation imports from here; importing the library directly elsewhere
 * could evaluate it before the polyfill and fail at load time.
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
