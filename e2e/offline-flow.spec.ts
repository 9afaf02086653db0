/**
 * Offline after the first load: with the network gone, a reload still
 * brings up the app (the worker precached the shell and every view's
 * chunk), and a whole create → watch → apply-conflict flow runs against
 * the in-browser API.
 */

import { expect, test } from '@playwright/test';
import { api, uniqueName, waitForController, waitForOfflineShell } from './support/sandbox';
import { openView, rowOf, waitUsable } from './support/ui';
import { awaitedLater } from '../test/support/awaited-later';

test('offline: create, watch and resolve an apply conflict', async ({ page, context }) => {
  await openView(page, 'explorer');
  await waitUsable(page);
  await waitForOfflineShell(page);
  await context.setOffline(true);
  await page.reload();
  await waitForController(page);
  await waitUsable(page);

  // Create from the explorer.
  const name = uniqueName('offline');
  await page
    .getByLabel('Object (YAML or JSON)')
    .fill(
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: default\ndata:\n  mode: offline\n`,
    );
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(rowOf(page, name)).toBeVisible();

  // Watch it: the inspector's chunk comes from the worker's cache.
  await rowOf(page, name).getByRole('button', { name, exact: true }).click();
  // "Watch it" opens the inspector in a tab of its own.
  const opening = awaitedLater(page.context().waitForEvent('page'));
  await page.getByRole('link', { name: /^Watch it/ }).click();
  const watcher = await opening;
  const events = watcher.getByRole('table', { name: 'Watch events' });
  await expect(events.getByText(/^listed 1 object at resourceVersion \d+$/)).toBeVisible();
  await api(
    page,
    'PATCH',
    `/api/v1/namespaces/default/configmaps/${name}`,
    { data: { mode: 'still offline' } },
    'application/merge-patch+json',
  );
  await expect(
    events.getByRole('row').filter({ hasText: 'MODIFIED' }).filter({ hasText: name }),
  ).toBeVisible();

  // An apply conflict, resolved by force.
  await page.getByRole('link', { name: 'Apply lab', exact: true }).click();
  await page
    .getByLabel('Scenario', { exact: true })
    .selectOption({ label: 'Conflict: two managers, one field' });
  await page.getByRole('button', { name: 'Start over' }).click();
  const steps = page.getByRole('region', { name: 'Scenario steps' });
  await steps.getByRole('button', { name: /^Step 1:/ }).click();
  await expect(steps.getByText(/✓ HTTP 20\d: applied/)).toBeVisible();
  await steps.getByRole('button', { name: /^Step 2:/ }).click();
  const bob = page.getByRole('region', { name: 'Field manager bob' });
  await expect(page.getByRole('region', { name: 'Conflict of bob' })).toContainText('.spec.replicas');
  await page.getByRole('region', { name: 'Conflict of bob' }).getByRole('button', { name: 'Force' }).click();
  await expect(bob.getByText(/^Forced: HTTP 200/)).toBeVisible();
  // spec.replicas is the first such line; the Deployment controller's status lines (unavailableReplicas…) follow.
  await expect(
    page
      .getByRole('region', { name: 'Ownership' })
      .locator('.own-line')
      .filter({ hasText: 'replicas: 5' })
      .first(),
  ).toContainText('bob');
});
