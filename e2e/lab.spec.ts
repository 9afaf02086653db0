/**
 * The apply-conflict lab: two managers apply to one Deployment; the second
 * gets a 409 with the conflicting field, and each of the three ways out
 * (force, drop the field, adopt the server's value) resolves it with the
 * request it shows; the live ownership view colours fields by manager and
 * marks shared ones. Every guided scenario's steps get the answers the
 * spec's apply rules predict.
 */

import { expect, test, type Page } from '@playwright/test';
import { openView, shot } from './support/ui';

async function startScenario(page: Page, title: string): Promise<void> {
  await page.getByLabel('Scenario', { exact: true }).selectOption({ label: title });
  await page.getByRole('button', { name: 'Start over' }).click();
  await expect(page.getByText('The object does not exist yet')).toBeVisible();
}

async function runSteps(page: Page, count: number): Promise<void> {
  const steps = page.getByRole('region', { name: 'Scenario steps' });
  for (let i = 1; i <= count; i++) {
    await steps.getByRole('button', { name: new RegExp(`^Step ${i}:`) }).click();
    await expect(
      steps
        .getByRole('listitem')
        .nth(i - 1)
        .getByRole('status'),
    ).toBeVisible();
  }
  await expect(steps.locator('li.failed')).toHaveCount(0);
  await expect(steps.locator('li.passed')).toHaveCount(count);
}

test('a conflict, its three ways out, and the ownership view', async ({ page }, testInfo) => {
  await openView(page, 'lab', { scenario: 'conflict' });
  await startScenario(page, 'Conflict: two managers, one field');
  await runSteps(page, 2);

  const bob = page.getByRole('region', { name: 'Field manager bob' });
  const conflict = page.getByRole('region', { name: 'Conflict of bob' });
  await expect(conflict).toContainText('409 Conflict');
  await expect(conflict.getByRole('listitem').filter({ hasText: '.spec.replicas' })).toContainText(
    'conflict with "alice"',
  );
  for (const way of ['Force', 'Drop the fields', "Adopt the server's values"])
    await expect(conflict.getByRole('button', { name: way })).toBeVisible();
  await expect(conflict.locator('.way').nth(0)).toContainText('fieldManager=bob&force=true');
  const ownership = page.getByRole('region', { name: 'Ownership' });
  // spec.replicas: the first such line (the Deployment controller's status lines, replicas among them, follow).
  const specReplicas = (text: string) => ownership.locator('.own-line').filter({ hasText: text }).first();
  await expect(specReplicas('replicas:')).toContainText('alice');
  await conflict.scrollIntoViewIfNeeded();
  await shot(page, testInfo, 'lab-409');

  // Adopting the server's value makes bob a co-owner of .spec.replicas.
  await conflict.getByRole('button', { name: "Adopt the server's values" }).click();
  await expect(bob.getByText(/^Applied: HTTP 200/)).toBeVisible();
  await expect(bob.getByLabel('Applied configuration of bob')).toHaveValue(/replicas: 2/);
  const replicas = specReplicas('replicas:');
  await expect(replicas).toContainText('alice');
  await expect(replicas).toContainText('bob');
  await expect(replicas.locator('.shared-mark')).toBeVisible();

  // Any later change to the shared field conflicts; forcing takes it over.
  await bob
    .getByLabel('Applied configuration of bob')
    .fill(
      'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: lab-web\n  namespace: default\nspec:\n  replicas: 7\n',
    );
  await bob.getByRole('button', { name: 'Apply as bob' }).click();
  await expect(page.getByRole('region', { name: 'Conflict of bob' })).toContainText('.spec.replicas');
  await page.getByRole('region', { name: 'Conflict of bob' }).getByRole('button', { name: 'Force' }).click();
  await expect(bob.getByText(/^Forced: HTTP 200/)).toBeVisible();
  await expect(specReplicas('replicas: 7')).not.toContainText('alice');

  // Dropping the field releases it: alice's apply without replicas no longer conflicts.
  const alice = page.getByRole('region', { name: 'Field manager alice' });
  await alice.getByRole('button', { name: 'Apply as alice' }).click();
  await page
    .getByRole('region', { name: 'Conflict of alice' })
    .getByRole('button', { name: 'Drop the fields' })
    .click();
  await expect(alice.getByText(/^Applied: HTTP 200/)).toBeVisible();
  await expect(alice.getByLabel('Applied configuration of alice')).not.toHaveValue(/replicas/);
});

test('every guided scenario behaves as the apply rules say', async ({ page }) => {
  await openView(page, 'lab', { scenario: 'force' });
  for (const [title, steps] of [
    ['Force: taking a field over', 3],
    ['Shared ownership', 3],
    ['Removing fields no longer applied', 4],
    ['List type atomic', 2],
    ['List type set', 3],
    ['List type map', 3],
  ] as const) {
    await startScenario(page, title);
    await runSteps(page, steps);
  }
});
