/**
 * Workshop features: server settings (history window, feature gates),
 * export of the whole state to a file and import back, reset to a clean
 * cluster, scenarios loaded from a shareable link (a file URL or a link
 * that carries the objects) into a fresh browser, and switching the naming
 * profile, which re-registers the worker.
 */

import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { api, apiOk, uniqueName, waitForController } from './support/sandbox';
import { createConfigMap, openView, rowOf, shot, waitUsable } from './support/ui';
import { awaitedLater } from '../test/support/awaited-later';

// Reset, import and a fresh browser scale with the store: run last in the suite, they meet every earlier
// test's objects and the simulated cluster running their pods, which took them past 30 s on a loaded machine.
test.describe.configure({ timeout: 90_000 });

test('settings, export and import of the state, and reset', async ({ page }, testInfo) => {
  await openView(page, 'workshop');
  const settings = page.getByRole('region', { name: 'Settings' });
  await settings.getByRole('button', { name: '10 s' }).click();
  await expect(settings.getByText('History window set to 10 s.')).toBeVisible();
  await expect(settings.getByLabel('Seconds')).toHaveValue('10');
  await settings.getByRole('checkbox', { name: 'WatchList' }).check();
  await expect(settings.getByText('WatchList on.')).toBeVisible();
  // Every v1.27 gate is offered with its stage and default; a locked GA gate cannot be turned off.
  await expect(settings.getByRole('checkbox', { name: 'ServerSideApply' })).toBeDisabled();
  await expect(settings.getByText('ALPHA · default off').first()).toBeVisible();
  const stored = await apiOk<{ compactionIntervalMs: number; featureGates: Record<string, boolean> }>(
    page,
    'GET',
    '/sandbox/v1/settings',
  );
  expect(stored).toMatchObject({ compactionIntervalMs: 10_000, featureGates: { WatchList: true } });
  await shot(page, testInfo, 'workshop-settings');

  // Export, change the state, import the file: the exported state is back.
  const name = uniqueName('saved');
  await createConfigMap(page, name, { kept: 'yes' });
  const stateCard = page.getByRole('region', { name: 'State file' });
  const download = awaitedLater(page.waitForEvent('download'));
  await stateCard.getByRole('button', { name: 'Export state' }).click();
  const file = testInfo.outputPath('state.json');
  await (await download).saveAs(file);
  expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ formatName: 'dexie', formatVersion: 1 });
  await expect(stateCard.getByText(/^Saved orch-sandbox-orch-rv\d+\.json/)).toBeVisible();
  await api(page, 'DELETE', `/api/v1/namespaces/default/configmaps/${name}`);
  expect((await api(page, 'GET', `/api/v1/namespaces/default/configmaps/${name}`)).status).toBe(404);
  // Picking the file asks first, saying what would be replaced; Cancel keeps the current state.
  await stateCard.getByLabel('Import state…').setInputFiles(file);
  const confirm = stateCard.getByRole('group', { name: 'Confirm the import' });
  await expect(confirm).toContainText(
    /Replace the whole sandbox with state\.json\? The file holds \d+ objects/,
  );
  await expect(confirm).toContainText(/the history up to resourceVersion \d+/);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);
  expect((await api(page, 'GET', `/api/v1/namespaces/default/configmaps/${name}`)).status).toBe(404);
  await stateCard.getByLabel('Import state…').setInputFiles(file);
  await confirm.getByRole('button', { name: 'Yes, replace the sandbox' }).click();
  await expect(stateCard.getByText(/^Imported state\.json/)).toBeVisible();
  expect((await api(page, 'GET', `/api/v1/namespaces/default/configmaps/${name}`)).status).toBe(200);
  // The settings card reads the revision again at once: never behind the import's own line.
  const imported = Number(
    /resourceVersion (\d+)/.exec(
      (await stateCard.getByText(/^Imported state\.json/).textContent()) ?? '',
    )?.[1],
  );
  await expect
    .poll(async () => Number(/Now at rv (\d+)/.exec((await settings.textContent()) ?? '')?.[1] ?? -1))
    .toBeGreaterThanOrEqual(imported);

  // Reset, after a confirmation — acting as alice: the controls act as the owner, and the view says so.
  await page.getByRole('button', { name: /^Acting as .*Change identity$/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Choose the identity the UI acts as' });
  await dialog.getByRole('radio', { name: /^alice/ }).check();
  await dialog.getByRole('button', { name: 'Act as this identity' }).click();
  await expect(page.getByRole('note', { name: 'Whom these controls act as' })).toContainText(
    "These controls do not act as alice: they act as the sandbox's owner, you.",
  );
  const reset = page.getByRole('region', { name: 'Reset' });
  await reset.getByRole('button', { name: 'Reset the sandbox…' }).click();
  await reset.getByRole('button', { name: 'Yes, reset the sandbox' }).click();
  await expect(reset.getByText(/^The sandbox is clean/)).toBeVisible();
  expect((await api(page, 'GET', `/api/v1/namespaces/default/configmaps/${name}`)).status).toBe(404);
  expect((await api(page, 'GET', '/api/v1/namespaces/default')).status).toBe(200);
});

test('a shareable link starts a fresh browser from the same scenario', async ({ page, browser }) => {
  // A scenario file that comes with the app, by link.
  await openView(page, 'workshop', { scenario: '/scenarios/first-steps.yaml' });
  const banner = page.getByRole('region', { name: 'Shared scenario' });
  await expect(banner.getByText('First steps')).toBeVisible();
  await banner.getByRole('button', { name: 'Load it' }).click();
  await waitUsable(page);
  await expect(page.getByLabel('Namespace', { exact: true })).toHaveValue('workshop');
  await expect(rowOf(page, 'greeting')).toBeVisible();

  // A link that carries its objects, made from manifests, opened by another attendee.
  await page.goto('/#/workshop');
  const scenarios = page.getByRole('region', { name: 'Scenarios' });
  const name = uniqueName('shared');
  await scenarios
    .getByLabel('Objects (YAML, documents separated by ---)')
    .fill(
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: default\ndata:\n  from: link\n`,
    );
  await scenarios.getByRole('button', { name: 'Create link' }).click();
  const link = await scenarios.getByLabel('Shareable link').inputValue();
  expect(link).toContain('#/workshop?scenario-data=');

  const attendee = await browser.newContext();
  try {
    const other = await attendee.newPage();
    await other.goto(link);
    await waitForController(other);
    const shared = other.getByRole('region', { name: 'Shared scenario' });
    await expect(shared.getByText('1 object')).toBeVisible();
    await shared.getByRole('button', { name: 'Load it' }).click();
    await waitUsable(other);
    await expect(rowOf(other, name)).toBeVisible();
  } finally {
    await attendee.close();
  }
});

test('switching the profile re-registers the worker with upstream group names', async ({ page }) => {
  await openView(page, 'workshop');
  const settings = page.getByRole('region', { name: 'Settings' });
  await settings.getByRole('radio', { name: /kubernetes/ }).check();
  await settings.getByRole('button', { name: 'Switch to kubernetes' }).click();
  await expect(page.getByLabel('Naming profile')).toHaveText('kubernetes');
  const answer = await apiOk<{ profile: string }>(page, 'GET', '/sandbox/v1/settings');
  expect(answer.profile).toBe('kubernetes');
  await page.goto('/#/explorer');
  await expect(page.getByRole('region', { name: 'rbac.authorization.k8s.io' })).toBeVisible();
});
