/**
 * The Node host's ScriptRunner for JavaScript webhook backends. Calls run
 * in worker threads (so a loop blocks only that thread, and `terminate()`
 * kills it at the timeout), and inside the worker each call gets a fresh
 * `vm` context holding nothing but the language's built-ins — no
 * `require`, no `process`, no handle on the server, nothing left by an
 * earlier call — so a backend reaches neither the server's state, nor the
 * machine, nor another backend. A memory cap keeps a runaway allocation
 * from taking the server down with it.
 *
 * Starting a worker costs tens of milliseconds, so a few warm workers are
 * kept between calls; each runs one call at a time. A worker that misses
 * its deadline, dies, or stays busy after answering (a backend that left
 * work spinning behind it) is terminated and never reused.
 */

import { Worker } from 'node:worker_threads';
import type { ScriptJob, ScriptOutcome, ScriptRunner } from '../../server/index';

/** Runs inside the worker (CommonJS eval); the learner's code only ever sees its call's vm context. */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const vm = require('node:vm');
const describe = (e) =>
  e !== null && typeof e === 'object' && typeof e.message === 'string'
    ? (typeof e.name === 'string' ? e.name + ': ' : '') + e.message
    : 'uncaught: ' + String(e);
const run = async (job) => {
  const context = vm.createContext({ console: { log() {}, info() {}, warn() {}, error() {}, debug() {} } }, {
    codeGeneration: { strings: false, wasm: false },
  });
  try {
    const fn = vm.runInContext('(\\n' + job.source + '\\n)', context, { filename: 'backend.js' });
    if (typeof fn !== 'function') throw new TypeError('the backend source is not a function');
    const input = vm.runInContext('JSON.parse', context)(job.input);
    const result = await fn(input);
    if (typeof result === 'string') return { kind: 'returned', text: result, raw: true };
    return { kind: 'returned', text: vm.runInContext('JSON.stringify', context)(result), raw: false };
  } catch (e) {
    return { kind: 'threw', message: describe(e) };
  }
};
parentPort.on('message', async (job) => {
  parentPort.postMessage({ kind: 'outcome', outcome: await run(job) });
  // Only a macrotask turn later: a backend that left microtasks spinning never reports idle, so it is not reused.
  setImmediate(() => parentPort.postMessage({ kind: 'idle' }));
});
`;

type WorkerMessage = { kind: 'outcome'; outcome: ScriptOutcome } | { kind: 'idle' };

export interface NodeScriptRunnerOptions {
  /** Heap cap of one backend worker, in MB; default 64. */
  maxHeapMb?: number;
  /** How many idle workers are kept warm between calls; default 2. */
  warmWorkers?: number;
}

/** A ScriptRunner that also ends its workers when the host closes. */
export interface NodeScriptRunner extends ScriptRunner {
  close(): Promise<void>;
}

export function nodeScriptRunner(options: NodeScriptRunnerOptions = {}): NodeScriptRunner {
  const maxHeapMb = options.maxHeapMb ?? 64;
  const warmWorkers = options.warmWorkers ?? 2;
  const idle: Worker[] = [];
  const all = new Set<Worker>();
  let closed = false;

  const spawn = (): Worker => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      resourceLimits: { maxOldGenerationSizeMb: maxHeapMb, maxYoungGenerationSizeMb: 16 },
      // The backend must not write to the server's own output.
      stdout: true,
      stderr: true,
      env: {},
    });
    // A warm worker must not keep the Node process alive.
    worker.unref();
    all.add(worker);
    worker.once('exit', () => {
      all.delete(worker);
      const at = idle.indexOf(worker);
      if (at >= 0) idle.splice(at, 1);
    });
    // An idle worker that fails is simply dropped (the exit listener above); a busy one reports through its call.
    worker.on('error', () => {});
    return worker;
  };

  const discard = (worker: Worker) => {
    all.delete(worker);
    void worker.terminate();
  };

  const release = (worker: Worker) => {
    if (closed || idle.length >= warmWorkers || !all.has(worker)) discard(worker);
    else idle.push(worker);
  };

  return {
    run(job: ScriptJob): Promise<ScriptOutcome> {
      return new Promise((resolve) => {
        const worker = idle.pop() ?? spawn();
        let settled = false;
        let drainTimer: ReturnType<typeof setTimeout> | undefined;
        const detach = () => {
          clearTimeout(timer);
          clearTimeout(drainTimer);
          worker.off('message', onMessage);
          worker.off('error', onError);
          worker.off('exit', onExit);
        };
        const finish = (outcome: ScriptOutcome, reusable: boolean) => {
          if (!settled) {
            settled = true;
            resolve(outcome);
          }
          if (reusable) return;
          detach();
          discard(worker);
          // Replace it now, so the next call still finds a warm worker.
          if (!closed && idle.length < warmWorkers) idle.push(spawn());
        };
        const onMessage = (message: WorkerMessage) => {
          if (message.kind === 'outcome') {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            resolve(message.outcome);
            // Reused only once it reports idle; one that stays busy is spinning and goes.
            drainTimer = setTimeout(() => finish(message.outcome, false), job.timeoutMs);
          } else {
            detach();
            release(worker);
          }
        };
        const onError = (e: Error) => finish({ kind: 'threw', message: `${e.name}: ${e.message}` }, false);
        const onExit = () =>
          finish({ kind: 'threw', message: 'Error: the backend ended without an answer' }, false);
        // The whole run, start-up included, is what the caller waits for: the deadline covers it all.
        const timer = setTimeout(() => finish({ kind: 'timeout' }, false), job.timeoutMs);
        worker.on('message', onMessage);
        worker.on('error', onError);
        worker.on('exit', onExit);
        worker.postMessage({ source: job.source, input: job.input });
      });
    },
    async close() {
      closed = true;
      idle.length = 0;
      const workers = [...all];
      all.clear();
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
