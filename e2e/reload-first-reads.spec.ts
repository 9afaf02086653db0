/**
 * A reload's first reads (decision 0082): the page keeps the built-in admin's
 * token with the first screen's reads when it goes away, and the next load's
 * inline script sends those reads with it at once, beside the identities
 * list. The token it kept is the one the list names; and when the kept
 * token is not the list's (a reset or an import changed it), the reads are
 * sent again with the list's, so the screen still shows the live list and
 * no refusal.
 */

import { expect, test } from '@playwright/test';
import { uniqueName } from './support/sandbox';
import { createConfigMap, openView, rowOf, waitUsable } from './support/ui';

const firstScreenKey = 'orch-sandbox.first-screen';

test('a reload sends its first reads with the kept admin token, and recovers from a stale one', async ({
  page,
}) => {
  await openView(page, 'explorer');
  await waitUsable(page);
  const name = uniqueName('reload');
  await createConfigMap(page, name);
  await expect(rowOf(page, name)).toBeVisible();

  // Before the next load's scripts run: note what the last page kept, and (second reload) spoil its token.
  // (A string: the page's script, run before index.html's own.)
  await page.addInitScript({
    content: `(() => {
      const key = ${JSON.stringify(firstScreenKey)};
      const kept = JSON.parse(sessionStorage.getItem(key) ?? 'null');
      globalThis.__keptToken = kept?.token;
      if (kept !== null && sessionStorage.getItem('e2e.spoil') === 'yes') {
        kept.token = 'not-the-admin-token';
        sessionStorage.setItem(key, JSON.stringify(kept));
      }
    })();`,
  });

  await page.reload();
  await waitUsable(page);
  await expect(rowOf(page, name)).toBeVisible();
  const admin = (await page.evaluate(async () => {
    const listed = (await (await fetch('/sandbox/v1/identities?certificates=deferred')).json()) as {
      items: { name: string; token?: string }[];
    };
    return listed.items.find((identity) => identity.name === 'admin')?.token;
  })) as string | undefined;
  expect(admin).toBeTruthy();
  expect(await page.evaluate('globalThis.__keptToken')).toBe(admin);

  await page.evaluate("sessionStorage.setItem('e2e.spoil', 'yes')");
  await page.reload();
  await waitUsable(page);
  await expect(rowOf(page, name)).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  // The list is live (its watch went on from the adopted list): an object created now appears.
  const second = uniqueName('reload');
  await createConfigMap(page, second);
  await expect(rowOf(page, second)).toBeVisible();
});
