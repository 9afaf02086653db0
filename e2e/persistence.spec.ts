/**
 * (a) State lives in IndexedDB behind the worker: an object created from the
 * page's create panel is listed, survives a reload, and can be deleted with
 * its row's button; and the state outlives the worker, which the browser
 * stops when idle. Needs the core's discovery and CRUD on configmaps.
 */

import { expect, test, type Page, type TestInfo } from '@playwright/test';
import {
  api,
  apiOk,
  openSandbox,
  uniqueName,
  waitForController,
  type ObjectWithMeta,
} from './support/sandbox';

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
  // The confirmation names the object and what the deletion reaches before anything is sent.
  const dialog = page.getByRole('dialog');
  await expect(dialog).toHaveAccessibleName(`Delete ConfigMap default/${name}?`);
  await expect(dialog).toContainText('no object names it as its owner');
  await dialog.getByRole('button', { name: 'Yes, delete' }).click();
  await expect(dialog.getByRole('status')).toContainText(`Deleted ConfigMap default/${name}`);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(rowOf(page, name)).toHaveCount(0);
  expect((await api(page, 'GET', `/api/v1/namespaces/default/configmaps/${name}`)).status).toBe(404);
});

test('state survives the browser stopping the idle worker', async ({ page, context }) => {
  await openSandbox(page);
  const name = uniqueName('restart');
  const created = await apiOk<ObjectWithMeta>(
    page,
    'POST',
    '/api/v1/namespaces/default/configmaps',
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } },
    201,
  );
  // The probe's in-memory record tells this worker instance from the next one.
  const marker = uniqueName('instance');
  await page.evaluate(async (id) => {
    const controller = new AbortController();
    const response = await fetch(`/__sandbox/probe/stream/${id}`, { signal: controller.signal });
    await response.body!.getReader().read();
    controller.abort();
  }, marker);
  await expect
    .poll(async () => (await api(page, 'GET', `/__sandbox/probe/status/${marker}`)).body)
    .toMatchObject({ state: 'cancelled' });

  // What Chrome does to a worker idle for 30–45 s; the next request starts a fresh one with a fresh server.
  const cdp = await context.newCDPSession(page);
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  expect((await api(page, 'GET', `/__sandbox/probe/status/${marker}`)).body).toEqual({ state: 'unknown' });
  const read = await apiOk<ObjectWithMeta>(page, 'GET', `/api/v1/namespaces/default/configmaps/${name}`);
  expect(read.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
  const next = await apiOk<ObjectWithMeta>(
    page,
    'POST',
    '/api/v1/namespaces/default/configmaps',
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${name}-after` } },
    201,
  );
  expect(BigInt(next.metadata.resourceVersion) > BigInt(created.metadata.resourceVersion)).toBe(true);
});

function rowOf(page: Page, name: string) {
  return page.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });
}

async function snapshot(page: Page, testInfo: TestInfo, label: string): Promise<void> {
  await testInfo.attach(label, { body: await page.screenshot(), contentType: 'image/png' });
}
