/**
 * Raw bytes over TLS to a test host, for what no HTTP client sends (a
 * malformed chunk, a body that stops, bytes that are not a request): the
 * response is read until the server closes the connection (or `waitMs`
 * passes) and parsed; `closedByServer` says which ended it. For several
 * requests on one connection, `collectRaw` keeps the bytes received so far.
 */

import { connect, type TLSSocket } from 'node:tls';

export interface RawExchange {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** The body bytes after the head, as Latin-1 (undecoded). */
  body: string;
  json: unknown;
  /** Whether the server closed the connection (rather than the wait running out). */
  closedByServer: boolean;
}

export function openRaw(port: number): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', rejectUnauthorized: false }, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** A raw connection that keeps every byte the server sent, for several exchanges on one socket. */
export interface RawConnection {
  socket: TLSSocket;
  /** Everything received so far, as Latin-1. */
  received(): string;
  /** How many response heads (`HTTP/1.1 ` at a line start) have arrived. */
  answered(): number;
  /** Whether the connection has closed (or failed). */
  closed(): boolean;
  /** Resolves once `n` responses have arrived or the connection closed, polling every `everyMs`. */
  responses(n: number, everyMs?: number): Promise<void>;
}

export async function collectRaw(port: number): Promise<RawConnection> {
  const socket = await openRaw(port);
  let received = '';
  let closed = false;
  socket.on('data', (c: Buffer) => (received += c.toString('latin1')));
  socket.on('close', () => (closed = true));
  socket.on('error', () => (closed = true));
  const answered = (): number => (received.match(/^HTTP\/1\.1 /gm) ?? []).length;
  return {
    socket,
    received: () => received,
    answered,
    closed: () => closed,
    async responses(n, everyMs = 5) {
      while (answered() < n && !closed) await new Promise((resolve) => setTimeout(resolve, everyMs));
    },
  };
}

/** Parses the first response of a byte stream. */
export function parseResponse(all: string): Omit<RawExchange, 'closedByServer'> {
  const split = all.indexOf('\r\n\r\n');
  const head = split < 0 ? all : all.slice(0, split);
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const body = split < 0 ? '' : all.slice(split + 4);
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), headers, body, json };
}

/** Writes `bytes` on a fresh connection and reads until the server closes it (or `waitMs`). */
export async function exchange(port: number, bytes: string | Buffer, waitMs = 10_000): Promise<RawExchange> {
  const socket = await openRaw(port);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let closedByServer = false;
    const timer = setTimeout(() => socket.destroy(), waitMs);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => {
      closedByServer = true;
    });
    socket.on('error', () => {
      closedByServer = true;
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ ...parseResponse(Buffer.concat(chunks).toString('latin1')), closedByServer });
    });
    socket.write(bytes);
  });
}
