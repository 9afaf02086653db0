/**
 * The sandbox's PKI: key pairs, the cluster CA, serving and client
 * certificates, PEM, and chain verification with Go's error text. The
 * Node host uses it for its serving certificate and kubeconfig client
 * certificates, the authenticators for `--client-ca-file` and the front
 * proxy, and the CSR signer (later) to sign requested public keys.
 */

export * from './pem';
export * from './keys';
export * from './issue';
export * from './verify';
export {
  x509,
  x509Library,
  type X509Certificate,
  type Pkcs10CertificateRequest,
  type PublicKey,
} from './x509';
