/**
 * Waits in a page the worker controls until the in-browser server is ready
 * (`/readyz` passes, asked as the built-in admin) and its controllers have
 * had a moment for their first lists: the post-start writes of a first
 * visit run beside its first screen, and a reload figure measures a reload
 * of a started sandbox, not one racing its start.
 */

/** After readiness the controllers start and list everything once; a reload a second later is a user's. */
const settleMs = 1000;

import type { Page } from 'playwright-core';

const readyzOnce = `(async () => {
  const listed = await (await fetch('/sandbox/v1/identities?certificates=deferred')).json();
  const admin = listed.items.find((i) => i.name === 'admin');
  const r = await fetch('/readyz', { headers: { authorization: 'Bearer ' + admin.token } });
  if (r.status !== 200) return false;
  globalThis.__readyAt ??= performance.now();
  return true;
})()`;

/** Resolves once `/readyz` passes; the page's `__readyAt` notes when (ms from navigation, within 50 ms). */
export async function waitForReadyz(page: Page): Promise<void> {
  // Polled with evaluate: waitForFunction would take the returned promise itself as a truthy answer.
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
    if ((await page.evaluate(readyzOnce)) === true) {
      await new Promise((resolve) => setTimeout(resolve, settleMs));
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('/readyz did not pass within 60 s');
}
