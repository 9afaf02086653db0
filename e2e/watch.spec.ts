/**
 * The watch inspector: the raw events of a watch as they arrive, including
 * changes made from a second tab; a MODIFIED diffed against the previous
 * state; pause with buffering; and a 410 Gone after the watch cache starts again, followed
 * by the relist and a new watch from the list's version.
 */

import { expect, test } from '@playwright/test';
import { api, openSandbox, uniqueName } from './support/sandbox';
import { createConfigMap, openView, shot } from './support/ui';

test('events from another tab, a diff, pause, and a 410 with its relist', async ({ context }, testInfo) => {
  const inspector = await context.newPage();
  const other = await context.newPage();
  await openView(inspector, 'watch');
  await openSandbox(other);

  await inspector.getByRole('button', { name: 'Start watch' }).click();
  const events = inspector.getByRole('table', { name: 'Watch events' });
  await expect(events.getByText(/^listed \d+ objects? at resourceVersion \d+$/)).toBeVisible();
  await expect(
    events.getByText(/^GET \/api\/v1\/namespaces\/default\/configmaps\?resourceVersion=\d+.*watch=true$/),
  ).toBeVisible();

  // Changes from the other tab arrive as events.
  const name = uniqueName('watched');
  await createConfigMap(other, name, { step: 'one' });
  await api(
    other,
    'PATCH',
    `/api/v1/namespaces/default/configmaps/${name}`,
    { data: { step: 'two' } },
    'application/merge-patch+json',
  );
  const modified = events.getByRole('row').filter({ hasText: 'MODIFIED' }).filter({ hasText: name });
  await expect(events.getByRole('row').filter({ hasText: 'ADDED' }).filter({ hasText: name })).toBeVisible();
  await expect(modified).toBeVisible();
  await modified.getByRole('button', { name: `default/${name}` }).click();
  const diff = inspector.getByLabel('Changes against the previous state');
  await expect(diff.locator('.diff-removed')).toContainText(['resourceVersion', 'step: one']);
  await expect(diff.locator('.diff-added')).toContainText(['resourceVersion', 'step: two']);

  // Paused, new events wait in a buffer.
  await inspector.getByRole('button', { name: 'Pause' }).click();
  await api(other, 'DELETE', `/api/v1/namespaces/default/configmaps/${name}`);
  await expect(inspector.getByRole('button', { name: 'Resume (1 buffered)' })).toBeVisible();
  await expect(events.getByRole('row').filter({ hasText: 'DELETED' })).toHaveCount(0);
  await inspector.getByRole('button', { name: 'Resume (1 buffered)' }).click();
  await expect(
    events.getByRole('row').filter({ hasText: 'DELETED' }).filter({ hasText: name }),
  ).toBeVisible();

  // Compaction alone leaves watches to the watch cache; a cache that starts again (as after a server restart)
  // makes the watch's first resourceVersion too old: restarting there gives 410, then a relist.
  await inspector.getByRole('button', { name: 'Compact history now' }).click();
  await expect(events.getByText(/^history compacted/)).toBeVisible();
  await inspector.getByRole('button', { name: 'Reset watch cache' }).click();
  await expect(events.getByText(/^watch cache restarted at rv \d+/)).toBeVisible();
  await inspector.getByRole('button', { name: /^Restart from rv \d+$/ }).click();
  const gone = events.getByRole('row').filter({ hasText: 'ERROR' });
  await expect(gone).toContainText('410 Expired');
  await expect(events.getByText(/^listed \d+ objects? at resourceVersion \d+$/)).toHaveCount(2);
  await expect(events.getByText(/^GET .*watch=true$/)).toHaveCount(3);
  await shot(inspector, testInfo, 'watch-410');

  // The restarted watch is live.
  const after = uniqueName('after');
  await createConfigMap(other, after);
  await expect(events.getByRole('row').filter({ hasText: 'ADDED' }).filter({ hasText: after })).toBeVisible();
});
