/**
 * Messages between the page and the service worker. Plain constants, shared
 * by both sides (the page compiles with DOM types, the worker with WebWorker).
 */

/** Page → worker: "claim me", sent when the page is not controlled although the worker is active (e.g. after a hard reload). */
export const CLAIM_MESSAGE = 'orch-sandbox:claim';

/**
 * Page → worker: "this page is going away; a page's first requests are likely coming" (its `beforeunload` and
 * `pagehide`, most often a reload). The next page's navigation is answered by a static route, so the worker does not see it.
 */
export const PAGE_COMING_MESSAGE = 'orch-sandbox:page-coming';
