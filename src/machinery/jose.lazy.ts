/**
 * What the server takes from `jose`, loaded on first use (see
 * ./lazy-module.ts and ./jose.ts): only a service-account or OIDC
 * token to sign or verify, a signing key to make or read, or a bootstrap
 * token's signature needs it, and none of those is on the path to the
 * worker's first response (the sandbox's own identities use static tokens
 * and client certificates; the keys are made on first use, 0078, 0080).
 */

export {
  CompactSign,
  SignJWT,
  base64url,
  calculateJwkThumbprint,
  compactVerify,
  decodeProtectedHeader,
  exportJWK,
  exportPKCS8,
  exportSPKI,
  generateKeyPair,
  importJWK,
} from 'jose';
