/**
 * The StatefulSet and DaemonSet controllers through the Node host, pods
 * run by the kwok-like test kubelet on three nodes: a StatefulSet makes
 * `web-0`, then `web-1` once `web-0` is ready, with stable hostnames and
 * a claim per pod from its templates, removes from the highest ordinal,
 * rolls a new template out from the top down to the partition, and
 * records ControllerRevisions with the change-cause; a DaemonSet runs one
 * pod per eligible node (taints and tolerations, node selectors), pinned
 * to it, and follows nodes that come and go; `kubectl rollout history` and
 * `undo` work on both (skipped, with the reason printed, without kubectl).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from './support/host';
import { kubectl, kubectlSkipReason } from './support/kubectl';
import { startKwok, type Kwok } from './support/kwok';
import { createNamespace, isReady, ownedBy, podTemplate, waitFor, type Json } from './support/workloads';

const ns = 'stateful-test';
const stsPath = `/apis/apps/v1/namespaces/${ns}/statefulsets`;
const dsPath = `/apis/apps/v1/namespaces/${ns}/daemonsets`;
const podsPath = `/api/v1/namespaces/${ns}/pods`;
const revisionsPath = `/apis/apps/v1/namespaces/${ns}/controllerrevisions`;
const skip = kubectlSkipReason();

describe('statefulset and daemonset controllers', () => {
  let host: TestHost;
  let kwok: Kwok;
  let holdBack = new Set<string>();
  const k = (...args: string[]) => kubectl(host.kubeconfigPath, ['-n', ns, ...args]);

  beforeAll(async () => {
    host = await startTestHost({ profile: 'kubernetes' });
    kwok = await startKwok(host.url, {
      nodes: ['node-a', 'node-b', 'node-c'],
      holdBack: (p) => holdBack.has(p.metadata?.name ?? ''),
    });
    await createNamespace(host, ns);
  });
  afterAll(async () => {
    kwok.stop();
    await host.close();
  });

  const podNames = async (): Promise<string[]> =>
    ((await host.request('GET', podsPath)).body.items as Json[]).map((p) => p.metadata.name as string).sort();

  it('creates pods in order, each after the one before is ready, with stable identity and claims', async () => {
    holdBack = new Set(['web-0']);
    const r = await host.request('POST', stsPath, {
      body: {
        metadata: { name: 'web', annotations: { 'kubernetes.io/change-cause': 'first' } },
        spec: {
          replicas: 2,
          serviceName: 'web',
          selector: { matchLabels: { app: 'web' } },
          template: podTemplate({ app: 'web' }, 'nginx:1.24'),
          volumeClaimTemplates: [
            {
              metadata: { name: 'data' },
              spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
            },
          ],
        },
      },
    });
    expect(r.status, r.text).toBe(201);
    const first = await waitFor(host, `${podsPath}/web-0`, (_b, s) => s === 200, 'web-0');
    expect(first.spec.hostname).toBe('web-0');
    expect(first.spec.subdomain).toBe('web');
    expect(first.metadata.labels['statefulset.kubernetes.io/pod-name']).toBe('web-0');
    expect(first.metadata.labels['controller-revision-hash']).toMatch(/^web-\w+$/);
    expect(first.spec.volumes[0]).toEqual({
      name: 'data',
      persistentVolumeClaim: { claimName: 'data-web-0' },
    });
    const claim = await host.request('GET', `/api/v1/namespaces/${ns}/persistentvolumeclaims/data-web-0`);
    expect(claim.status).toBe(200);
    expect(claim.body.metadata.labels).toEqual({ app: 'web' });
    // web-0 is not ready: web-1 waits.
    await waitFor(host, `${stsPath}/web`, (b) => b.status?.replicas === 1, 'status of one replica');
    await host.api.controllersIdle();
    expect(await podNames()).toEqual(['web-0']);
    holdBack = new Set();
    await kwok.setPhase(ns, 'web-0', 'Running');
    await waitFor(host, `${podsPath}/web-1`, (b, s) => s === 200 && isReady(b), 'web-1 ready');
    const set = await waitFor(
      host,
      `${stsPath}/web`,
      (b) => b.status?.readyReplicas === 2 && b.status?.currentReplicas === 2,
      'status of two ready replicas',
    );
    expect(set.status).toMatchObject({
      replicas: 2,
      readyReplicas: 2,
      availableReplicas: 2,
      currentReplicas: 2,
      updatedReplicas: 2,
      observedGeneration: 1,
      collisionCount: 0,
    });
    expect(set.status.currentRevision).toBe(set.status.updateRevision);
    const revisions = ownedBy((await host.request('GET', revisionsPath)).body, set.metadata.uid);
    expect(revisions).toHaveLength(1);
    expect(revisions[0].revision).toBe(1);
    expect(revisions[0].metadata.annotations['kubernetes.io/change-cause']).toBe('first');
    expect(revisions[0].data.spec.template.$patch).toBe('replace');
  });

  it('rolls a new template out from the highest ordinal down, stopping at the partition', async () => {
    const r = await host.request('PATCH', `${stsPath}/web`, {
      body: {
        spec: {
          replicas: 3,
          updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } },
          template: { spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] } },
        },
      },
      contentType: 'application/strategic-merge-patch+json',
    });
    expect(r.status, r.text).toBe(200);
    const set = await waitFor(
      host,
      `${stsPath}/web`,
      (b) => b.status?.readyReplicas === 3 && b.status?.updatedReplicas === 2,
      'web-1 and web-2 updated, web-0 kept',
    );
    expect(set.status.currentRevision).not.toBe(set.status.updateRevision);
    const images = Object.fromEntries(
      ((await host.request('GET', podsPath)).body.items as Json[]).map((p) => [
        p.metadata.name,
        p.spec.containers[0].image,
      ]),
    );
    expect(images).toEqual({ 'web-0': 'nginx:1.24', 'web-1': 'nginx:1.25', 'web-2': 'nginx:1.25' });
  });

  it('removes pods from the highest ordinal when scaled down', async () => {
    await host.request('PATCH', `${stsPath}/web`, {
      body: { spec: { replicas: 1 } },
      contentType: 'application/merge-patch+json',
    });
    await waitFor(
      host,
      podsPath,
      (b) => (b.items as Json[]).filter((p) => p.metadata.labels?.app === 'web').length === 1,
      'one pod left',
    );
    expect((await podNames()).filter((n) => n.startsWith('web-'))).toEqual(['web-0']);
    // Claims are retained (the default retention policy).
    expect(
      (await host.request('GET', `/api/v1/namespaces/${ns}/persistentvolumeclaims/data-web-2`)).status,
    ).toBe(200);
  });

  it.skipIf(skip !== undefined)('shows the StatefulSet history and rolls back with kubectl', async () => {
    const history = await k('rollout', 'history', 'statefulset/web');
    expect(history.stdout).toContain('REVISION  CHANGE-CAUSE');
    expect(history.stdout).toMatch(/^1\s+first$/m);
    expect(history.stdout).toMatch(/^2\s+first$/m);
    const undo = await k('rollout', 'undo', 'statefulset/web', '--to-revision=1');
    expect(undo.code, undo.stderr).toBe(0);
    await waitFor(
      host,
      `${stsPath}/web`,
      (b) => b.spec.template.spec.containers[0].image === 'nginx:1.24',
      'the template of revision 1',
    );
    const after = await waitFor(
      host,
      revisionsPath,
      (b) => (b.items as Json[]).some((r) => r.revision === 3),
      'revision 1 renumbered 3',
    );
    expect((after.items as Json[]).map((r) => r.revision).sort()).toEqual([2, 3]);
  });

  it('runs one daemon pod per eligible node, pinned to it, and follows nodes as they come and go', async () => {
    await kwok.addNode('node-tainted', {}, [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }]);
    await kwok.addNode('node-gpu', { gpu: 'true' });
    const r = await host.request('POST', dsPath, {
      body: {
        metadata: { name: 'agent' },
        spec: {
          selector: { matchLabels: { app: 'agent' } },
          template: podTemplate({ app: 'agent' }, 'agent:1'),
        },
      },
    });
    expect(r.status, r.text).toBe(201);
    expect(r.body.metadata.annotations['deprecated.daemonset.template.generation']).toBe('1');
    const ds = await waitFor(
      host,
      `${dsPath}/agent`,
      (b) => b.status?.numberReady === 4 && b.status?.numberAvailable === 4,
      'four ready daemon pods',
    );
    expect(ds.status).toEqual({
      currentNumberScheduled: 4,
      numberMisscheduled: 0,
      desiredNumberScheduled: 4,
      numberReady: 4,
      observedGeneration: 1,
      updatedNumberScheduled: 4,
      numberAvailable: 4,
    });
    const pods = ownedBy((await host.request('GET', podsPath)).body, ds.metadata.uid);
    expect(pods.map((p) => p.spec.nodeName).sort()).toEqual(['node-a', 'node-b', 'node-c', 'node-gpu']);
    const pin = pods[0].spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution;
    expect(pin.nodeSelectorTerms[0].matchFields[0]).toEqual({
      key: 'metadata.name',
      operator: 'In',
      values: [pods[0].spec.nodeName],
    });
    expect(pods[0].spec.tolerations).toContainEqual({
      key: 'node.kubernetes.io/not-ready',
      operator: 'Exists',
      effect: 'NoExecute',
    });
    // Tolerating the taint and selecting GPU nodes: the pods move.
    await host.request('PATCH', `${dsPath}/agent`, {
      body: {
        spec: {
          template: {
            spec: {
              nodeSelector: { gpu: 'true' },
              tolerations: [{ key: 'dedicated', operator: 'Exists', effect: 'NoSchedule' }],
            },
          },
        },
      },
      contentType: 'application/strategic-merge-patch+json',
    });
    const narrowed = await waitFor(
      host,
      `${dsPath}/agent`,
      (b) =>
        b.status?.desiredNumberScheduled === 1 &&
        b.status?.numberReady === 1 &&
        b.status?.currentNumberScheduled === 1,
      'one GPU node left',
    );
    expect(narrowed.metadata.annotations['deprecated.daemonset.template.generation']).toBe('2');
    const revisions = ownedBy((await host.request('GET', revisionsPath)).body, ds.metadata.uid);
    expect(revisions.map((x) => x.revision).sort()).toEqual([1, 2]);
    // A new GPU node gets its pod.
    await kwok.addNode('node-gpu-2', { gpu: 'true' });
    await waitFor(host, `${dsPath}/agent`, (b) => b.status?.numberReady === 2, 'a pod on the new GPU node');
  });

  it.skipIf(skip !== undefined)('rolls a DaemonSet back with kubectl', async () => {
    const undo = await k('rollout', 'undo', 'daemonset/agent');
    expect(undo.code, undo.stderr).toBe(0);
    await waitFor(host, `${dsPath}/agent`, (b) => b.status?.numberReady === 5, 'a pod on every node again');
    const history = await k('rollout', 'history', 'daemonset/agent');
    expect(history.stdout).toMatch(/^2\s+<none>$/m);
    expect(history.stdout).toMatch(/^3\s+<none>$/m);
  });
});
