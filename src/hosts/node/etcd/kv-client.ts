/**
 * The etcd store's one client: etcd's unary KV calls (Range, Txn, Compact)
 * and its watch streams as plain gRPC over `node:http2`, one session per
 * server, calls going round the servers (server-rotation.ts). Through
 * the `etcd3` library (the store's client until decisions 0133 and 0135)
 * each call went through its connection pool and retry policies, grpc-js's
 * interceptor, resolving, retrying and load-balancing call layers, and the
 * generic protobuf codec: close to half of what etcd added to a create's
 * server CPU. The wire protocol is the same (etcd cannot tell them apart).
 *
 * What is kept from the etcd3/grpc-js behaviour: a call that could not reach
 * a server is sent again to the next (up to three attempts, as etcd3's
 * retry policy); a connection waits at most the
 * dial timeout; answers larger than grpc-js's default 4 MiB receive limit
 * are refused; errors read as grpc-js's (`<code> <NAME>: <details>`), so the
 * store maps them as before.
 */

import {
  connect,
  type ClientHttp2Session,
  type ClientHttp2Stream,
  type SecureClientSessionOptions,
} from 'node:http2';
import {
  decodeCompactionResponse,
  decodeRangeResponse,
  decodeTxnResponse,
  encodeCompactionRequest,
  encodeRangeRequest,
  encodeTxnRequest,
  type CompactionRequest,
  type CompactionResponse,
  type RangeRequest,
  type RangeResponse,
  type TxnRequest,
  type TxnResponse,
} from './kv-wire';
import { ServerRotation } from './server-rotation';

/** grpc-js's default `grpc.max_receive_message_length`. */
const maxReceiveBytes = 4 * 1024 * 1024;
const attempts = 3;

const statusNames = [
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
];

/** A gRPC status other than OK; `reached` is false when no server answered (the call may be sent again). */
export class GrpcError extends Error {
  constructor(
    readonly code: number,
    details: string,
    readonly reached: boolean,
  ) {
    super(`${code} ${statusNames[code] ?? 'UNKNOWN'}: ${details}`);
  }
}

export interface KvClientOptions {
  servers: string[];
  dialTimeoutMs: number;
  tls?: Pick<SecureClientSessionOptions, 'ca' | 'cert' | 'key'>;
  /** How long a server a call could not reach is skipped (default 5 s). */
  restMs?: number;
}

export class EtcdKvClient {
  /** The open session of each server, by index in `options.servers`. */
  private readonly sessions: Array<ClientHttp2Session | undefined> = [];
  private readonly serverOf = new WeakMap<ClientHttp2Session, number>();
  private readonly rotation: ServerRotation;
  private closed = false;
  /** Calls under way per session: a session holds the process open only while it has some, as a grpc-js channel. */
  private readonly pending = new WeakMap<ClientHttp2Session, number>();
  /** Why the last session failed, for the errors of calls that found no connection (as grpc-js words them). */
  private lastError = '';
  /** Sessions whose server sent its HTTP/2 settings: one that closes without them did not speak HTTP/2. */
  private readonly spoke = new WeakSet<ClientHttp2Session>();

  constructor(private readonly options: KvClientOptions) {
    this.rotation = new ServerRotation(options.servers.length, options.restMs);
  }

  async range(request: RangeRequest): Promise<RangeResponse> {
    return decodeRangeResponse(await this.unary('/etcdserverpb.KV/Range', encodeRangeRequest(request)));
  }

  async txn(request: TxnRequest): Promise<TxnResponse> {
    return decodeTxnResponse(await this.unary('/etcdserverpb.KV/Txn', encodeTxnRequest(request)));
  }

  async compact(request: CompactionRequest): Promise<CompactionResponse> {
    return decodeCompactionResponse(
      await this.unary('/etcdserverpb.KV/Compact', encodeCompactionRequest(request)),
    );
  }

  /**
   * A streaming call on the next server's session, its request open: the caller
   * writes `frameOf` messages and reads framed answers (watch-stream.ts).
   */
  stream(path: string): ClientHttp2Stream {
    if (this.closed) throw new GrpcError(1, 'the etcd client was closed', false);
    const session = this.connection();
    this.hold(session);
    const stream = session.request(headersOf(path), { endStream: false });
    stream.once('close', () => this.release(session));
    return stream;
  }

  close(): void {
    this.closed = true;
    for (const session of this.sessions) session?.close();
    this.sessions.length = 0;
  }

