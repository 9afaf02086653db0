import { describe, expect, it } from 'vitest';
import { Duplex } from 'node:stream';
import type { Socket } from 'node:net';
import { constants, createDeflate, inflateSync } from 'node:zlib';
import { spdyDictionary } from './spdy-dictionary';
import { SpdyConnection, type SpdyStream } from './spdy';
import { acceptKey, WebSocketConnection } from './websocket';

/** A socket double: what the connection writes is collected; the test feeds what the client sends. */
function fakeSocket(): { socket: Socket; written: Buffer[] } {
  const written: Buffer[] = [];
  const duplex = new Duplex({
    read() {},
    write(chunk: Buffer, _e, done) {
      written.push(Buffer.from(chunk));
      done();
    },
  });
  return { socket: duplex as unknown as Socket, written };
}

function adler32(data: Buffer): number {
  let a = 1;
  let b = 0;
  for (const byte of data) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/** A header block as Go's framer compresses it: one zlib stream with the dictionary, sync-flushed per block. */
async function compressor(): Promise<(plain: Buffer) => Promise<Buffer>> {
  const deflate = createDeflate({ dictionary: spdyDictionary });
  const chunks: Buffer[] = [];
  deflate.on('data', (c: Buffer) => chunks.push(c));
  return (plain) =>
    new Promise((resolve) => {
      deflate.write(plain);
      deflate.flush(constants.Z_SYNC_FLUSH, () => resolve(Buffer.concat(chunks.splice(0))));
    });
}

function nameValueBlock(headers: Record<string, string>): Buffer {
  const parts: Buffer[] = [];
  const u32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n);
    return b;
  };
  parts.push(u32(Object.keys(headers).length));
  for (const [k, v] of Object.entries(headers))
    parts.push(u32(k.length), Buffer.from(k), u32(v.length), Buffer.from(v));
  return Buffer.concat(parts);
}

function synStream(id: number, block: Buffer): Buffer {
  const head = Buffer.alloc(8 + 10);
  head[0] = 0x80;
  head[1] = 3;
  head.writeUInt16BE(1, 2);
  head.writeUIntBE(10 + block.length, 5, 3);
  head.writeUInt32BE(id, 8);
  return Buffer.concat([head, block]);
}

describe('SPDY/3.1', () => {
  it('has the specification’s header dictionary (1,423 bytes, Adler-32 e3c6a7c2)', () => {
    expect(spdyDictionary.length).toBe(1423);
    expect(adler32(spdyDictionary).toString(16)).toBe('e3c6a7c2');
  });

  it('accepts streams whose headers share one compression context, and replies to each', async () => {
    const { socket, written } = fakeSocket();
    const opened: SpdyStream[] = [];
    const connection = new SpdyConnection(socket, { stream: (s) => opened.push(s), closed: () => undefined });
    const compress = await compressor();
    connection.receive(synStream(1, await compress(nameValueBlock({ streamtype: 'error' }))));
    connection.receive(synStream(3, await compress(nameValueBlock({ streamtype: 'stdout' }))));
    expect(opened.map((s) => [s.id, s.headers.get('streamtype')])).toEqual([
      [1, 'error'],
      [3, 'stdout'],
    ]);
    // Two SYN_REPLY frames, whose header blocks an inflater with the dictionary reads in one stream.
    const replies = written.filter((b) => b.readUInt16BE(2) === 2);
    expect(replies.map((b) => b.readUInt32BE(8))).toEqual([1, 3]);
    const blocks = Buffer.concat(replies.map((b) => b.subarray(12)));
    expect(inflateSync(blocks, { dictionary: spdyDictionary, finishFlush: constants.Z_SYNC_FLUSH })).toEqual(
      Buffer.concat([nameValueBlock({}), nameValueBlock({})]),
    );
    connection.write(opened[1] as SpdyStream, Buffer.from('hello'));
    const data = written[written.length - 1] as Buffer;
    expect([data.readUInt32BE(0), data.subarray(8).toString()]).toEqual([3, 'hello']);
  });
});

describe('WebSocket', () => {
  it('answers the handshake with the RFC 6455 accept key', () => {
    expect(acceptKey('dGhlIHNhbXBsZSBub25jZQ==')).toBe('s3pPLMBiTxaQ9kYGzzhZRbK+xOo=');
  });

  it('unmasks client frames, joins fragments, and writes unmasked binary frames', () => {
    const { socket, written } = fakeSocket();
    const messages: string[] = [];
    const connection = new WebSocketConnection(socket, {
      message: (m) => messages.push(m.toString()),
      closed: () => undefined,
    });
    const mask = [1, 2, 3, 4];
    const frame = (fin: boolean, opcode: number, text: string) => {
      const payload = Buffer.from(text).map((b, i) => b ^ (mask[i % 4] ?? 0));
      return Buffer.concat([
        Buffer.from([(fin ? 0x80 : 0) | opcode, 0x80 | payload.length, ...mask]),
        payload,
      ]);
    };
    connection.receive(Buffer.concat([frame(false, 2, 'hel'), frame(true, 0, 'lo')]));
    expect(messages).toEqual(['hello']);
    connection.send(Buffer.from([1, 0x68, 0x69]));
    expect(written[written.length - 1]).toEqual(Buffer.from([0x82, 3, 1, 0x68, 0x69]));
  });
});
