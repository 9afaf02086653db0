/**
 * What a first-time user does without documentation, with the UI alone:
 * create a namespace and a ConfigMap in it, watch the ConfigMap change from
 * a second tab, provoke an apply conflict on it and resolve it, and reset
 * the sandbox.
 */

import { expect, test } from '@playwright/test';
import { api, uniqueName } from './support/sandbox';
import { openView, rowOf, setEditorText, waitUsable } from './support/ui';
import { awaitedLater } from '../test/support/awaited-later';

test('namespace, ConfigMap, a watch from a second tab, a conflict resolved, a reset', async ({ context }) => {
  // Five tasks in two tabs from a first visit, the reset rewriting the start-up set: on CI's two cores the steps
  // took 27 s of the default 30 before the reset began, each within its own 10 s expectation.
  test.setTimeout(60_000);
  const first = await context.newPage();
  const second = await context.newPage();
  await openView(first, 'explorer');
  await waitUsable(first);
  const namespace = uniqueName('demo');

  // A namespace, from the Namespace kind's template.
  await first.getByRole('button', { name: 'Namespace', exact: true }).click();
  await first
    .getByLabel('Object (YAML or JSON)')
    .fill(`apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${namespace}\n`);
  await first.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(rowOf(first, namespace)).toBeVisible();

  // A ConfigMap in it: choose the kind and the namespace, and the template follows.
  await first.getByRole('button', { name: 'ConfigMap', exact: true }).click();
  await first.getByLabel('Namespace', { exact: true }).selectOption(namespace);
  await expect(first.getByLabel('Object (YAML or JSON)')).toHaveValue(new RegExp(`namespace: ${namespace}`));
  await first.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(rowOf(first, 'example')).toBeVisible();

  // The second tab watches it.
  await openView(second, 'explorer', { kind: 'v1/configmaps', ns: namespace, name: 'example' });
  // "Watch it" opens the inspector in a tab of its own.
  const opening = awaitedLater(context.waitForEvent('page'));
  await second.getByRole('link', { name: /^Watch it/ }).click();
  const watcher = await opening;
  const events = watcher.getByRole('table', { name: 'Watch events' });
  await expect(events.getByText(/^listed 1 object/)).toBeVisible();

  // The first tab changes it in the editor; the second sees the change.
  await rowOf(first, 'example').getByRole('button', { name: 'example', exact: true }).click();
  await first.getByRole('link', { name: 'Edit in editor' }).click();
  await expect(first.locator('.cm-content')).toContainText('greeting: hello');
  await setEditorText(
    first,
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: example\n  namespace: ${namespace}\ndata:\n  greeting: hello, world\n`,
  );
  await first.getByRole('button', { name: 'Update…' }).click();
  await first.getByRole('button', { name: 'Confirm update' }).click();
  await expect(first.getByText(`Updated ConfigMap ${namespace}/example`)).toBeVisible();
  await expect(events.getByRole('row').filter({ hasText: 'MODIFIED' })).toBeVisible();

  // A conflict in the apply lab, started from the object, resolved with force.
  await first.getByRole('link', { name: 'Explorer' }).click();
  await first.getByRole('link', { name: 'Open in apply lab' }).click();
  const alice = first.getByRole('region', { name: 'Field manager alice' });
  const bob = first.getByRole('region', { name: 'Field manager bob' });
  await expect(alice.getByLabel('Applied configuration of alice')).toHaveValue(/greeting: hello, world/);
  await alice.getByRole('button', { name: 'Apply as alice' }).click();
  await expect(alice.getByText(/^Applied: HTTP 200/)).toBeVisible();
  await bob
    .getByLabel('Applied configuration of bob')
    .fill(
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: example\n  namespace: ${namespace}\ndata:\n  greeting: bonjour\n`,
    );
  await bob.getByRole('button', { name: 'Apply as bob' }).click();
  await expect(first.getByRole('region', { name: 'Conflict of bob' })).toContainText('.data.greeting');
  await first.getByRole('region', { name: 'Conflict of bob' }).getByRole('button', { name: 'Force' }).click();
  await expect(bob.getByText(/^Forced: HTTP 200/)).toBeVisible();
  await expect(events.getByRole('row').filter({ hasText: 'MODIFIED' }).nth(1)).toBeVisible();

  // Reset the sandbox: the namespace goes, and the watch sees the ConfigMap deleted.
  await first.getByRole('link', { name: 'Workshop' }).click();
  await first.getByRole('button', { name: 'Reset the sandbox…' }).click();
  await first.getByRole('button', { name: 'Yes, reset the sandbox' }).click();
  await expect(first.getByText(/^The sandbox is clean/)).toBeVisible();
  await expect(events.getByRole('row').filter({ hasText: 'DELETED' })).toBeVisible();
  expect((await api(first, 'GET', `/api/v1/namespaces/${namespace}`)).status).toBe(404);
});

test('a Pod created the moment the screen is usable is admitted: the default account is waited for', async ({
  page,
}) => {
  // The controllers start after the first screen; a Pod naming the `default` account must not be refused
  // because the serviceaccount controller has not made it yet (decision 0073).
  await openView(page, 'explorer');
  await waitUsable(page);
  await page.getByRole('button', { name: 'Pod', exact: true }).click();
  await expect(page.getByLabel('Object (YAML or JSON)')).toHaveValue(/kind: Pod/);
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(rowOf(page, 'example')).toBeVisible();
  await expect(page.getByText(/error looking up service account/)).toHaveCount(0);
});
