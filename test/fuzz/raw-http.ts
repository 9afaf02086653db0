/**
 * Requests exactly as written: `fetch` (and any WHATWG URL) resolves `.`
 * and `..` segments and re-encodes the path before sending, which would
 * hide the very inputs the reliability tests and the fuzzer are about. Two
 * levels (both over TLS, as the host serves): `rawRequest` sends any path and headers through `node:https`
 * unchanged, and `rawSocket` writes arbitrary bytes (a request Node's own
 * client would refuse to send) and reads the whole response back.
 */

import { request as httpsRequest } from 'node:https';
import { connect } from 'node:tls';

/** The server's certificate is not what these helpers test: they speak TLS without checking it. */
const tlsOptions = { rejectUnauthorized: false } as const;

export interface RawResponse {
  status: number;
  /** Header values as the bytes on the wire (Node hands them over as Latin-1). */
  headers: Record<string, string | string[] | undefined>;
  text: string;
  bytes: Uint8Array;
  /** The body parsed as JSON, when it is JSON. */
  json: unknown;
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

export interface RawRequestOptions {
  body?: string | Uint8Array;
  headers?: Record<string, string>;
  /** Give up after this long (the request is aborted and reported as status 0). */
  timeoutMs?: number;
}

/** One request with the path sent verbatim. */
export function rawRequest(
  port: number,
  method: string,
  path: string,
  options: RawRequestOptions = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...options.headers };
    // Frame every body: Node sends a DELETE's body without length or chunking otherwise.
    if (options.body !== undefined && headers['content-length'] === undefined)
      headers['content-length'] = String(Buffer.byteLength(options.body));
    const req = httpsRequest(
      { host: '127.0.0.1', port, method, path, headers, agent: false, ...tlsOptions },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const bytes = Buffer.concat(chunks);
          const text = bytes.toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, bytes, json: parseJson(text) });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (options.timeoutMs !== undefined)
      req.setTimeout(options.timeoutMs, () => {
        req.destroy();
        resolve({ status: 0, headers: {}, text: '', bytes: new Uint8Array(), json: undefined });
      });
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/** Writes `bytes` on a fresh connection and parses the one response that comes back. */
export function rawSocket(port: number, bytes: string | Buffer): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', ...tlsOptions }, () => socket.write(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', (e: NodeJS.ErrnoException) => {
      // The server may close while we still write a huge head; what it answered is what counts.
      if (e.code !== 'ECONNRESET' && e.code !== 'EPIPE') reject(e);
    });
    socket.on('close', () => {
      const all = Buffer.concat(chunks).toString('latin1');
      const split = all.indexOf('\r\n\r\n');
      const head = split < 0 ? all : all.slice(0, split);
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      const headers: Record<string, string> = {};
      for (const line of head.split('\r\n').slice(1)) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      // Chunk sizes count bytes: undo the framing on the Latin-1 text, then read it as UTF-8.
      let latin1 = split < 0 ? '' : all.slice(split + 4);
      if (headers['transfer-encoding'] === 'chunked') latin1 = dechunk(latin1);
      const bytes = Buffer.from(latin1, 'latin1');
      const body = bytes.toString('utf8');
      resolve({ status, headers, text: body, bytes, json: parseJson(body) });
    });
  });
}

function dechunk(text: string): string {
  let out = '';
  let rest = text;
  for (;;) {
    const eol = rest.indexOf('\r\n');
    if (eol < 0) return out;
    const size = parseInt(rest.slice(0, eol), 16);
    if (!(size > 0)) return out;
    out += rest.slice(eol + 2, eol + 2 + size);
    rest = rest.slice(eol + 2 + size + 2);
  }
}
