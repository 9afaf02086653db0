/**
 * Helpers for the UI tests: open a view of the app once the worker serves
 * it, wait until the explorer is usable, save a named screenshot as a test
 * artifact (the README's images are copied from these), and create objects
 * through the in-page API as another client would.
 */

import { expect, type Page, type TestInfo } from '@playwright/test';
import { apiOk, openSandbox } from './sandbox';

export type ViewName = 'explorer' | 'editor' | 'watch' | 'console' | 'lab' | 'workshop';

/** Loads the app at a view (`#/view?params`) and waits for its main region. */
export async function openView(
  page: Page,
  view: ViewName,
  params: Record<string, string> = {},
): Promise<void> {
  const query = new URLSearchParams(params).toString();
  await openSandbox(page, `/#/${view}${query === '' ? '' : `?${query}`}`);
  await expect(page.locator('.view:not([hidden]) main')).toBeVisible();
}

/** Waits until the explorer has discovery and a live list. */
export async function waitUsable(page: Page): Promise<void> {
  await expect(page.locator('[data-usable="true"]')).toHaveCount(1);
}

/** A screenshot of the page, saved in the test's output folder and attached to the report. */
export async function shot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

export function configMap(name: string, data: Record<string, string>, namespace = 'default') {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data };
}

export async function createConfigMap(
  page: Page,
  name: string,
  data: Record<string, string> = {},
  namespace = 'default',
): Promise<{ metadata: { resourceVersion: string } }> {
  return apiOk(
    page,
    'POST',
    `/api/v1/namespaces/${namespace}/configmaps`,
    configMap(name, data, namespace),
    201,
  );
}

/** Replaces the whole text of the CodeMirror editor on the page. */
export async function setEditorText(page: Page, text: string): Promise<void> {
  const content = page.locator('.cm-content');
  await content.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

/** The row of the explorer's table whose name cell is `name`. */
export function rowOf(page: Page, name: string) {
  return page.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });
}
