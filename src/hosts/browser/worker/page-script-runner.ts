/**
 * The browser host's ScriptRunner: a service worker cannot create Workers,
 * so each JavaScript backend call is handed to an open sandbox page (see
 * ../script-host.ts), which runs it in a dedicated Worker and posts the
 * outcome back on a MessageChannel. With no page open nothing can run it,
 * and the call fails like an unreachable webhook (its failure policy
 * applies); a page that does not answer in time counts as the timeout.
 */

import type { ScriptJob, ScriptOutcome, ScriptRunner } from '../../../server/index';
import { SCRIPT_RUN_MESSAGE, type ScriptRunMessage } from '../script-messages';

/** Beyond the call's timeout, how long to wait for the page's own timeout report before giving up on it. */
const PAGE_GRACE_MS = 1000;

export function pageScriptRunner(
  scope: ServiceWorkerGlobalScope = self as unknown as ServiceWorkerGlobalScope,
): ScriptRunner {
  return {
    async run(job: ScriptJob): Promise<ScriptOutcome> {
      const pages = await scope.clients.matchAll({ type: 'window' });
      const page = pages.find((c) => c.visibilityState === 'visible') ?? pages[0];
      if (page === undefined) return { kind: 'unavailable', message: 'no sandbox page is open to run it' };
      const channel = new MessageChannel();
      return new Promise<ScriptOutcome>((resolve) => {
        const timer = setTimeout(() => {
          channel.port1.close();
          resolve({ kind: 'timeout' });
        }, job.timeoutMs + PAGE_GRACE_MS);
        channel.port1.onmessage = (event: MessageEvent<ScriptOutcome>) => {
          clearTimeout(timer);
          channel.port1.close();
          resolve(event.data);
        };
        const message: ScriptRunMessage = { type: SCRIPT_RUN_MESSAGE, job };
        page.postMessage(message, [channel.port2]);
      });
    },
  };
}
