/**
 * The message the service worker sends a sandbox page to run a JavaScript
 * webhook backend (a service worker cannot start Workers itself); the
 * answer comes back on the MessagePort sent with it. Shared by both sides.
 */

import type { ScriptJob } from '../../server/index';

export const SCRIPT_RUN_MESSAGE = 'orch-sandbox:run-webhook-backend';

export interface ScriptRunMessage {
  type: typeof SCRIPT_RUN_MESSAGE;
  job: ScriptJob;
}

export function isScriptRunMessage(data: unknown): data is ScriptRunMessage {
  return (
    typeof data === 'object' &&
    data !== null &&
    (data as { type?: unknown }).type === SCRIPT_RUN_MESSAGE &&
    typeof (data as { job?: unknown }).job === 'object'
  );
}
