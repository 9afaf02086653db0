/**
 * The one door to `@peculiar/x509`, which is loaded when first needed
 * (`x509Library`, see ./x509.lazy.ts): code awaits `x509Library.load()` at
 * its asynchronous entry point (a CSR's validation, the signer, a presented
 * client certificate, the cluster CA's creation) and then calls `x509()`
 * synchronously. The types are exported here for everyone, since they
 * vanish from the build. Importing the library directly elsewhere would put
 * it back on the service worker's path to its first response, and could
 * evaluate it before the `reflect-metadata` polyfill it needs.
 */

import { LazyModule } from '../../machinery/lazy-module';
import type * as Library from './x509.lazy';

export type {
  AuthorityKeyIdentifierExtension,
  BasicConstraintsExtension,
  ExtendedKeyUsageExtension,
  Extension,
  KeyUsagesExtension,
  Name,
  Pkcs10CertificateRequest,
  PublicKey,
  SubjectAlternativeNameExtension,
  SubjectKeyIdentifierExtension,
  X509Certificate,
} from './x509.lazy';

export type X509Library = typeof Library;

export const x509Library = new LazyModule<X509Library>('x509', () => import('./x509.lazy'));

/** The loaded library; throws when no caller awaited `x509Library.load()` first. */
export function x509(): X509Library {
  return x509Library.get();
}
