/**
 * The server side of a WebSocket connection (RFC 6455), as the channel
 * protocols of exec use it (`v4.channel.k8s.io`, `v5.channel.k8s.io`): the
 * handshake's accept key, client frames (masked; fragmented messages
 * joined; ping answered with pong; close answered with close) and
 * unmasked binary frames from the server. Written here rather than taken
 * from a library: the server side of exactly this subset is small, and
 * the host would otherwise carry a dependency for it.
 */

import { createHash } from 'node:crypto';
import type { Socket } from 'node:net';

const guid = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

/** The `Sec-WebSocket-Accept` value for a client's `Sec-WebSocket-Key`. */
export function acceptKey(key: string): string {
  return createHash('sha1').update(`${key}${guid}`).digest('base64');
}

const Opcode = { continuation: 0, text: 1, binary: 2, close: 8, ping: 9, pong: 10 } as const;

export interface WebSocketHandlers {
  /** A whole message (binary or text) from the client. */
  message(data: Buffer): void;
  closed(): void;
}

export class WebSocketConnection {
  private buffer: Buffer = Buffer.alloc(0);
  private fragments: Buffer[] = [];
  private closed = false;

  constructor(
    private readonly socket: Socket,
    private readonly handlers: WebSocketHandlers,
  ) {
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('close', () => this.shutdown());
    socket.on('error', () => this.shutdown());
  }

  receive(chunk: Buffer): void {
    if (this.closed) return;
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const frame = this.nextFrame();
      if (frame === undefined) return;
      this.frame(frame.fin, frame.opcode, frame.payload);
      if (this.closed) return;
    }
  }

  /** Sends one binary message. */
  send(data: Uint8Array): void {
    this.writeFrame(Opcode.binary, Buffer.from(data));
  }

  /** Closes with a status code (1000: normal). */
  close(code = 1000): void {
    if (this.closed) return;
    const payload = Buffer.alloc(2);
    payload.writeUInt16BE(code);
    this.writeFrame(Opcode.close, payload);
    this.socket.end();
    this.shutdown();
  }

  private shutdown(): void {
    if (this.closed) return;
    this.closed = true;
    this.handlers.closed();
  }

  private nextFrame(): { fin: boolean; opcode: number; payload: Buffer } | undefined {
    const b = this.buffer;
    if (b.length < 2) return undefined;
    const fin = ((b[0] ?? 0) & 0x80) !== 0;
    const opcode = (b[0] ?? 0) & 0x0f;
    const masked = ((b[1] ?? 0) & 0x80) !== 0;
    let length = (b[1] ?? 0) & 0x7f;
    let at = 2;
    if (length === 126) {
      if (b.length < 4) return undefined;
      length = b.readUInt16BE(2);
      at = 4;
    } else if (length === 127) {
      if (b.length < 10) return undefined;
      length = Number(b.readBigUInt64BE(2));
      at = 10;
    }
    const maskAt = at;
    if (masked) at += 4;
    if (b.length < at + length) return undefined;
    const payload = Buffer.from(b.subarray(at, at + length));
    if (masked)
      for (let i = 0; i < payload.length; i++) payload[i] = (payload[i] ?? 0) ^ (b[maskAt + (i % 4)] ?? 0);
    this.buffer = b.subarray(at + length);
    return { fin, opcode, payload };
  }

  private frame(fin: boolean, opcode: number, payload: Buffer): void {
    switch (opcode) {
      case Opcode.ping:
        this.writeFrame(Opcode.pong, payload);
        return;
      case Opcode.pong:
        return;
      case Opcode.close:
        this.close(payload.length >= 2 ? payload.readUInt16BE(0) : 1000);
        return;
      case Opcode.text:
      case Opcode.binary:
      case Opcode.continuation: {
        this.fragments.push(payload);
        if (!fin) return;
        const message = Buffer.concat(this.fragments);
        this.fragments = [];
        this.handlers.message(message);
        return;
      }
      default:
        // An opcode this protocol does not define: a protocol error.
        this.close(1002);
    }
  }

  private writeFrame(opcode: number, payload: Buffer): void {
    if (this.socket.destroyed) return;
    let head: Buffer;
    if (payload.length < 126) head = Buffer.from([0x80 | opcode, payload.length]);
    else if (payload.length < 65536) {
      head = Buffer.alloc(4);
      head[0] = 0x80 | opcode;
      head[1] = 126;
      head.writeUInt16BE(payload.length, 2);
    } else {
      head = Buffer.alloc(10);
      head[0] = 0x80 | opcode;
      head[1] = 127;
      head.writeBigUInt64BE(BigInt(payload.length), 2);
    }
    this.socket.write(Buffer.concat([head, payload]));
  }
}
