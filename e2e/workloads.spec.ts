/**
 * The workload controllers in the browser host: a ReplicaSet created
 * through the API gets its pods from the controller running in the app's
 * service worker, and the Explorer shows a pod's owner chain with a link
 * to its ReplicaSet.
 */

import { expect, test } from '@playwright/test';
import { apiOk, uniqueName, type ListOf, type ObjectWithMeta } from './support/sandbox';
import { openView, waitUsable } from './support/ui';

test('a ReplicaSet makes its pods in the browser, and a pod shows its owner chain', async ({ page }) => {
  await openView(page, 'explorer');
  await waitUsable(page);
  const name = uniqueName('web');
  await apiOk(page, 'POST', '/apis/apps/v1/namespaces/default/replicasets', {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'c', image: 'nginx' }] },
      },
    },
  });
  const podsPath = `/api/v1/namespaces/default/pods?labelSelector=app%3D${name}`;
  await expect
    .poll(async () => (await apiOk<ListOf<ObjectWithMeta>>(page, 'GET', podsPath)).items.length, {
      timeout: 15_000,
    })
    .toBe(2);
  const pods = await apiOk<ListOf<ObjectWithMeta>>(page, 'GET', podsPath);
  const pod = pods.items[0]?.metadata.name ?? '';
  expect(pod.startsWith(`${name}-`)).toBe(true);

  await openView(page, 'explorer', { kind: 'v1/pods', ns: 'default', name: pod });
  const panel = page.getByRole('region', { name: `Pod default/${pod}` });
  const chain = panel.getByRole('navigation', { name: 'Owner chain' });
  await expect(chain.getByRole('link', { name: `ReplicaSet ${name}` })).toBeVisible();
  await expect(chain.getByText(`Pod ${pod}`, { exact: true })).toBeVisible();
});
