/**
 * The UI's door to `@peculiar/x509` (the UI may not import the server's
 * wrapper in src/auth/pki): the library's ASN.1 decorators need the
 * `reflect-metadata` polyfill evaluated before its own module body, so the
 * certificate screens import the library only through this module.
 */

import 'reflect-metadata';

export {
  BasicConstraintsExtension,
  ExtendedKeyUsage,
  ExtendedKeyUsageExtension,
  KeyUsageFlags,
  KeyUsagesExtension,
  Name,
  PemConverter,
  Pkcs10CertificateRequest,
  Pkcs10CertificateRequestGenerator,
  SubjectAlternativeNameExtension,
  X509Certificate,
  X509CertificateGenerator,
} from '@peculiar/x509';
