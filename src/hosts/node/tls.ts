/**
 * What the Node host's TLS layer tells the core about a connection. The
 * server asks every client for a certificate, naming the CAs it trusts, but
 * accepts any (as the real server's `RequestClientCert` with its ClientCAs
 * does): the core verifies the chain against
 * the CAs its configuration names (`--client-ca-file`, the request-header
 * CA), so this side only hands over the raw DER chain, leaf first.
 */

import type { IncomingMessage } from 'node:http';
import type { DetailedPeerCertificate, TLSSocket } from 'node:tls';
import type { ConnectionInfo } from '../../api/connection';

/** The certificates the peer presented (and those Node could link to them), DER, leaf first, ending at a self-issued one. */
export function peerChain(socket: TLSSocket): Uint8Array[] {
  const chain: Uint8Array[] = [];
  // getPeerCertificate answers `{}` when the client sent no certificate.
  let cert: DetailedPeerCertificate | undefined = socket.getPeerCertificate(true);
  const seen = new Set<string>();
  while (cert?.raw !== undefined && !seen.has(cert.fingerprint256)) {
    seen.add(cert.fingerprint256);
    chain.push(new Uint8Array(cert.raw));
    const issuer: DetailedPeerCertificate | undefined = cert.issuerCertificate;
    // Node points a root's issuer at itself; a self-issued certificate ends the chain either way.
    if (issuer === undefined || issuer === cert || cert.issuer === undefined || selfIssued(cert)) break;
    cert = issuer;
  }
  return chain;
}

function selfIssued(cert: DetailedPeerCertificate): boolean {
  return JSON.stringify(cert.subject) === JSON.stringify(cert.issuer);
}

/** Chains are per connection: worked out once per socket, not per request on a keep-alive connection. */
const chains = new WeakMap<TLSSocket, Uint8Array[]>();

/** What the core is told about a connection: the peer's address and, over TLS, its certificate chain. */
export function connectionOf(incoming: { socket: IncomingMessage['socket'] }): ConnectionInfo {
  const socket = incoming.socket;
  const remote =
    socket.remoteAddress !== undefined
      ? {
          remote: {
            address: socket.remoteAddress,
            ...(socket.remotePort !== undefined ? { port: socket.remotePort } : {}),
          },
        }
      : {};
  const tls = socket as TLSSocket;
  if (tls.encrypted !== true) return { ...remote, secure: false };
  let chain = chains.get(tls);
  if (chain === undefined) {
    chain = peerChain(tls);
    chains.set(tls, chain);
  }
  return { ...remote, secure: true, ...(chain.length > 0 ? { peerCertificates: chain } : {}) };
}
