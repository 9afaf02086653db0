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

import type { Page } from 'playwright-core';

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
