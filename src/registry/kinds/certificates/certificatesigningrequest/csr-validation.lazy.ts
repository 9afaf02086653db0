/**
 * A CertificateSigningRequest's validation (its PEM request and signature,
 * signer name, usages, conditions, an issued certificate): loaded with the
 * first write of a CSR, never on the path to the worker's first response
 * (decision 0070, round 3).
 */

export { validateCertificateSigningRequest } from './validation';
