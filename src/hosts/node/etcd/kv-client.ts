/**
 * The etcd store's one client: etcd's unary KV calls (Range, Txn, Compact)
 * and its watch streams as plain gRPC over one `node:http2` session. Through
 * the `etcd3` library (the store's client until decisions 0133 and 0135)
 * each call went through its connection pool and retry policies, grpc-js's
 * interceptor, resolving, retrying and load-balancing call layers, and the
 * generic protobuf codec: close to half of what etcd added to a create's
 * server CPU. The wire protocol is the same (etcd cannot tell them apart).
 *
 * What is kept from the etcd3/grpc-js behaviour: the servers are tried in
 * turn and a call that could not reach one is sent again to the next (up to
 * three attempts, as etcd3's retry policy); a connection waits at most the
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
}

export class EtcdKvClient {
  private session: ClientHttp2Session | undefined;
  private next = 0;
  private closed = false;
  /** Calls under way per session: a session holds the process open only while it has some, as a grpc-js channel. */
  private readonly pending = new WeakMap<ClientHttp2Session, number>();
  /** Why the last session failed, for the errors of calls that found no connection (as grpc-js words them). */
  private lastError = '';
  /** Sessions whose server sent its HTTP/2 settings: one that closes without them did not speak HTTP/2. */
  private readonly spoke = new WeakSet<ClientHttp2Session>();

  constructor(private readonly options: KvClientOptions) {}

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
   * A streaming call on the current session, its request open: the caller
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
    this.session?.close();
    this.session = undefined;
  }

  private async unary(path: string, message: Uint8Array): Promise<Buffer> {
    const frame = frameOf(message);
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.send(path, frame);
      } catch (error) {
        if (!(error instanceof GrpcError) || error.reached || attempt >= attempts || this.closed) throw error;
      }
    }
  }

  private send(path: string, frame: Buffer): Promise<Buffer> {
    if (this.closed) return Promise.reject(new GrpcError(1, 'the etcd client was closed', false));
    const session = this.connection();
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

  /** The open session, or a new one to the next server in turn. */
  private connection(): ClientHttp2Session {
    const current = this.session;
    if (current && !current.closed && !current.destroyed) return current;
    const servers = this.options.servers;
    const server = servers[this.next++ % servers.length] as string;
    // As etcd3: TLS whenever credentials are given, whatever the URL's scheme says.
    const url = this.options.tls ? server.replace(/^http:/, 'https:') : server;
    const session = connect(url, this.options.tls ?? {});
    this.session = session;
    const dial = setTimeout(() => session.destroy(new Error('dial timeout')), this.options.dialTimeoutMs);
    dial.unref();
    session.once('connect', () => clearTimeout(dial));
    session.once('remoteSettings', () => this.spoke.add(session));
    const forget = (): void => {
      clearTimeout(dial);
      if (this.session === session) this.session = undefined;
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
