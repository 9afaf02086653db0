import { test } from '@playwright/test';
import { openSandbox } from './support/sandbox';

test('scratch screenshots', async ({ page }) => {
  page.on('console', (m) => { if (m.type() === 'error') console.log('console error:', m.text()); });
  page.on('pageerror', (e) => console.log('page error:', e.message));
  await openSandbox(page);
  await page.waitForSelector('[data-usable]');
  await page.screenshot({ path: '.scratch/ui5/shots/explorer.png' });
  for (const view of ['editor', 'watch', 'console', 'lab', 'workshop']) {
    await page.goto(`/#/${view}`);
    await page.waitForTimeout(1500);
    await page.screenshot({ path: `.scratch/ui5/shots/${view}.png` });
  }
});
