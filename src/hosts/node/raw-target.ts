/**
 * The Node host's side of request-target fidelity. Go's HTTP server hands
 * the kube-apiserver the path exactly as the client sent it; a WHATWG URL
 * does not (it removes `.`/`..` segments, `%2e` spellings included, reads
 * `\` as `/` and cuts at `#`). Before the adapter builds its `Request`, the
 * raw target is rewritten so that the URL it builds decodes to what the
 * client sent; and what Node's own HTTP parser refuses — before the server
 * sees the request, or in the body of a request already being served (a
 * malformed chunk, a body that did not arrive in time) — is answered with a
 * Status body, as every other error is, and the connection closed.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
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

/** A complete HTTP/1.1 response carrying a Status (no body for HEAD); the connection closes after it. */
export function rawStatusResponse(
  code: number,
  statusText: string,
  reason: string,
  message: string,
  head = false,
): string {
  const body = statusBody(code, reason, message);
  return (
    `HTTP/1.1 ${code} ${statusText}\r\n` +
    'Content-Type: application/json\r\n' +
    'Cache-Control: no-cache, private\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Connection: close\r\n\r\n' +
    (head ? '' : body)
  );
}

interface ParserError extends Error {
  code?: string;
  reason?: string;
  /** The bytes the parser stopped at (Node sets it on parse errors). */
  rawPacket?: Buffer;
}

/** The Status a parser refusal is answered with. */
function refusalOf(error: ParserError): {
  code: number;
  statusText: string;
  reason: string;
  message: string;
} {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        code: 431,
        statusText: 'Request Header Fields Too Large',
        reason: 'RequestHeaderFieldsTooLarge',
        message: `Request Header Fields Too Large: request line and headers exceed ${maxHeaderBytes} bytes`,
      };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return {
        code: 413,
        statusText: 'Payload Too Large',
        reason: 'RequestEntityTooLarge',
        message: 'Request entity too large: chunk extensions too large',
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        code: 408,
        statusText: 'Request Timeout',
        reason: 'Timeout',
        message: 'the request was not received in time',
      };
    default:
      return {
        code: 400,
        statusText: 'Bad Request',
        reason: 'BadRequest',
        message: `malformed HTTP request: ${error.reason ?? error.message}`,
      };
  }
}

/** Responses the host answered itself (a refused body): the server's own answer, when it comes, is dropped. */
const answeredByHost = new WeakSet<ServerResponse>();

/** Whether the host already answered this response (see `answerClientError`). */
export function answeredByTheHost(outgoing: ServerResponse): boolean {
  return answeredByHost.has(outgoing);
}

/** Sockets whose refusal was already answered: the parser reports every later byte as an error again. */
const refused = new WeakSet<Socket>();

/**
 * Keeps reading what the client is still sending (closing with unread bytes resets the connection, and
 * the client would lose the answer) until the answer is written, then closes; a client that never stops is
 * cut off after a few seconds.
 */
function drainThenClose(socket: Socket): void {
  socket.on('data', () => undefined);
  socket.resume();
  setTimeout(() => socket.destroy(), 5000).unref();
}

/** Bytes a TLS socket handed over while Node had paused its parser, per socket, in arrival order. */
const heldWhilePaused = new WeakMap<Socket, Buffer[]>();

/**
 * Pipelining over TLS: when answers queue up, Node pauses the socket and its parser, but a TLS socket can
 * still deliver the records it had already decrypted, and the paused parser refuses them (`HPE_PAUSED`)
 * without reading a byte — Node would then close the connection with the requests before them unanswered
 * and whatever those wrote unreported. Go's server reads on. Here the bytes are held, in order, and put back
 * in front of the socket's buffer when Node resumes it (its parser first), so they are parsed in sequence.
 */
function holdWhileParserPaused(error: ParserError, socket: Socket): boolean {
  const paused = (socket as Socket & { _paused?: boolean })._paused === true;
  if (error.code !== 'HPE_PAUSED' || !paused || error.rawPacket === undefined) return false;
  let held = heldWhilePaused.get(socket);
  if (held === undefined) {
    const queue: Buffer[] = [];
    held = queue;
    heldWhilePaused.set(socket, queue);
    socket.once('resume', () => {
      heldWhilePaused.delete(socket);
      socket.unshift(Buffer.concat(queue));
    });
  }
  // The parser was paused before this chunk began (Node pauses it only between chunks): none of it was read.
  held.push(error.rawPacket);
  return true;
}

/**
 * The `clientError` listener: Node's HTTP parser refused the request (a raw
 * non-ASCII byte or a control character in the target, a malformed header,
 * request line and headers over the limit, a malformed chunk of a body being
 * read, a request that did not arrive within the time allowed). Answered
 * with a Status (431 for the size, 408 for the time, else 400) instead of
 * Node's empty one, without a body for a HEAD request, and the connection
 * closed. A request whose body failed is answered in place of the server,
 * whose handler is aborted.
 */
export function answerClientError(error: ParserError, socket: Socket): void {
  if (holdWhileParserPaused(error, socket)) return;
  if (refused.has(socket)) return;
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (inFlight !== undefined && inFlight !== null) {
    const incoming = inFlight.req as IncomingMessage | undefined;
    if (incoming !== undefined && !incoming.complete) {
      refused.add(socket);
      answerInFlight(error, socket, inFlight, incoming);
      return;
    }
    // Bytes after a complete request (a DELETE with an unframed body) are garbage for the next one;
    // the request before them is being served, and its client must get its answer, not a 400. Once: Node
    // may report the same socket again (every deadline check while a long answer is written), and each
    // report would add listeners to the answer (MaxListenersExceededWarning under 1,000 watchers).
    refused.add(socket);
    inFlight.once('finish', () => socket.destroySoon());
    inFlight.once('close', () => socket.destroySoon());
    return;
  }
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  refused.add(socket);
  const r = refusalOf(error);
  const head = (error.rawPacket?.subarray(0, 5).toString('latin1') ?? '') === 'HEAD ';
  drainThenClose(socket);
  socket.end(rawStatusResponse(r.code, r.statusText, r.reason, r.message, head));
}

/**
 * The body of a request being served failed to arrive whole: the host answers in the server's place, on
 * the socket itself (the response object would close the socket as soon as the answer is written, and a
 * client still sending would then get a reset instead of the answer). The handler's read of the body fails
 * when the connection closes, and its own answer is dropped (see `answeredByTheHost`).
 */
function answerInFlight(
  error: ParserError,
  socket: Socket,
  outgoing: ServerResponse,
  incoming: IncomingMessage,
): void {
  answeredByHost.add(outgoing);
  if (outgoing.headersSent || !socket.writable) {
    socket.destroy();
    return;
  }
  const r = refusalOf(error);
  drainThenClose(socket);
  socket.end(rawStatusResponse(r.code, r.statusText, r.reason, r.message, incoming.method === 'HEAD'));
}
