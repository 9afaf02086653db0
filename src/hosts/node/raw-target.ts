/**
 * The Node host's side of request-target fidelity. Go's HTTP server hands
 * the kube-apiserver the path exactly as the client sent it; a WHATWG URL
 * does not (it removes `.`/`..` segments, `%2e` spellings included, reads
 * `\` as `/` and cuts at `#`). Before the adapter builds its `Request`, the
 * raw target is rewritten so that the URL it builds decodes to what the
 * client sent; and what Node's own HTTP parser refuses before the server
 * sees it is answered with a Status body, as every other error is.
 */

import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { escapeDotSegments } from '../../machinery/decode/request-target';

/**
 * The request target with the characters a WHATWG URL would reinterpret
 * percent-encoded (`\` and `#`, which Go keeps as part of the path or query)
 * and dot segments marked for the request-info parser.
 */
export function preserveRawTarget(target: string): string {
  // An absolute-form target (`GET http://host/path`) keeps its authority; only what follows is rewritten.
  const authority = /^https?:\/\/[^/?#]*/i.exec(target)?.[0] ?? '';
  const rest = target.slice(authority.length);
  const escaped = rest.replace(/[\\#]/g, (c) => (c === '\\' ? '%5C' : '%23'));
  return authority + escapeDotSegments(escaped);
}

/** Rewrites `incoming.url` in place (before the adapter reads it). */
export function rewriteIncomingTarget(incoming: IncomingMessage): void {
  if (incoming.url !== undefined) incoming.url = preserveRawTarget(incoming.url);
}

/** Go's `net/http` default (`DefaultMaxHeaderBytes`), which the kube-apiserver keeps: 1 MiB of request line and headers. */
export const maxHeaderBytes = 1 << 20;

/** A Status object's JSON text. */
export function statusBody(code: number, reason: string, message: string): string {
  return `${JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code })}\n`;
}

/** A complete HTTP/1.1 response carrying a Status; the connection closes after it. */
export function rawStatusResponse(code: number, statusText: string, reason: string, message: string): string {
  const body = statusBody(code, reason, message);
  return (
    `HTTP/1.1 ${code} ${statusText}\r\n` +
    'Content-Type: application/json\r\n' +
    'Cache-Control: no-cache, private\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Connection: close\r\n\r\n' +
    body
  );
}

interface ParserError extends Error {
  code?: string;
  reason?: string;
}

/**
 * The `clientError` listener: Node's HTTP parser refused the request (a raw
 * non-ASCII byte or a control character in the target, a malformed header,
 * request line and headers over the limit). Answered as 400 (431 for the
 * size) with a Status body instead of Node's empty one.
 */
export function answerClientError(error: ParserError, socket: Socket): void {
  const inFlight = (socket as Socket & { _httpMessage?: NodeJS.EventEmitter | null })._httpMessage;
  if (inFlight !== undefined && inFlight !== null) {
    // Bytes after a complete request (a DELETE with an unframed body) are garbage for the next one;
    // the request before them is being served, and its client must get its answer, not a 400.
    inFlight.once('finish', () => socket.destroySoon());
    inFlight.once('close', () => socket.destroySoon());
    return;
  }
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  let response: string;
  if (error.code === 'HPE_HEADER_OVERFLOW')
    response = rawStatusResponse(
      431,
      'Request Header Fields Too Large',
      'RequestHeaderFieldsTooLarge',
      `Request Header Fields Too Large: request line and headers exceed ${maxHeaderBytes} bytes`,
    );
  else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    response = rawStatusResponse(408, 'Request Timeout', 'Timeout', 'the request was not received in time');
  else
    response = rawStatusResponse(
      400,
      'Bad Request',
      'BadRequest',
      `malformed HTTP request: ${error.reason ?? error.message}`,
    );
  // Keep reading what the client is still sending: closing with unread bytes resets the connection, and the
  // client would lose the answer. A client that never stops is cut off after a few seconds.
  socket.on('data', () => undefined);
  socket.resume();
  setTimeout(() => socket.destroy(), 5000).unref();
  socket.end(response);
}
