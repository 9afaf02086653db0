/**
 * The server side of a SPDY/3.1 connection, as kubectl's exec uses it
 * (client-go over moby/spdystream): the client opens streams (SYN_STREAM,
 * headers compressed with zlib and the SPDY dictionary, one compression
 * context per direction for the whole connection), the server accepts each
 * (SYN_REPLY), both send DATA frames, and a FIN flag half-closes a stream.
 * PINGs are answered; SETTINGS and WINDOW_UPDATE are read and ignored (the
 * exec streams are small and spdystream does no flow control either).
 * Header blocks the server sends are zlib "stored" blocks, each followed
 * by the empty block a sync flush writes, which every inflater reads
 * without a dictionary lookup.
 */

import type { Socket } from 'node:net';
import { constants, inflateSync } from 'node:zlib';
import { spdyDictionary } from './spdy-dictionary';

const controlBit = 0x80;
const version = 3;
const FrameType = {
  SynStream: 1,
  SynReply: 2,
  RstStream: 3,
  Ping: 6,
  GoAway: 7,
  Headers: 8,
} as const;
const flagFin = 0x01;

export interface SpdyStream {
  id: number;
  headers: Map<string, string>;
  /** Data the client sent on the stream. */
  onData?: (chunk: Buffer) => void;
  /** The client half-closed the stream (FIN) or reset it. */
  onEnd?: () => void;
  ended: boolean;
}

export interface SpdyHandlers {
  /** A stream the client opened (already accepted). */
  stream(stream: SpdyStream): void;
  /** The connection closed (GOAWAY, or the socket). */
  closed(): void;
}

/** Header names and values in SPDY's name/value block layout (uncompressed). */
function encodeHeaders(headers: Record<string, string>): Buffer {
  const parts: Buffer[] = [u32(Object.keys(headers).length)];
  for (const [k, v] of Object.entries(headers)) {
    const name = Buffer.from(k.toLowerCase(), 'utf8');
    const value = Buffer.from(v, 'utf8');
    parts.push(u32(name.length), name, u32(value.length), value);
  }
  return Buffer.concat(parts);
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
}

function decodeHeaders(block: Buffer): { headers: Map<string, string>; used: number } {
  const headers = new Map<string, string>();
  let at = 0;
  const count = block.readUInt32BE(at);
  at += 4;
  for (let i = 0; i < count; i++) {
    const nameLength = block.readUInt32BE(at);
    at += 4;
    const name = block
      .subarray(at, at + nameLength)
      .toString('utf8')
      .toLowerCase();
    at += nameLength;
    const valueLength = block.readUInt32BE(at);
    at += 4;
    // Several values of one name are separated by NUL bytes; the first is enough here.
    const value =
      block
        .subarray(at, at + valueLength)
        .toString('utf8')
        .split('\0')[0] ?? '';
    at += valueLength;
    headers.set(name, value);
  }
  return { headers, used: at };
}

export class SpdyConnection {
  private buffer: Buffer = Buffer.alloc(0);
  private readonly streams = new Map<number, SpdyStream>();
  /** Everything the peer's header compressor produced so far, and how much of its output was read. */
  private inflateInput: Buffer = Buffer.alloc(0);
  private inflatedUsed = 0;
  private wroteZlibHeader = false;
  private closed = false;
  private lastStream = 0;

  constructor(
    private readonly socket: Socket,
    private readonly handlers: SpdyHandlers,
  ) {
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('close', () => this.shutdown());
    socket.on('error', () => this.shutdown());
  }

  /** Feeds bytes that arrived with the upgrade request. */
  receive(chunk: Buffer): void {
    if (this.closed) return;
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    try {
      while (this.buffer.length >= 8) {
        const length = this.buffer.readUIntBE(5, 3);
        if (this.buffer.length < 8 + length) break;
        const frame = this.buffer.subarray(0, 8 + length);
        this.buffer = this.buffer.subarray(8 + length);
        this.frame(frame);
      }
    } catch {
      // A frame that cannot be read: the connection is not SPDY as we speak it.
      this.goAway(1);
    }
  }

  /** Writes data on a stream (in frames of at most 32 KiB). */
  write(stream: SpdyStream, data: Uint8Array): void {
    for (let at = 0; at < data.length; at += 32_768)
      this.dataFrame(stream.id, Buffer.from(data.subarray(at, at + 32_768)), false);
  }

  /** Half-closes a stream from the server's side. */
  end(stream: SpdyStream): void {
    this.dataFrame(stream.id, Buffer.alloc(0), true);
  }

