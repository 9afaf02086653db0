/**
 * How long a connection may sit idle and a request may take to arrive, as
 * the real server's `http.Server` sets them (`secure_serving.go`): an idle
 * keep-alive connection closes after 90 s (`IdleTimeout`, which matches
 * clients' own keep-alive, so that they close first), request headers must
 * arrive within 32 s (`ReadHeaderTimeout`). Go bounds the handler rather
 * than the read of the body (`--request-timeout`, 60 s); here the whole
 * request must arrive within that time, and one that does not is answered
 * 408 and closed (`raw-target.ts`) instead of holding a request in flight.
 * Node counts every header; Go has no limit on their number either.
 *
 * Go closes a connection for idleness only while no request is arriving.
 * Node's idle timer is a timer: when the event loop was busy past it, it
 * fires before the bytes of the next request, already in the socket, are
 * read, and the client gets a reset for a request it sent. So the idle
 * timer only asks; the connection closes after the loop has read what
 * arrived, and only if nothing did.
 */

import type { Server } from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionTimeouts {
  /** Idle keep-alive connections close after this long. */
  idleMs: number;
  /** Request line and headers must arrive within this long. */
  headersMs: number;
  /** The whole request (headers and body) must arrive within this long. */
  requestMs: number;
}

export const realServerTimeouts: ConnectionTimeouts = {
  idleMs: 90_000,
  headersMs: 32_000,
  requestMs: 60_000,
};

/** `createServer` options that only exist there: how often Node checks the header and request deadlines. */
export function timeoutServerOptions(t: ConnectionTimeouts): { connectionsCheckingInterval: number } {
  return { connectionsCheckingInterval: Math.max(10, Math.min(5_000, Math.floor(t.requestMs / 4))) };
}

export function applyConnectionTimeouts(server: Server, t: ConnectionTimeouts): void {
  server.keepAliveTimeout = t.idleMs;
  server.requestTimeout = t.requestMs;
  // Node refuses a header deadline later than the request's.
  server.headersTimeout = Math.min(t.headersMs, t.requestMs);
  server.maxHeadersCount = 0;
  // With a listener, Node leaves a timed-out socket to it instead of destroying it at once.
  server.on('timeout', closeIfStillIdle);
}

/** The idle timer fired: close after this turn's reads, unless a request started arriving meanwhile. */
function closeIfStillIdle(socket: Socket): void {
  const read = socket.bytesRead;
  setImmediate(() => {
    if (socket.destroyed || socket.bytesRead !== read) return;
    if ((socket as Socket & { _httpMessage?: unknown })._httpMessage) return;
    socket.destroy();
  });
}
