/**
 * When a page's first usable screen appears, as the UI benches read it: an
 * init script notes `performance.now()` when an element with
 * `data-usable="true"` first exists (`__usableAt`) and says so on the
 * console. The bench waits for that console message instead of polling the
 * page: Playwright's `waitForFunction` evaluates its injected script in the
 * page (~20 ms of the page's main thread) as soon as the load event fires,
 * which lands in the middle of the app's first render but after an empty
 * app's render is done, so the app was charged for the harness.
 */

import type { BrowserContext, Page } from 'playwright-core';

const usableMessage = 'orch-bench: usable';

/** The init script (a string, so no compiled helper such as tsx's `__name` leaks into the page). */
export const usableProbe = `
globalThis.__name = (f) => f;
(() => {
  const seen = () => {
    if (globalThis.__usableAt !== undefined || document.querySelector('[data-usable="true"]') === null) return;
    globalThis.__usableAt = performance.now();
    console.info(${JSON.stringify(usableMessage)});
  };
  new MutationObserver(seen).observe(document, { subtree: true, childList: true, attributes: true });
})();
`;

/** Runs `navigate` (a goto or reload of a page with the probe) and resolves with `__usableAt`, ms from navigation. */
export async function usableAfter(page: Page, navigate: () => Promise<unknown>): Promise<number> {
  const seen = page.waitForEvent('console', {
    predicate: (message) => message.text() === usableMessage,
    timeout: 60_000,
  });
  seen.catch(() => undefined);
  await navigate();
  await seen;
  return (await page.evaluate('globalThis.__usableAt')) as number;
}

/**
 * How long a new page waits before its first navigation. A new page is a new browser window, and Chromium
 * (headless, 156) loads that window's own WebUI (the omnibox popup, `chrome://omnibox-popup.top-chrome`) in a
 * renderer of its own as the window opens: a trace put 280–600 ms of CPU on it in the first ~0.8 s, half a
 * core of the two here, overlapping a visit started at once (the app's more than the floor's, which is over
 * sooner). A learner's first visit happens in a window that is already open, so the benches let it settle
 * first (0103); with this pause the same trace puts ~5 ms of that renderer inside the visit.
 */
export const windowSettleMs = 1500;

/** A new page of `context`, after its window's own start-up (`windowSettleMs`), ready for a timed first visit. */
export async function settledPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.waitForTimeout(windowSettleMs);
  return page;
}
