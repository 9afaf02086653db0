/**
 * What a host knows about the connection a request came in on, handed to
 * the server core with each request: the peer's address and, over TLS with
 * a verified client certificate, the certificate chain (DER, leaf first).
 * Each host fills what it has; the browser host has no TLS peer. No Node or
 * DOM type enters the core through it.
 */

export interface ConnectionInfo {
  remote?: { address: string; port?: number };
  /** The client's certificate chain as verified by the host's TLS stack (DER bytes, leaf first). */
  peerCertificates?: readonly Uint8Array[];
  /** The connection used TLS. */
  secure?: boolean;
}
