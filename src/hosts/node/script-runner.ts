/**
 * The Node host's ScriptRunner for JavaScript webhook backends: one
 * worker thread per call (so a loop blocks only that thread, and
 * `terminate()` kills it at the timeout), and inside it a fresh `vm`
 * context holding nothing but the language's built-ins — no `require`, no
 * `process`, no handle on the server — so a backend reaches neither the
 * server's state nor the machine. A memory cap keeps a runaway allocation
 * from taking the server down with it.
 */

import { Worker } from 'node:worker_threads';
import type { ScriptJob, ScriptOutcome, ScriptRunner } from '../../server/index';

/** Runs inside the worker (CommonJS eval); the learner's code only ever sees the vm context. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const vm = require('node:vm');
const context = vm.createContext({ console: { log() {}, info() {}, warn() {}, error() {}, debug() {} } }, {
  codeGeneration: { strings: false, wasm: false },
});
const post = (outcome) => parentPort.postMessage(outcome);
// A promise that never settles is a server that never answers: stay alive until the deadline kills the thread.
setInterval(() => {}, 1 << 30);
const describe = (e) =>
  e !== null && typeof e === 'object' && typeof e.message === 'string'
    ? (typeof e.name === 'string' ? e.name + ': ' : '') + e.message
    : 'uncaught: ' + String(e);
(async () => {
  try {
    const fn = vm.runInContext('(\\n' + workerData.source + '\\n)', context, { filename: 'backend.js' });
    if (typeof fn !== 'function') throw new TypeError('the backend source is not a function');
    const input = vm.runInContext('JSON.parse', context)(workerData.input);
    const result = await fn(input);
    if (typeof result === 'string') post({ kind: 'returned', text: result, raw: true });
    else post({ kind: 'returned', text: vm.runInContext('JSON.stringify', context)(result), raw: false });
  } catch (e) {
    post({ kind: 'threw', message: describe(e) });
  }
})();
`;

export interface NodeScriptRunnerOptions {
  /** Heap cap of one backend run, in MB; default 64. */
  maxHeapMb?: number;
}

export function nodeScriptRunner(options: NodeScriptRunnerOptions = {}): ScriptRunner {
  const maxHeapMb = options.maxHeapMb ?? 64;
  return {
    run(job: ScriptJob): Promise<ScriptOutcome> {
      return new Promise((resolve) => {
        const worker = new Worker(WORKER_SOURCE, {
          eval: true,
          workerData: { source: job.source, input: job.input },
          resourceLimits: { maxOldGenerationSizeMb: maxHeapMb, maxYoungGenerationSizeMb: 16 },
          // The backend must not write to the server's own output.
          stdout: true,
          stderr: true,
          env: {},
        });
        let settled = false;
        const finish = (outcome: ScriptOutcome) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          void worker.terminate();
          resolve(outcome);
        };
        // The whole run, start-up included, is what the caller waits for: the deadline covers it all.
        const timer = setTimeout(() => finish({ kind: 'timeout' }), job.timeoutMs);
        worker.on('message', (outcome: ScriptOutcome) => finish(outcome));
        worker.on('error', (e) => finish({ kind: 'threw', message: `${e.name}: ${e.message}` }));
        worker.on('exit', () =>
          finish({ kind: 'threw', message: 'Error: the backend ended without an answer' }),
        );
      });
    },
  };
}
