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

/** One HTTP/1.1 answer: status, head, and the body (chunked framing removed). */
interface Answer {
  status: number;
  body: string;
}

/**
 * Reads HTTP/1.1 answers from a byte stream as they arrive, each byte looked at once: a 2 MB answer in
 * 16 KB TLS records is not rescanned (or its text re-joined) per record, which had made the bench's own
 * event loop the slowest part of what it timed.
 */
class AnswerReader {
  private head = '';
  private status = 0;
  /** Body bytes still expected with Content-Length framing, or -1 for chunked framing. */
  private remaining = 0;
  private parts: Buffer[] = [];
  private state: 'head' | 'length' | 'chunk-size' | 'chunk-data' | 'chunk-end' | 'trailer' = 'head';
  private line = '';

  constructor(private readonly answered: (a: Answer) => void) {}

  feed(data: Buffer): void {
    let at = 0;
    while (at < data.length) {
      switch (this.state) {
        case 'head': {
          const from = Math.max(0, this.head.length - 3);
          this.head += data.toString('latin1', at);
          const end = this.head.indexOf('\r\n\r\n', from);
          if (end < 0) return;
          const rest = this.head.length - (end + 4);
          at = data.length - rest;
          const head = this.head.slice(0, end);
          this.head = head;
          this.status = Number(head.slice(9, 12));
          if (/transfer-encoding: chunked/i.test(head)) this.state = 'chunk-size';
          else {
            this.remaining = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
            this.state = 'length';
            if (this.remaining === 0) this.finish();
          }
          break;
        }
        case 'length': {
          at = this.takeBody(data, at);
          if (this.remaining === 0) this.finish();
          break;
        }
        case 'chunk-size':
        case 'chunk-end':
        case 'trailer': {
          const nl = data.indexOf(10, at);
          const end = nl < 0 ? data.length : nl + 1;
          this.line += data.toString('latin1', at, end);
          at = end;
          if (nl < 0) return;
          const line = this.line.trim();
          this.line = '';
          if (this.state === 'chunk-end') this.state = 'chunk-size';
          else if (this.state === 'trailer') {
            if (line === '') this.finish();
          } else {
            this.remaining = parseInt(line, 16);
            this.state = this.remaining === 0 ? 'trailer' : 'chunk-data';
          }
          break;
        }
        case 'chunk-data': {
          at = this.takeBody(data, at);
          if (this.remaining === 0) this.state = 'chunk-end';
          break;
        }
      }
    }
  }

  /** Takes what `data` holds from `at` of the body bytes still expected; returns where reading goes on. */
  private takeBody(data: Buffer, at: number): number {
    const take = Math.min(this.remaining, data.length - at);
    this.parts.push(data.subarray(at, at + take));
    this.remaining -= take;
    return at + take;
  }

  private finish(): void {
    const answer = { status: this.status, body: Buffer.concat(this.parts).toString('latin1') };
    this.head = '';
    this.parts = [];
    this.state = 'head';
    this.answered(answer);
  }
}

/**
 * A kept-alive connection that sends one request at a time and resolves with the answer's status and
 * time (ms) once the whole answer (Content-Length or chunked framing) is in.
 */
export class TimedConnection {
  /** Requests sent and not answered yet, oldest first (HTTP/1.1 answers in order). */
  private readonly pending: {
    sent: number;
    resolve: (r: { status: number; ms: number; body: string }) => void;
    reject: (e: Error) => void;
  }[] = [];

  private constructor(private readonly socket: TLSSocket) {
    const reader = new AnswerReader(({ status, body }) => {
      const p = this.pending.shift();
      p?.resolve({ status, ms: performance.now() - p.sent, body });
    });
    socket.on('data', (c: Buffer) => reader.feed(c));
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

  close(): void {
    this.socket.destroy();
  }
}

/** A `/livez` probe: when it was sent and answered, in µs of the monotonic clock all processes share. */
export type LivezProbe = [sent: number, answered: number];

/**
 * Times `GET /livez` on its own connection from its own process (`bench/livez-probe.ts`), one after
 * another with `gapMs` between them, until stopped (the probe in flight then is waited for and counts).
 * `stop` resolves with each probe's time in ms; `probes` then holds when each was sent and answered.
 */
export async function pollLivez(
  port: number,
  gapMs = 20,
): Promise<{ stop(): Promise<number[]>; probes: LivezProbe[] }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'bench/livez-probe.ts', String(port), String(gapMs)],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const ready = (): void => {
      if (out.startsWith('ready\n')) {
        child.stdout.off('data', ready);
        resolve();
      }
    };
    child.stdout.on('data', ready);
    void exited.then(() => reject(new Error(`/livez prober exited: ${out}`)));
  });
  const probes: LivezProbe[] = [];
  return {
    probes,
    async stop() {
      child.stdin.write('stop\n');
      await exited;
      probes.push(...(JSON.parse(out.slice('ready\n'.length)) as LivezProbe[]));
      return probes.map(([sent, answered]) => (answered - sent) / 1000);
    },
  };
}
