/**
 * Quality across the views: reachable and usable from the keyboard, no
 * horizontal scrolling at a projector's 1280×720, a dark theme that
 * persists, and a layout that stays put while a watch streams changes in.
 */

import { expect, test, type Page } from '@playwright/test';
import { uniqueName } from './support/sandbox';
import { createConfigMap, openView, rowOf, shot, waitUsable } from './support/ui';

async function tabTo(page: Page, target: ReturnType<Page['getByRole']>, most = 30): Promise<void> {
  for (let i = 0; i < most; i++) {
    if (await target.evaluate((el) => el === el.ownerDocument.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

test('keyboard navigation, 1280×720 without horizontal scrolling, dark theme', async ({ page }, testInfo) => {
  await openView(page, 'explorer');
  await waitUsable(page);

  // From the skip link to the view tabs, then into the watch inspector and its start button.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to objects' })).toBeFocused();
  const watchTab = page.getByRole('link', { name: 'Watch', exact: true });
  await tabTo(page, watchTab);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Watch inspector' })).toBeVisible();
  const start = page.getByRole('button', { name: 'Start watch' });
  await tabTo(page, start, 60);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Stop' })).toBeEnabled();

  for (const view of ['explorer', 'editor', 'watch', 'console', 'lab', 'workshop']) {
    await page.goto(`/#/${view}`);
    await expect(page.locator('.view:not([hidden]) main')).toBeVisible();
    const widths = (await page.evaluate(
      '({ scroll: document.documentElement.scrollWidth, view: window.innerWidth })',
    )) as { scroll: number; view: number };
    expect(widths.scroll, `${view} scrolls sideways`).toBeLessThanOrEqual(widths.view);
  }

  await page.getByLabel('Theme').selectOption('dark');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.goto('/#/explorer');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await waitUsable(page);
  const background = await page.evaluate('getComputedStyle(document.documentElement).backgroundColor');
  expect(background).toBe('rgb(16, 22, 29)');
  await shot(page, testInfo, 'explorer-dark');
});

test('rows arriving through the watch do not move what is already on screen', async ({ page }) => {
  await openView(page, 'explorer');
  await waitUsable(page);
  const firstName = `a-${uniqueName('first')}`;
  await createConfigMap(page, firstName);
  await expect(rowOf(page, firstName)).toBeVisible();
  const heading = page.getByRole('heading', { name: 'ConfigMap (v1)' });
  const before = { heading: await heading.boundingBox(), row: await rowOf(page, firstName).boundingBox() };

  const later = Array.from({ length: 6 }, () => `z-${uniqueName('later')}`);
  for (const name of later) await createConfigMap(page, name, { n: name });
  for (const name of later) await expect(rowOf(page, name)).toBeVisible();

  expect(await heading.boundingBox()).toEqual(before.heading);
  expect(await rowOf(page, firstName).boundingBox()).toEqual(before.row);
});
