/**
 * The worker script's first statement: marks on the worker's performance
 * timeline the moment its evaluation begins (after the fetch and the
 * compile), so that `npm run bench -- timeline` can tell the two apart from
 * the evaluation of its modules (`orch:evaluated`, in sw.ts). On a first
 * install it also tells the page, which holds its own main script until then
 * (index.html, 0091). The worker entry imports it before anything else.
 */

import { workerScriptChannel } from '../worker-script';

declare const self: ServiceWorkerGlobalScope;

performance.mark('orch:script');
// Only a first install's page waits for it; a restarted or updated worker has nobody to tell.
if (self.registration.active === null && self.registration.waiting === null) {
  // Left open: the message is on its way once posted, and a channel closed at once gains nothing.
  new BroadcastChannel(workerScriptChannel).postMessage('started');
}
