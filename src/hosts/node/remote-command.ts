/**
 * An exec session carried over the connection the client switched to, in
 * the channel protocols of `k8s.io/apimachinery` remotecommand: over SPDY
 * one stream per channel, named by its `streamType` header (error, stdin,
 * stdout, stderr, resize), the session starting once the client opened
 * them all; over WebSocket one message per write, its first byte the
 * channel (0 stdin, 1 stdout, 2 stderr, 3 error, 4 resize; v5 adds 255 to
 * close a channel). At the end the output channels are closed and the
 * error channel carries the outcome: a Status (v4, v5), or on failure its
 * message (the older protocols).
 */

import type { Socket } from 'node:net';
import type { StreamSession, TerminalSize, UpgradeOffer } from '../../server/index';
import { SpdyConnection, type SpdyStream } from './spdy';
import { WebSocketConnection } from './websocket';

/** An async iterable fed by pushes, ended once. */
class Queue<T> implements AsyncIterable<T> {
  private items: T[] = [];
  private done = false;
  private wake: (() => void) | undefined;

  push(item: T): void {
    if (this.done) return;
    this.items.push(item);
    this.wake?.();
  }

  end(): void {
    this.done = true;
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for (;;) {
      while (this.items.length > 0) yield this.items.shift() as T;
      if (this.done) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }
}

/** Terminal sizes from the resize channel: JSON objects `{"Width":80,"Height":24}`, possibly several in one write. */
function resizeReader(queue: Queue<TerminalSize>): (chunk: Buffer) => void {
  let pending = '';
  return (chunk) => {
    pending += chunk.toString('utf8');
    for (;;) {
      const end = pending.indexOf('}');
      if (end < 0) return;
      const text = pending.slice(0, end + 1);
      pending = pending.slice(end + 1);
      try {
        const size = JSON.parse(text.slice(text.indexOf('{'))) as { Width?: number; Height?: number };
        queue.push({ width: size.Width ?? 0, height: size.Height ?? 0 });
      } catch {
        // Not a size: ignored, as the kubelet ignores what it cannot decode.
      }
    }
  };
}

/** What goes on the error channel at the end. */
function outcome(subprotocol: string, status: Awaited<ReturnType<StreamSession['run']>>): Buffer {
  const withStatus = subprotocol === 'v4.channel.k8s.io' || subprotocol === 'v5.channel.k8s.io';
  if (withStatus) return Buffer.from(JSON.stringify(status));
  return status.status === 'Success' ? Buffer.alloc(0) : Buffer.from(status.message ?? 'error');
}

/** Runs the session over SPDY once the client has opened the streams it asked for. */
export function serveSpdy(socket: Socket, head: Buffer, offer: UpgradeOffer): void {
  const { stdin, stdout, stderr, tty } = offer.streams;
  const expected = new Set(['error']);
  if (stdin) expected.add('stdin');
  if (stdout) expected.add('stdout');
  if (stderr && !tty) expected.add('stderr');
  if (tty && offer.subprotocol !== 'v2.channel.k8s.io' && offer.subprotocol !== 'channel.k8s.io')
    expected.add('resize');
  const streams = new Map<string, SpdyStream>();
  const input = new Queue<Uint8Array>();
  const sizes = new Queue<TerminalSize>();
  const hangup = new AbortController();
  let started = false;
  const timeout = setTimeout(() => connection.goAway(), 30_000);
  const start = async (): Promise<void> => {
    started = true;
    clearTimeout(timeout);
    const out = streams.get('stdout');
    const err = streams.get('stderr');
    const status = await offer.session.run({
      ...(stdin ? { stdin: input } : {}),
      stdout: (chunk) => {
        if (out !== undefined) connection.write(out, chunk);
      },
      stderr: (chunk) => {
        if (err !== undefined) connection.write(err, chunk);
      },
      ...(tty ? { resize: sizes } : {}),
      closed: hangup.signal,
    });
    for (const s of [out, err]) if (s !== undefined) connection.end(s);
    const error = streams.get('error');
    if (error !== undefined) {
      const message = outcome(offer.subprotocol, status);
      if (message.length > 0) connection.write(error, message);
      connection.end(error);
    }
    connection.goAway();
  };
  const connection = new SpdyConnection(socket, {
    stream(stream) {
      const type = stream.headers.get('streamtype') ?? '';
      streams.set(type, stream);
      if (type === 'stdin') {
        stream.onData = (chunk) => input.push(chunk);
        stream.onEnd = () => input.end();
      } else if (type === 'resize') {
        stream.onData = resizeReader(sizes);
        stream.onEnd = () => sizes.end();
      }
      if (!started && [...expected].every((t) => streams.has(t)))
        void start().catch(() => connection.goAway());
    },
    closed() {
      clearTimeout(timeout);
      input.end();
      sizes.end();
      hangup.abort();
    },
  });
  if (head.length > 0) connection.receive(head);
}

/** Runs the session over WebSocket at once (the channels need no opening). */
export function serveWebSocket(socket: Socket, head: Buffer, offer: UpgradeOffer): void {
  const input = new Queue<Uint8Array>();
  const sizes = new Queue<TerminalSize>();
  const readSize = resizeReader(sizes);
  const hangup = new AbortController();
  const v5 = offer.subprotocol === 'v5.channel.k8s.io';
  const connection = new WebSocketConnection(socket, {
    message(data) {
      const channel = data[0];
      const payload = data.subarray(1);
      if (channel === 0) input.push(payload);
      else if (channel === 4) readSize(payload);
      // v5: the client closes a channel (stdin at its end).
      else if (v5 && channel === 255 && payload[0] === 0) input.end();
    },
    closed() {
      input.end();
      sizes.end();
      hangup.abort();
    },
  });
  if (head.length > 0) connection.receive(head);
  const send = (channel: number, chunk: Uint8Array) =>
    connection.send(Buffer.concat([Buffer.from([channel]), chunk]));
  void (async () => {
    const status = await offer.session.run({
      ...(offer.streams.stdin ? { stdin: input } : {}),
      stdout: (chunk) => send(1, chunk),
      stderr: (chunk) => send(2, chunk),
      ...(offer.streams.tty ? { resize: sizes } : {}),
      closed: hangup.signal,
    });
    const message = outcome(offer.subprotocol, status);
    if (message.length > 0) send(3, message);
    connection.close(1000);
  })().catch(() => connection.close(1011));
}