  private async unary(path: string, message: Uint8Array): Promise<Buffer> {
    const frame = frameOf(message);
    for (let attempt = 1; ; attempt++) {
      if (this.closed) throw new GrpcError(1, 'the etcd client was closed', false);
      const session = this.connection();
      const server = this.serverOf.get(session) as number;
      try {
        const answer = await this.send(session, path, frame);
        this.rotation.answered(server);
        return answer;
      } catch (error) {
        if (!(error instanceof GrpcError) || error.reached) throw error;
        this.rotation.failed(server);
        if (attempt >= attempts || this.closed) throw error;
      }
    }
  }

  private send(session: ClientHttp2Session, path: string, frame: Buffer): Promise<Buffer> {
    this.hold(session);
    return new Promise<Buffer>((resolve, reject) => {
      let answered = false;
      let status: string | undefined;
      let details = '';
      const chunks: Buffer[] = [];
      let received = 0;
      const readStatus = (headers: Record<string, unknown>): void => {
        const value = headers['grpc-status'];
        if (typeof value !== 'string') return;
        status = value;
        details = decodeDetails(headers['grpc-message']);
      };
      const stream = session.request(headersOf(path), { endStream: false });
      stream.on('response', (headers) => {
        answered = true;
        readStatus(headers);
      });
      stream.on('trailers', (trailers) => readStatus(trailers));
      stream.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > maxReceiveBytes + 5) {
          stream.close();
          status = '8';
          details = `Received message larger than max (${received - 5} vs ${maxReceiveBytes})`;
          return;
        }
        chunks.push(chunk);
      });
      let failure = '';
      stream.on('error', (error: Error) => {
        failure = error.message;
      });
      stream.on('close', () => {
        if (status === undefined) {
          const reason = answered
            ? 'the stream ended without a status'
            : `No connection established. Last error: ${failure || this.lastError || this.silence(session)}`;
          reject(new GrpcError(14, reason, answered));
          return;
        }
        if (status !== '0') {
          reject(new GrpcError(Number(status), details, true));
          return;
        }
        const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
        if (body.length < 5 || body[0] !== 0) {
          reject(new GrpcError(13, 'etcd answered no uncompressed message', true));
          return;
        }
        resolve(body.subarray(5, 5 + body.readUInt32BE(1)));
      });
      stream.end(frame);
    }).finally(() => this.release(session));
  }

  /** Why a call ended on a session that reported no error: a server that never spoke HTTP/2 is named as such. */
  private silence(session: ClientHttp2Session): string {
    if (this.spoke.has(session)) return 'the connection closed';
    // A member serving TLS answers a plain-text HTTP/2 preface with an HTTP/1 400 that Node's client drops silently.
    return this.options.tls
      ? 'the server closed the connection without speaking HTTP/2'
      : 'the server closed the connection without speaking HTTP/2 (a member that serves TLS needs --etcd-cafile)';
  }

  private hold(session: ClientHttp2Session): void {
    this.pending.set(session, (this.pending.get(session) ?? 0) + 1);
    session.ref();
  }

  private release(session: ClientHttp2Session): void {
    const left = (this.pending.get(session) ?? 1) - 1;
    this.pending.set(session, left);
    if (left === 0 && !session.destroyed) session.unref();
  }

  /** The next server's open session, or a new one to it. */
  private connection(): ClientHttp2Session {
    const index = this.rotation.pick();
    const current = this.sessions[index];
    if (current && !current.closed && !current.destroyed) return current;
    const server = this.options.servers[index] as string;
    // As etcd3: TLS whenever credentials are given, whatever the URL's scheme says.
    const url = this.options.tls ? server.replace(/^http:/, 'https:') : server;
    const session = connect(url, this.options.tls ?? {});
    this.sessions[index] = session;
    this.serverOf.set(session, index);
    const dial = setTimeout(() => session.destroy(new Error('dial timeout')), this.options.dialTimeoutMs);
    dial.unref();
    session.once('connect', () => clearTimeout(dial));
    session.once('remoteSettings', () => this.spoke.add(session));
    const forget = (): void => {
      clearTimeout(dial);
      if (this.sessions[index] === session) this.sessions[index] = undefined;
    };
    session.on('error', (error: Error) => {
      this.lastError = error.message;
      forget();
    });
    session.on('goaway', forget);
    session.on('close', forget);
    session.unref();
    return session;
  }
}

/** A gRPC message frame: uncompressed, its length, the message. */
export function frameOf(message: Uint8Array): Buffer {
  const frame = Buffer.allocUnsafe(5 + message.length);
  frame[0] = 0;
  frame.writeUInt32BE(message.length, 1);
  frame.set(message, 5);
  return frame;
}

function headersOf(path: string): Record<string, string> {
  return { ':method': 'POST', ':path': path, 'content-type': 'application/grpc', te: 'trailers' };
}

/** grpc-message is percent-encoded (gRPC over HTTP/2). */
export function decodeDetails(value: unknown): string {
  if (typeof value !== 'string') return '';
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
