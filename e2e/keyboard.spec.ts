/**
 * The UI is usable from the keyboard alone: a skip link first, kinds chosen
 * with Enter, and an object created without the mouse. Needs discovery and
 * CRUD from the core.
 */

import { expect, test } from '@playwright/test';
import { openSandbox, uniqueName } from './support/sandbox';

test('choose a kind and create an object with the keyboard only', async ({ page }) => {
  await openSandbox(page);
  await expect(page.getByRole('button', { name: 'Namespace', exact: true })).toBeVisible();

  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to objects' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main')).toBeFocused();

  await page.getByRole('button', { name: 'Namespace', exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Namespace (v1)' })).toBeVisible();
  await expect(page.getByRole('rowheader', { name: 'default', exact: true })).toBeVisible();

  const name = uniqueName('kb');
  const editor = page.getByLabel('Object (YAML or JSON)');
  await editor.focus();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(`apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${name}\n`);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Create', exact: true })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('rowheader', { name, exact: true })).toBeVisible();
});
