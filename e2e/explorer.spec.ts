/**
 * The explorer lists a kind live through a watch (a change made by another
 * client appears without a refresh), with the server's per-kind Table
 * columns; opens an object with its YAML, folded managedFields and
 * relationships; and deletes several objects at once with a progress bar.
 */

import { expect, test } from '@playwright/test';
import { api, uniqueName } from './support/sandbox';
import { createConfigMap, openView, rowOf, shot, waitUsable } from './support/ui';

test('a live Table of ConfigMaps, an object view, and a bulk delete', async ({ page }, testInfo) => {
  await openView(page, 'explorer');
  await waitUsable(page);
  const main = page.getByRole('main');

  // Another client creates and changes objects; the table follows without a refresh.
  const name = uniqueName('live');
  await createConfigMap(page, name, { color: 'blue' });
  await expect(rowOf(page, name)).toBeVisible();
  await expect(main.getByRole('columnheader', { name: 'Name', exact: true })).toBeVisible();
  await expect(main.getByRole('columnheader', { name: 'Data' })).toBeVisible();
  await api(
    page,
    'PATCH',
    `/api/v1/namespaces/default/configmaps/${name}`,
    { data: { color: 'green', size: 'large' } },
    'application/merge-patch+json',
  );
  await expect(rowOf(page, name).getByRole('cell', { name: '2', exact: true })).toBeVisible();

  // The object view: YAML, relationships, managedFields folded.
  await rowOf(page, name).getByRole('button', { name, exact: true }).click();
  const panel = page.getByRole('region', { name: `ConfigMap default/${name}` });
  await expect(panel.getByLabel(`YAML of ConfigMap default/${name}`)).toContainText('color: green');
  await expect(panel.getByText('Relationships')).toBeVisible();
  await expect(panel.getByRole('link', { name: 'default', exact: true })).toBeVisible();
  const fold = panel.locator('details.managed-fields');
  await expect(fold).toBeVisible();
  await expect(fold).not.toHaveAttribute('open', '');
  await expect(panel.getByLabel(`YAML of ConfigMap default/${name}`)).not.toContainText('managedFields');
  await shot(page, testInfo, 'explorer');

  // Bulk delete with progress.
  const doomed = [uniqueName('bulk'), uniqueName('bulk'), uniqueName('bulk')];
  for (const d of doomed) await createConfigMap(page, d);
  for (const d of doomed) {
    await expect(rowOf(page, d)).toBeVisible();
    await page.getByRole('checkbox', { name: `Select ${d}` }).check();
  }
  await expect(page.getByText('3 selected')).toBeVisible();
  await page.getByRole('button', { name: 'Delete selected' }).click();
  await page.getByRole('button', { name: 'Yes, delete 3' }).click();
  await expect(page.getByText('Deleted 3 of 3')).toBeVisible();
  for (const d of doomed) await expect(rowOf(page, d)).toHaveCount(0);
  await expect(rowOf(page, name)).toBeVisible();
});
