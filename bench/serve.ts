/**
 * The Node host as a bench's separate server process: `npm run serve`'s
 * host with the bench floor on (`x-bench-floor: 1` requests answered by the
 * host's trivial handler), started on a free port with the given
 * kubeconfig; prints the same ready line and stops on SIGTERM.
 * `ORCH_BENCH_STALLS=<file>` also records each stretch of 40 ms or more in
 * which the event loop ran no timer (start and end in µs of the monotonic
 * clock, the clock of `--cpu-prof`'s samples, and the process's CPU time
 * in it, which a loaded machine inflates far less than the wall time),
 * written as JSON on SIGTERM, for `bench/stalls.ts` to name what ran in each.
 * `ORCH_BENCH_COUNTS=<file>` writes the number of socket writes the server
 * made and its CPU time: figures that a loaded machine leaves as they are,
 * for comparing two versions when wall-clock times measure the load.
 */

import { writeFileSync } from 'node:fs';
import { Socket } from 'node:net';
import { startNodeHost } from '../src/hosts/node/host';

function watchStalls(file: string): () => void {
  const stalls: [number, number, number][] = [];
  const now = (): number => Number(process.hrtime.bigint() / 1000n);
  const cpu = (): number => {
    const u = process.cpuUsage();
    return u.user + u.system;
  };
  let last = now();
  let lastCpu = cpu();
  const timer = setInterval(() => {
    const t = now();
    const c = cpu();
    if (t - last >= 40_000) stalls.push([last, t, c - lastCpu]);
    last = t;
    lastCpu = c;
  }, 5);
  return () => {
    clearInterval(timer);
    writeFileSync(file, JSON.stringify(stalls));
  };
}

/** Counts the socket writes (system calls) the server makes and its CPU time, written as JSON on SIGTERM. */
function countWrites(file: string): () => void {
  const proto = Socket.prototype as unknown as { _writeGeneric: (...a: unknown[]) => unknown };
  const original = proto._writeGeneric;
  let writes = 0;
  proto._writeGeneric = function (this: Socket, ...args: unknown[]): unknown {
    writes++;
    return original.apply(this, args);
  };
  const cpu0 = process.cpuUsage();
  return () => {
    const cpu = process.cpuUsage(cpu0);
    writeFileSync(file, JSON.stringify({ writes, cpuMs: (cpu.user + cpu.system) / 1000 }));
  };
}

async function main(): Promise<void> {
  const countsFile = process.env['ORCH_BENCH_COUNTS'];
  const stopCounts =
    countsFile !== undefined && countsFile !== '' ? countWrites(countsFile) : () => undefined;
  const kubeconfig = process.argv[2];
  const storage = (process.argv[3] ?? 'memory') as 'memory' | 'dexie';
  const stallsFile = process.env['ORCH_BENCH_STALLS'];
  const stopStalls =
    stallsFile !== undefined && stallsFile !== '' ? watchStalls(stallsFile) : () => undefined;
  const host = await startNodeHost({ port: 0, kubeconfig, storage, benchFloor: true });
  process.stdout.write(`bench server listening on ${host.url}\n`);
  process.once('SIGTERM', () => {
    stopStalls();
    stopCounts();
    void host.close().then(() => process.exit(0));
  });
}

void main();
