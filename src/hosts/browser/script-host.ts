/**
 * Page side of the browser host's JavaScript webhook backends: the service
 * worker cannot create Workers, so it asks an open sandbox page, and this
 * runs each backend call in a dedicated Worker of its own — a thread with
 * no DOM, no page state and (removed before the backend's code runs) no
 * network, no storage and no nested workers, so it reaches neither the
 * server nor the learner's data — and terminates it at the call's timeout.
 */

import type { ScriptJob, ScriptOutcome } from '../../server/index';
import { isScriptRunMessage } from './script-messages';

/** The Worker's program; the backend's source arrives by message and is compiled there. */
const WORKER_SOURCE = `
'use strict';
const denied = ['fetch', 'XMLHttpRequest', 'WebSocket', 'WebTransport', 'EventSource', 'importScripts', 'Worker',
  'SharedWorker', 'BroadcastChannel', 'indexedDB', 'caches', 'navigator', 'Request', 'Response'];
for (const name of denied) {
  for (let o = self; o !== null; o = Object.getPrototypeOf(o))
    if (Object.prototype.hasOwnProperty.call(o, name)) try { delete o[name]; } catch (e) {}
  try { Object.defineProperty(self, name, { value: undefined, writable: false, configurable: false }); } catch (e) {}
}
const compile = eval;
const describe = (e) =>
  e !== null && typeof e === 'object' && typeof e.message === 'string'
    ? (typeof e.name === 'string' ? e.name + ': ' : '') + e.message
    : 'uncaught: ' + String(e);
self.onmessage = async (event) => {
  const { source, input } = event.data;
  try {
    const fn = compile('(\\n' + source + '\\n)');
    if (typeof fn !== 'function') throw new TypeError('the backend source is not a function');
    const result = await fn(JSON.parse(input));
    if (typeof result === 'string') self.postMessage({ kind: 'returned', text: result, raw: true });
    else self.postMessage({ kind: 'returned', text: JSON.stringify(result), raw: false });
  } catch (e) {
    self.postMessage({ kind: 'threw', message: describe(e) });
  }
};
`;

let workerUrl: string | undefined;

/** Runs one backend call in a fresh Worker, terminated at the timeout. */
export function runInWorker(job: ScriptJob): Promise<ScriptOutcome> {
  workerUrl ??= URL.createObjectURL(new Blob([WORKER_SOURCE], { type: 'text/javascript' }));
  const worker = new Worker(workerUrl, { name: 'webhook-backend' });
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: ScriptOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      worker.terminate();
      resolve(outcome);
    };
    const timer = setTimeout(() => finish({ kind: 'timeout' }), job.timeoutMs);
    worker.onmessage = (event: MessageEvent<ScriptOutcome>) => finish(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      finish({ kind: 'threw', message: event.message });
    };
    worker.postMessage({ source: job.source, input: job.input });
  });
}

/** Answers the service worker's run requests for as long as the page is open. */
export function hostScriptRuns(container: ServiceWorkerContainer): void {
  container.addEventListener('message', (event: MessageEvent<unknown>) => {
    const port = event.ports[0];
    if (!isScriptRunMessage(event.data) || port === undefined) return;
    void runInWorker(event.data.job).then((outcome) => port.postMessage(outcome));
  });
  // Messages from the worker are queued until the page says it listens.
  container.startMessages();
}
