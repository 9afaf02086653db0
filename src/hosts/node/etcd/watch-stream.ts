/**
 * One etcd watch as a gRPC stream on the KV client's session: the create
 * request for a key range from a revision, then every framed WatchResponse
 * decoded in order. The store's commit feed keeps one open for its life
 * (commit-feed.ts) and history reads open one from a past revision until
 * they have what they asked for (history.ts); both read the same frames, so
 * the framing and the stream's end are handled here once.
 */

import { decodeDetails, frameOf, GrpcError, type EtcdKvClient } from './kv-client';
import { decodeWatchResponse, encodeWatchCreate, type WatchResponse } from './kv-wire';

export interface WatchHandlers {
  /** Each answer in order; none after `close()`. */
  onResponse(response: WatchResponse): void;
  /** The stream ended without `close()`: a lost connection or member, or a gRPC error status. */
  onEnd(error: GrpcError): void;
}

export interface WatchStream {
  close(): void;
}

/** Opens a watch on `[range.start, range.end)` from `startRevision`, with previous values; throws if the client is closed. */
export function openWatch(
  kv: EtcdKvClient,
  range: { start: string; end: string },
  startRevision: number,
  handlers: WatchHandlers,
): WatchStream {
  const stream = kv.stream('/etcdserverpb.Watch/Watch');
  let closed = false;
  let unread: Buffer = Buffer.alloc(0);
  let status: GrpcError | undefined;
  const readStatus = (headers: Record<string, unknown>): void => {
    const code = headers['grpc-status'];
    if (typeof code === 'string' && code !== '0')
      status = new GrpcError(Number(code), decodeDetails(headers['grpc-message']), true);
  };
  stream.on('response', readStatus);
  stream.on('trailers', readStatus);
  stream.on('data', (chunk: Buffer) => {
    unread = unread.length === 0 ? chunk : Buffer.concat([unread, chunk]);
    while (!closed && unread.length >= 5) {
      const end = 5 + unread.readUInt32BE(1);
      if (unread.length < end) break;
      const response = decodeWatchResponse(unread.subarray(5, end));
      unread = unread.subarray(end);
      handlers.onResponse(response);
    }
  });
  let failure = '';
  stream.on('error', (error: Error) => {
    failure = error.message;
  });
  stream.on('close', () => {
    if (closed) return;
    closed = true;
    handlers.onEnd(status ?? new GrpcError(14, failure || 'the etcd watch stream ended', false));
  });
  stream.write(frameOf(encodeWatchCreate(Buffer.from(range.start), Buffer.from(range.end), startRevision)));
  return {
    close: () => {
      if (closed) return;
      closed = true;
      stream.close();
    },
  };
}
