/**
 * Accessibility of every view: one main landmark and one `id="main"` in the
 * page however many views have been opened (they stay mounted while
 * hidden), a skip link that moves focus to the view's main region, and an
 * axe-core scan of each view, in light and dark themes, with no serious or
 * critical violations. Each violation is printed with its rule, help text
 * and the elements it names, so a failure says what to fix.
 */

import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { openView, waitUsable } from './support/ui';

// The spec sections page is a view too (no tab; error explanations link to it); the helpers' type predates it.
// Nine views, each scanned by axe (a few seconds each on a loaded machine): more than the default 30 s.
test.describe.configure({ timeout: 120_000 });

const views = [
  'explorer',
  'editor',
  'watch',
  'console',
  'lab',
  'workshop',
  'traces',
  'webhooks',
  'spec',
] as const;
type View = (typeof views)[number];

async function showView(page: Page, view: View): Promise<void> {
  await page.goto(`/#/${view}`);
  await expect(page.locator('.view:not([hidden]) main')).toBeVisible();
  // The lazy views show a loading line first; wait until it has gone.
  await expect(page.locator('.view:not([hidden]) .view-loading')).toHaveCount(0);
}

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact ?? '?'}): ${v.help}\n` +
        v.nodes.map((n) => `    ${n.target.join(' ')} — ${n.failureSummary ?? ''}`).join('\n'),
    );
}

test('one main landmark and working skip links, whichever views were opened', async ({ page }) => {
  await openView(page, 'explorer');
  await waitUsable(page);
  for (const view of views) await showView(page, view);
  for (const view of views) {
    await showView(page, view);
    await expect(page.locator('[id="main"]')).toHaveCount(1);
    await expect(page.getByRole('main')).toHaveCount(1);
    await page.locator('body').focus();
    const skip = page.locator('.skip-link');
    await skip.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('main'), `${view}: the skip link focuses the main region`).toBeFocused();
  }
});

for (const theme of ['light', 'dark'] as const)
  test(`axe-core finds no serious or critical violations in any view (${theme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: theme });
    await openView(page, 'explorer');
    await waitUsable(page);
    const found: string[] = [];
    for (const view of views) {
      await showView(page, view);
      if (view === 'explorer') await waitUsable(page);
      found.push(...(await seriousViolations(page)).map((v) => `[${view}] ${v}`));
    }
    // A Status error with its explanation, as the Create panel shows it.
    await showView(page, 'explorer');
    await waitUsable(page);
    await page
      .getByLabel('Object (YAML or JSON)')
      .fill('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: Bad_Name\n');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await expect(page.locator('.create-panel .error')).toBeVisible();
    found.push(...(await seriousViolations(page)).map((v) => `[explorer error] ${v}`));
    expect(found, found.join('\n')).toEqual([]);
  });
