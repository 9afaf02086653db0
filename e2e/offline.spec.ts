/**
 * (c) Offline after the first load: the worker precaches the app shell once
 * it is active, so with the network gone a reload (and a deep link) still renders
 * the app, and the in-browser API still answers. The first test needs only
 * the browser host; the second needs the core's CRUD.
 */

import { expect, test } from '@playwright/test';
import {
  api,
  apiOk,
  openSandbox,
  uniqueName,
  waitForController,
  waitForOfflineShell,
  type ListOf,
  type ObjectWithMeta,
} from './support/sandbox';

test('the shell renders offline and /version still answers', async ({ page, context }, testInfo) => {
  await openSandbox(page);
  await waitForOfflineShell(page);
  await context.setOffline(true);

  await page.reload();
  await waitForController(page);
  await expect(page.getByRole('heading', { name: 'Orch Sandbox', level: 1 })).toBeVisible();
  await expect(page.getByLabel('Server version')).toContainText('v1.27');
  expect((await api(page, 'GET', '/version')).status).toBe(200);
  await testInfo.attach('offline', { body: await page.screenshot(), contentType: 'image/png' });

  // A navigation the network would answer with index.html falls back to the cached copy.
  await page.goto('/some/deep/link');
  await expect(page.getByRole('heading', { name: 'Orch Sandbox', level: 1 })).toBeVisible();
});

test('offline, the in-browser API still reads and writes objects', async ({ page, context }) => {
  await openSandbox(page);
  await waitForOfflineShell(page);
  await context.setOffline(true);
  await page.reload();
  await waitForController(page);

  const namespaces = await apiOk<ListOf<ObjectWithMeta>>(page, 'GET', '/api/v1/namespaces');
  expect(namespaces.items.map((ns) => ns.metadata.name)).toContain('default');
  const name = uniqueName('offline');
  await apiOk(
    page,
    'POST',
    '/api/v1/namespaces/default/configmaps',
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } },
    201,
  );
  await apiOk(page, 'GET', `/api/v1/namespaces/default/configmaps/${name}`);
});