  /** Ends the connection: GOAWAY, then the socket once written. */
  goAway(status = 0): void {
    if (this.closed) return;
    const payload = Buffer.concat([u32(this.lastStream), u32(status)]);
    this.control(FrameType.GoAway, 0, payload);
    this.socket.end();
    this.shutdown();
  }

  private shutdown(): void {
    if (this.closed) return;
    this.closed = true;
    for (const s of this.streams.values()) this.endStream(s);
    this.handlers.closed();
  }

  private frame(frame: Buffer): void {
    const flags = frame[4] ?? 0;
    const payload = frame.subarray(8);
    if (((frame[0] ?? 0) & controlBit) === 0) {
      const id = frame.readUInt32BE(0) & 0x7fffffff;
      const stream = this.streams.get(id);
      if (stream === undefined) return;
      if (payload.length > 0) stream.onData?.(Buffer.from(payload));
      if ((flags & flagFin) !== 0) this.endStream(stream);
      return;
    }
    const type = frame.readUInt16BE(2);
    switch (type) {
      case FrameType.SynStream: {
        const id = payload.readUInt32BE(0) & 0x7fffffff;
        const { headers } = decodeHeaders(this.inflate(payload.subarray(10)));
        const stream: SpdyStream = { id, headers, ended: false };
        this.streams.set(id, stream);
        this.lastStream = Math.max(this.lastStream, id);
        this.control(FrameType.SynReply, 0, Buffer.concat([u32(id), this.deflate(encodeHeaders({}))]));
        this.handlers.stream(stream);
        if ((flags & flagFin) !== 0) this.endStream(stream);
        return;
      }
      case FrameType.Headers:
        this.inflate(payload.subarray(4));
        return;
      case FrameType.RstStream: {
        const stream = this.streams.get(payload.readUInt32BE(0) & 0x7fffffff);
        if (stream !== undefined) this.endStream(stream);
        return;
      }
      case FrameType.Ping:
        this.control(FrameType.Ping, 0, payload);
        return;
      case FrameType.GoAway:
        this.socket.end();
        this.shutdown();
        return;
      default:
        // SETTINGS, WINDOW_UPDATE, SYN_REPLY: nothing to do.
        return;
    }
  }

  private endStream(stream: SpdyStream): void {
    if (stream.ended) return;
    stream.ended = true;
    stream.onEnd?.();
  }

  /** The plain header block of one frame, read from the peer's single compression stream. */
  private inflate(compressed: Buffer): Buffer {
    this.inflateInput = Buffer.concat([this.inflateInput, compressed]);
    const all = inflateSync(this.inflateInput, {
      dictionary: spdyDictionary,
      finishFlush: constants.Z_SYNC_FLUSH,
    });
    const block = all.subarray(this.inflatedUsed);
    this.inflatedUsed = all.length;
    return block;
  }

  /** A header block as zlib stored blocks: the stream's header first, then each block byte-aligned. */
  private deflate(plain: Buffer): Buffer {
    const parts: Buffer[] = [];
    if (!this.wroteZlibHeader) {
      // CMF 0x78 (deflate, 32K window), FLG 0x01: no preset dictionary, check bits valid.
      parts.push(Buffer.from([0x78, 0x01]));
      this.wroteZlibHeader = true;
    }
    const length = Buffer.alloc(5);
    length[0] = 0x00; // BFINAL 0, BTYPE 00 (stored)
    length.writeUInt16LE(plain.length, 1);
    length.writeUInt16LE(~plain.length & 0xffff, 3);
    // An empty stored block after it, as a sync flush ends: an inflater hands the block out without reading on.
    parts.push(length, plain, Buffer.from([0x00, 0x00, 0x00, 0xff, 0xff]));
    return Buffer.concat(parts);
  }

  private control(type: number, flags: number, payload: Buffer): void {
    if (this.socket.destroyed) return;
    const head = Buffer.alloc(8);
    head[0] = controlBit;
    head[1] = version;
    head.writeUInt16BE(type, 2);
    head[4] = flags;
    head.writeUIntBE(payload.length, 5, 3);
    this.socket.write(Buffer.concat([head, payload]));
  }

  private dataFrame(id: number, data: Buffer, fin: boolean): void {
    if (this.socket.destroyed) return;
    const head = Buffer.alloc(8);
    head.writeUInt32BE(id & 0x7fffffff, 0);
    head[4] = fin ? flagFin : 0;
    head.writeUIntBE(data.length, 5, 3);
    this.socket.write(Buffer.concat([head, data]));
  }
}
