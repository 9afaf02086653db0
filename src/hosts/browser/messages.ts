/**
 * Messages between the page and the service worker. Plain constants, shared
 * by both sides (the page compiles with DOM types, the worker with WebWorker).
 */

/** Page → worker: "claim me", sent when the page is not controlled although the worker is active (e.g. after a hard reload). */
export const CLAIM_MESSAGE = 'orch-sandbox:claim';
