/**
 * (a) State lives in IndexedDB behind the worker: an object created from the
 * page's create panel is listed, survives a reload, and can be deleted with
 * its row's button. Needs the core's discovery and CRUD on configmaps.
 */

import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { api, apiOk, openSandbox, uniqueName, waitForController } from './support/sandbox';

test('an object created from the page is still there after a reload', async ({ page }, testInfo) => {
  await openSandbox(page);
  const name = uniqueName('cm');
  await expect(page.getByRole('button', { name: 'ConfigMap', exact: true })).toBeVisible();

  await page
    .getByLabel('Object (YAML or JSON)')
    .fill(
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: default\ndata:\n  greeting: hello\n`,
    );
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page.getByText(`Created ConfigMap ${name}`)).toBeVisible();
  await expect(rowOf(page, name)).toBeVisible();
  await snapshot(page, testInfo, 'created');

  await page.reload();
  await waitForController(page);
  await expect(rowOf(page, name)).toBeVisible();
  const stored = await apiOk<{ data?: Record<string, string> }>(
    page,
    'GET',
    `/api/v1/namespaces/default/configmaps/${name}`,
  );
  expect(stored.data).toEqual({ greeting: 'hello' });
  await snapshot(page, testInfo, 'after-reload');
});

test('the delete button removes the object', async ({ page }) => {
  await openSandbox(page);
  const name = uniqueName('doomed');
  await apiOk(
    page,
    'POST',
    '/api/v1/namespaces/default/configmaps',
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } },
    201,
  );
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(rowOf(page, name)).toBeVisible();

  await page.getByRole('button', { name: `Delete ${name}` }).click();
  await expect(rowOf(page, name)).toHaveCount(0);
  expect((await api(page, 'GET', `/api/v1/namespaces/default/configmaps/${name}`)).status).toBe(404);
});

function rowOf(page: Page, name: string) {
  return page.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });
}

async function snapshot(page: Page, testInfo: TestInfo, label: string): Promise<void> {
  await testInfo.attach(label, { body: await page.screenshot(), contentType: 'image/png' });
}
