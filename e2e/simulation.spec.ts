/**
 * The simulated cluster in the browser (the server and its nodes run in the
 * app's service worker): a pod becomes Running on a simulated node and the
 * Explorer shows its phase, conditions, containers, log and Events; the
 * Workshop shows the nodes (a node agent stopped and started again) and
 * moves the server's clock; offline, a Deployment's ReplicaSet makes pods
 * that run on the simulated nodes and the Explorer shows the owner chain.
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
} from './support/sandbox';
import { openView, shot, waitUsable } from './support/ui';

// Pods run and nodes change state on their own time: the spec waits for them.
test.describe.configure({ timeout: 120_000 });

interface PodLike {
  metadata: { name: string; deletionTimestamp?: string };
  spec?: { nodeName?: string };
  status?: { phase?: string };
}

test('a pod becomes Running, and the Explorer shows its status, log and Events', async ({
  page,
}, testInfo) => {
  await openView(page, 'explorer', { kind: 'v1/pods' });
  await waitUsable(page);
  const name = uniqueName('hello');
  const created = await api(page, 'POST', '/api/v1/namespaces/default/pods', {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: {
      containers: [
        { name: 'c', image: 'busybox', command: ['sh', '-c', 'echo hello from the sandbox; sleep 3600'] },
      ],
    },
  });
  expect(created.status).toBe(201);
  await expect
    .poll(
      async () =>
        (await apiOk<PodLike>(page, 'GET', `/api/v1/namespaces/default/pods/${name}`)).status?.phase,
      {
        timeout: 30_000,
      },
    )
    .toBe('Running');
  await openView(page, 'explorer', { kind: 'v1/pods', name, ns: 'default' });
  const panel = page.getByRole('region', { name: `Pod default/${name}` });
  const status = panel.getByRole('region', { name: 'Pod status' });
  await expect(status.getByText('Running', { exact: true }).first()).toBeVisible();
  await expect(status.getByRole('cell', { name: 'ContainersReady', exact: true })).toBeVisible();
  await status.getByRole('button', { name: 'Show log' }).click();
  await expect(status.getByLabel('Log of container c')).toHaveText('hello from the sandbox\n');
  const events = panel.getByRole('region', { name: 'Events' });
  await expect(events.getByRole('cell', { name: 'Scheduled', exact: true })).toBeVisible();
  await expect(events.getByRole('cell', { name: 'Started', exact: true })).toBeVisible();
  await shot(page, testInfo, 'pod-status');
  await api(page, 'DELETE', `/api/v1/namespaces/default/pods/${name}?gracePeriodSeconds=0`);
});

test('the Workshop shows the nodes and moves the clock', async ({ page }, testInfo) => {
  await openView(page, 'workshop');
  const nodes = page.getByRole('region', { name: 'Nodes' });
  for (const n of ['node-1', 'node-2', 'node-3'])
    await expect(nodes.getByRole('row', { name: new RegExp(`^${n} Ready running`) })).toBeVisible({
      timeout: 30_000,
    });
  await nodes.getByRole('button', { name: 'Stop the node agent of node-3' }).click();
  await expect(nodes.getByRole('row', { name: /^node-3 .* stopped/ })).toBeVisible();
  const clock = page.getByRole('region', { name: 'Clock' });
  await clock.getByRole('button', { name: '+1m' }).click();
  await expect(clock.getByText('Moved forward 1m.')).toBeVisible();
  // Past the node's grace period, the node lifecycle controller marks it NotReady.
  await expect(nodes.getByRole('row', { name: /^node-3 NotReady stopped/ })).toBeVisible({ timeout: 30_000 });
  await nodes.getByRole('button', { name: 'Start the node agent of node-3' }).click();
  await expect(nodes.getByRole('row', { name: /^node-3 Ready running/ })).toBeVisible({ timeout: 30_000 });
  const offset = await apiOk<{ offsetMs: number }>(page, 'GET', '/sandbox/v1/clock');
  expect(offset.offsetMs).toBeGreaterThanOrEqual(60_000);
  await expect(clock.getByLabel('Clock offset')).not.toHaveText('nothing (real time)');
  await shot(page, testInfo, 'workshop-nodes-clock');
});

test('offline, a Deployment becomes three Running pods on the simulated nodes', async ({
  page,
  context,
}, testInfo) => {
  await openSandbox(page);
  await waitForOfflineShell(page);
  await context.setOffline(true);
  await page.reload();
  await waitForController(page);
  // The simulated nodes register and turn Ready after the page's first screen (decision 0074); a Deployment made
  // before that has its pods scheduled on the nodes Ready so far, as the real scheduler would.
  type NodeLike = {
    spec?: { taints?: unknown[] };
    status?: { conditions?: { type: string; status: string }[] };
  };
  const readyNodes = async () =>
    (await apiOk<ListOf<NodeLike>>(page, 'GET', '/api/v1/nodes')).items.filter(
      (n) =>
        n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true &&
        (n.spec?.taints ?? []).length === 0,
    ).length;
  await expect.poll(readyNodes, { timeout: 60_000 }).toBe(3);
  const name = uniqueName('nginx');
  await apiOk(page, 'POST', '/apis/apps/v1/namespaces/default/deployments', {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'nginx', image: 'nginx' }] },
      },
    },
  });
  const podsPath = `/api/v1/namespaces/default/pods?labelSelector=app%3D${name}`;
  const running = async () =>
    (await apiOk<ListOf<PodLike>>(page, 'GET', podsPath)).items.filter(
      (p) => p.status?.phase === 'Running' && p.metadata.deletionTimestamp === undefined,
    );
  await expect.poll(async () => (await running()).length, { timeout: 60_000 }).toBe(3);
  const pods = await running();
  expect(new Set(pods.map((p) => p.spec?.nodeName))).toEqual(new Set(['node-1', 'node-2', 'node-3']));
  await expect
    .poll(
      async () =>
        (
          await apiOk<{ status?: { availableReplicas?: number } }>(
            page,
            'GET',
            `/apis/apps/v1/namespaces/default/deployments/${name}`,
          )
        ).status?.availableReplicas,
      { timeout: 30_000 },
    )
    .toBe(3);
  const pod = pods[0]?.metadata.name ?? '';
  await openView(page, 'explorer', { kind: 'v1/pods', ns: 'default', name: pod });
  const panel = page.getByRole('region', { name: `Pod default/${pod}` });
  await expect(
    panel.getByRole('region', { name: 'Pod status' }).getByText('Running', { exact: true }).first(),
  ).toBeVisible();
  const chain = panel.getByRole('navigation', { name: 'Owner chain' });
  await expect(chain.getByRole('link', { name: new RegExp(`^Deployment ${name}$`) })).toBeVisible();
  await shot(page, testInfo, 'deployment-pods-offline');
  await api(page, 'DELETE', `/apis/apps/v1/namespaces/default/deployments/${name}`);
});
