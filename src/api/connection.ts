/**
 * What a host knows about the connection a request came in on, handed to
 * the server core with each request: the peer's address and, over TLS with
 * a verified client certificate, the certificate chain (DER, leaf first),
 * and — when the request asks for it and the host can — a way to switch
 * the connection to a stream protocol (exec over SPDY or WebSocket). Each
 * host fills what it has; the browser host has no TLS peer and no sockets.
 * No Node or DOM type enters the core through it.
 */

import type { StreamSession } from './node-agent';

/** A stream the core accepts on an upgrade request: the host answers 101 and carries the session's channels. */
export interface UpgradeOffer {
  /** What the client asked to switch to (its `Upgrade` header). */
  protocol: 'SPDY/3.1' | 'websocket';
  /** The channel protocol agreed (`v4.channel.k8s.io`, …): `X-Stream-Protocol-Version` or the WebSocket subprotocol. */
  subprotocol: string;
  /** Which of the session's streams the client asked for. */
  streams: { stdin: boolean; stdout: boolean; stderr: boolean; tty: boolean };
  session: StreamSession;
}

export interface ConnectionInfo {
  remote?: { address: string; port?: number };
  /** The client's certificate chain as verified by the host's TLS stack (DER bytes, leaf first). */
  peerCertificates?: readonly Uint8Array[];
  /** The connection used TLS. */
  secure?: boolean;
  /**
   * Present when the host can switch this request's connection to a stream protocol (an HTTP/1.1 Upgrade):
   * the core calls it at most once, then its response is not sent (the host answers 101 instead).
   */
  upgrade?: (offer: UpgradeOffer) => void;
  /**
   * The in-process controller-manager's own client (no socket). kube-controller-manager drops
   * `metadata.managedFields` from every object its informers keep (kubernetes#118455, v1.28); its
   * metadata-only (PartialObjectMetadata) answers here are written without them, so that a wide object's
   * field sets (1.3 MB of JSON for a 100,000-key ConfigMap) are neither encoded nor parsed for a cache that
   * would drop them.
   */
  trimsManagedFields?: boolean;
  /**
   * The client is in this process and reads a JSON watch's events as objects beside the response
   * (machinery/watch-objects.ts) instead of decoding its bytes: the in-process controllers and simulated cluster.
   */
  watchEventsAsObjects?: boolean;
  /**
   * The in-process controllers' and simulated cluster's connection, which runs behind the clients' requests:
   * their lists, and in the browser host their watches' live events, wait for a pause in the clients' requests
   * (decisions 0106, 0111).
   */
  behindClients?: boolean;
}
