/**
 * The Node host in its own process (bench/serve.ts), as `npm run serve` runs it, for
 * benches whose client is heavy enough (a thousand watch connections, a
 * poller timing `/livez` to the millisecond) that sharing one event loop
 * with the server would measure the client. Started on the memory or
 * Dexie store (`ORCH_BENCH_PROF=<dir>` profiles it with `--cpu-prof`), read
 * back through its kubeconfig, and stopped with SIGTERM.
 * Also a kept-alive TLS connection that sends one request at a time and
 * times its answer, cheaper than a full HTTP client.
 */

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type TLSSocket } from 'node:tls';

export interface ServerProcess {
  url: string;
  port: number;
  token: string;
  stop(): Promise<void>;
}

/** Starts `bench/serve.ts` (the host with the bench floor on) on the given store. */
export async function startServerProcess(storage: 'memory' | 'dexie' = 'memory'): Promise<ServerProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'orch-bench-'));
  const kubeconfig = join(dir, 'kubeconfig');
  const prof = process.env['ORCH_BENCH_PROF'];
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...(prof !== undefined ? ['--cpu-prof', `--cpu-prof-dir=${prof}`] : []),
      '--import',
      'tsx',
      'bench/serve.ts',
      kubeconfig,
      storage,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (https?:\/\/\S+)/.exec(out);
      if (m?.[1] !== undefined) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
  const token = /token: (\S+)/.exec(readFileSync(kubeconfig, 'utf8'))?.[1];
  if (token === undefined) throw new Error('no token in the kubeconfig');
  return {
    url,
    port: Number(new URL(url).port),
    token,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** One TLS connection to the server. */
export function openTls(port: number): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', rejectUnauthorized: false }, () => resolve(socket));
    socket.once('error', reject);
    socket.setNoDelay(true);
  });
}

/**
 * A kept-alive connection that sends one request at a time and resolves with the answer's status and
 * time (ms) once the whole answer (Content-Length framed) is in.
 */
export class TimedConnection {
  private buffer = '';
  /** Requests sent and not answered yet, oldest first (HTTP/1.1 answers in order). */
  private readonly pending: {
    sent: number;
    resolve: (r: { status: number; ms: number; body: string }) => void;
    reject: (e: Error) => void;
  }[] = [];

  private constructor(private readonly socket: TLSSocket) {
    socket.on('data', (c: Buffer) => {
      this.buffer += c.toString('latin1');
      while (this.check());
    });
    // A connection the server closed (an idle one after its keep-alive deadline) answers nothing more:
    // the requests waiting on it fail instead of waiting for ever.
    socket.once('close', () => {
      for (const p of this.pending.splice(0)) p.reject(new Error('connection closed before the answer'));
    });
  }

  static async open(port: number): Promise<TimedConnection> {
    return new TimedConnection(await openTls(port));
  }

  request(head: string, body = ''): Promise<{ status: number; ms: number; body: string }> {
    return new Promise((resolve, reject) => {
      if (this.socket.destroyed) {
        reject(new Error('connection closed'));
        return;
      }
      this.pending.push({ sent: performance.now(), resolve, reject });
      this.socket.write(head + body);
    });
  }

  private check(): boolean {
    const p = this.pending[0];
    if (p === undefined) return false;
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end < 0) return false;
    const head = this.buffer.slice(0, end);
    let body: string;
    if (/transfer-encoding: chunked/i.test(head)) {
      // Chunked: complete at the last chunk; the body is the chunks' text, framing removed.
      const last = this.buffer.indexOf('\r\n0\r\n\r\n', end);
      const empty = this.buffer.startsWith('0\r\n\r\n', end + 4);
      if (last < 0 && !empty) return false;
      const stop = empty ? end + 4 + 5 : last + 7;
      body = this.buffer.slice(end + 4, stop).replace(/(^|\r\n)[0-9a-f]+\r\n/gi, '');
      this.buffer = this.buffer.slice(stop);
    } else {
      const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
      if (this.buffer.length < end + 4 + length) return false;
      body = this.buffer.slice(end + 4, end + 4 + length);
      this.buffer = this.buffer.slice(end + 4 + length);
    }
    this.pending.shift();
    p.resolve({ status: Number(head.slice(9, 12)), ms: performance.now() - p.sent, body });
    return true;
  }

  close(): void {
    this.socket.destroy();
  }
}

/**
 * Times `GET /livez` on its own connection, one after another with `gapMs` between them, until stopped
 * (the probe in flight then is waited for and counts).
 */
export async function pollLivez(port: number, gapMs = 20): Promise<{ stop(): Promise<number[]> }> {
  const samples: number[] = [];
  let running = true;
  let c = await TimedConnection.open(port);
  const done = (async () => {
    while (running) {
      try {
        samples.push((await c.request('GET /livez HTTP/1.1\r\nHost: x\r\n\r\n')).ms);
      } catch (e) {
        // The server closed the connection: say so, and go on probing on a new one.
        process.stderr.write(`/livez probe: ${e instanceof Error ? e.message : String(e)}; reconnecting\n`);
        c.close();
        c = await TimedConnection.open(port);
      }
      await new Promise((resolve) => setTimeout(resolve, gapMs));
    }
    c.close();
  })();
  return {
    async stop() {
      running = false;
      await done;
      return samples;
    },
  };
}
