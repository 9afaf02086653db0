/**
 * The controllers around workloads through the Node host, pods run by the
 * kwok-like test kubelet: Endpoints and EndpointSlices following the
 * readiness of a Service's pods, a PodDisruptionBudget's status (and an
 * eviction it refuses), a claim bound to a matching volume and another
 * given a provisioned one, and an HPA scaling a Deployment on simulated
 * CPU usage — `kubectl autoscale` without a target getting the 80% CPU
 * metric (skipped, with the reason printed, without kubectl).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from './support/host';
import { kubectl, kubectlSkipReason } from './support/kubectl';
import { startKwok, type Kwok } from './support/kwok';
import { advance } from './support/simulation';
import { createNamespace, hpaBody, isReady, podTemplate, waitFor, type Json } from './support/workloads';

const ns = 'svc-test';
const podsPath = `/api/v1/namespaces/${ns}/pods`;
const skip = kubectlSkipReason();

describe('endpoints, disruption, volumes and autoscaling', () => {
  let host: TestHost;
  let kwok: Kwok;
  const k = (...args: string[]) => kubectl(host.kubeconfigPath, ['-n', ns, ...args]);

  beforeAll(async () => {
    host = await startTestHost({ profile: 'kubernetes' });
    kwok = await startKwok(host.url);
    await createNamespace(host, ns);
  });
  afterAll(async () => {
    kwok.stop();
    await host.close();
  });

  const createPod = async (name: string, labels: Record<string, string>) => {
    const body = podTemplate(labels, 'nginx');
    body.spec.containers[0].ports = [{ name: 'http', containerPort: 8080 }];
    body.spec.containers[0].resources = { requests: { cpu: '100m' } };
    const r = await host.request('POST', podsPath, {
      body: { metadata: { name, ...body.metadata }, spec: body.spec },
    });
    expect(r.status, r.text).toBe(201);
    await waitFor(host, `${podsPath}/${name}`, (b) => isReady(b), `${name} ready`);
  };

  it('lists the ready pods of a Service in its Endpoints and EndpointSlice, and follows readiness', async () => {
    await createPod('web-a', { app: 'web' });
    await createPod('web-b', { app: 'web' });
    const svc = await host.request('POST', `/api/v1/namespaces/${ns}/services`, {
      body: {
        metadata: { name: 'web', labels: { tier: 'front' } },
        spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 'http' }] },
      },
    });
    expect(svc.status, svc.text).toBe(201);
    const ep = await waitFor(
      host,
      `/api/v1/namespaces/${ns}/endpoints/web`,
      (b, s) => s === 200 && (b.subsets?.[0]?.addresses ?? []).length === 2,
      'two ready addresses',
    );
    expect(ep.metadata.labels).toEqual({ tier: 'front' });
    expect(ep.subsets).toHaveLength(1);
    expect(ep.subsets[0].ports).toEqual([{ name: 'http', port: 8080, protocol: 'TCP' }]);
    expect(ep.subsets[0].addresses.map((a: Json) => a.targetRef.name).sort()).toEqual(['web-a', 'web-b']);
    expect(ep.subsets[0].addresses[0]).toMatchObject({
      nodeName: 'kwok-node-0',
      targetRef: { kind: 'Pod', namespace: ns },
    });

    const slicesPath = `/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices?labelSelector=kubernetes.io/service-name=web`;
    const slices = await waitFor(
      host,
      slicesPath,
      (b) => (b.items ?? []).length === 1 && (b.items[0].endpoints ?? []).length === 2,
      'one slice with two endpoints',
    );
    const slice = slices.items[0];
    expect(slice.metadata.generateName).toBe('web-');
    expect(slice.metadata.labels).toEqual({
      tier: 'front',
      'kubernetes.io/service-name': 'web',
      'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
    });
    expect(slice.metadata.ownerReferences[0]).toMatchObject({
      kind: 'Service',
      name: 'web',
      controller: true,
    });
    expect(slice.addressType).toBe('IPv4');
    expect(slice.ports).toEqual([{ name: 'http', port: 8080, protocol: 'TCP' }]);
    expect(slice.endpoints[0].conditions).toEqual({ ready: true, serving: true, terminating: false });

    // A pod that stops being ready moves to notReadyAddresses.
    await kwok.setPhase(ns, 'web-b', 'Running', false);
    const after = await waitFor(
      host,
      `/api/v1/namespaces/${ns}/endpoints/web`,
      (b) => (b.subsets?.[0]?.notReadyAddresses ?? []).length === 1,
      'web-b not ready',
    );
    expect(after.subsets[0].addresses.map((a: Json) => a.targetRef.name)).toEqual(['web-a']);
    expect(after.subsets[0].notReadyAddresses[0].targetRef.name).toBe('web-b');
    const notReady = await waitFor(
      host,
      slicesPath,
      (b) => (b.items[0].endpoints as Json[]).some((e) => e.conditions.ready === false),
      'a not-ready endpoint',
    );
    const b = (notReady.items[0].endpoints as Json[]).find((e) => e.targetRef.name === 'web-b');
    expect(b.conditions).toEqual({ ready: false, serving: false, terminating: false });
  });

  it('keeps a PodDisruptionBudget status that the eviction subresource reads', async () => {
    const r = await host.request('POST', `/apis/policy/v1/namespaces/${ns}/poddisruptionbudgets`, {
      body: {
        metadata: { name: 'web' },
        spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } },
      },
    });
    expect(r.status, r.text).toBe(201);
    // web-a ready, web-b not: one healthy of one needed, no disruption allowed.
    const pdb = await waitFor(
      host,
      `/apis/policy/v1/namespaces/${ns}/poddisruptionbudgets/web`,
      (b) => b.status?.observedGeneration === 1,
      'the PDB status',
    );
    expect(pdb.status).toMatchObject({
      currentHealthy: 1,
      desiredHealthy: 1,
      disruptionsAllowed: 0,
      expectedPods: 2,
    });
    expect(pdb.status.conditions[0]).toMatchObject({
      type: 'DisruptionAllowed',
      status: 'False',
      reason: 'InsufficientPods',
    });
    const evict = await host.request('POST', `${podsPath}/web-a/eviction`, {
      body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'web-a', namespace: ns } },
    });
    expect(evict.status).toBe(429);
    expect(evict.body.message).toBe("Cannot evict pod as it would violate the pod's disruption budget.");
    await kwok.setPhase(ns, 'web-b', 'Running', true);
    await waitFor(
      host,
      `/apis/policy/v1/namespaces/${ns}/poddisruptionbudgets/web`,
      (b) => b.status?.disruptionsAllowed === 1 && b.status.conditions[0].reason === 'SufficientPods',
      'one disruption allowed',
    );
  });

  it('binds a claim to the smallest volume that fits, and provisions one for a class', async () => {
    for (const [name, size] of [
      ['pv-big', '10Gi'],
      ['pv-small', '2Gi'],
    ])
      await host.request('POST', '/api/v1/persistentvolumes', {
        body: {
          metadata: { name },
          spec: {
            capacity: { storage: size },
            accessModes: ['ReadWriteOnce'],
            hostPath: { path: `/data/${name}` },
          },
        },
      });
    await waitFor(
      host,
      '/api/v1/persistentvolumes/pv-small',
      (b) => b.status?.phase === 'Available',
      'Available',
    );
    const claim = await host.request('POST', `/api/v1/namespaces/${ns}/persistentvolumeclaims`, {
      body: {
        metadata: { name: 'data' },
        spec: {
          storageClassName: '',
          accessModes: ['ReadWriteOnce'],
          resources: { requests: { storage: '1Gi' } },
        },
      },
    });
    expect(claim.status, claim.text).toBe(201);
    const bound = await waitFor(
      host,
      `/api/v1/namespaces/${ns}/persistentvolumeclaims/data`,
      (b) => b.status?.phase === 'Bound',
      'the claim bound',
    );
    expect(bound.spec.volumeName).toBe('pv-small');
    expect(bound.status).toEqual({
      phase: 'Bound',
      accessModes: ['ReadWriteOnce'],
      capacity: { storage: '2Gi' },
    });
    expect(bound.metadata.annotations).toMatchObject({
      'pv.kubernetes.io/bind-completed': 'yes',
      'pv.kubernetes.io/bound-by-controller': 'yes',
    });
    const volume = await waitFor(
      host,
      '/api/v1/persistentvolumes/pv-small',
      (b) => b.status?.phase === 'Bound',
      'pv Bound',
    );
    expect(volume.spec.claimRef).toMatchObject({
      kind: 'PersistentVolumeClaim',
      namespace: ns,
      name: 'data',
    });

    await host.request('POST', '/apis/storage.k8s.io/v1/storageclasses', {
      body: { metadata: { name: 'fast' }, provisioner: 'example.com/fast', reclaimPolicy: 'Delete' },
    });
    const dynamic = await host.request('POST', `/api/v1/namespaces/${ns}/persistentvolumeclaims`, {
      body: {
        metadata: { name: 'dynamic' },
        spec: {
          storageClassName: 'fast',
          accessModes: ['ReadWriteOnce'],
          resources: { requests: { storage: '5Gi' } },
        },
      },
    });
    const provisioned = await waitFor(
      host,
      `/api/v1/namespaces/${ns}/persistentvolumeclaims/dynamic`,
      (b) => b.status?.phase === 'Bound',
      'the dynamic claim bound',
    );
    expect(provisioned.spec.volumeName).toBe(`pvc-${dynamic.body.metadata.uid}`);
    const made = await host.request('GET', `/api/v1/persistentvolumes/${provisioned.spec.volumeName}`);
    expect(made.body.metadata.annotations['pv.kubernetes.io/provisioned-by']).toBe('example.com/fast');
    expect(made.body.spec).toMatchObject({
      storageClassName: 'fast',
      persistentVolumeReclaimPolicy: 'Delete',
    });
    // Deleting the claim deletes the volume its class provisioned with Delete.
    await host.request('DELETE', `/api/v1/namespaces/${ns}/persistentvolumeclaims/dynamic`);
    await waitFor(
      host,
      `/api/v1/persistentvolumes/${provisioned.spec.volumeName}`,
      (_b, s) => s === 404,
      'the volume deleted',
    );
  });

  it('scales a Deployment on the simulated CPU usage of its pods', async () => {
    const d = await host.request('POST', `/apis/apps/v1/namespaces/${ns}/deployments`, {
      body: {
        metadata: { name: 'busy' },
        spec: {
          replicas: 1,
          selector: { matchLabels: { app: 'busy' } },
          template: {
            metadata: { labels: { app: 'busy' } },
            spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '100m' } } }] },
          },
        },
      },
    });
    expect(d.status, d.text).toBe(201);
    const pods = await waitFor(
      host,
      `${podsPath}?labelSelector=app=busy`,
      (b) => (b.items ?? []).length === 1 && isReady(b.items[0]),
      'the busy pod',
    );
    // 200m used of 100m requested: 200% against a 50% target asks for 4 replicas.
    await host.request('PATCH', `${podsPath}/${pods.items[0].metadata.name}`, {
      body: { metadata: { annotations: { 'sandbox.orch.io/cpu-usage': '200m' } } },
      contentType: 'application/merge-patch+json',
    });
    const hpa = await host.request('POST', `/apis/autoscaling/v2/namespaces/${ns}/horizontalpodautoscalers`, {
      body: hpaBody('busy', 'busy', 3),
    });
    expect(hpa.status, hpa.text).toBe(201);
    // As upstream's controller, the first sync waits one period (15 s) of the server's clock.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const early = await host.request(
      'GET',
      `/apis/autoscaling/v2/namespaces/${ns}/horizontalpodautoscalers/busy`,
    );
    expect(early.body.status?.conditions, 'synced before its period').toBeUndefined();
    await advance(host, '15s');
    const scaled = await waitFor(
      host,
      `/apis/autoscaling/v2/namespaces/${ns}/horizontalpodautoscalers/busy`,
      (b) => b.status?.desiredReplicas === 3,
      'the HPA scaling up to its maximum',
    );
    const byType = Object.fromEntries((scaled.status.conditions as Json[]).map((c) => [c.type, c]));
    expect(byType.ScalingLimited).toMatchObject({ status: 'True', reason: 'TooManyReplicas' });
    expect(byType.ScalingActive).toMatchObject({ status: 'True', reason: 'ValidMetricFound' });
    expect(scaled.status.currentMetrics).toEqual([
      {
        type: 'Resource',
        resource: { name: 'cpu', current: { averageUtilization: 200, averageValue: '200m' } },
      },
    ]);
    await waitFor(
      host,
      `/apis/apps/v1/namespaces/${ns}/deployments/busy`,
      (b) => b.spec.replicas === 3,
      'the Deployment scaled to 3',
    );
    const events = (
      await host.request(
        'GET',
        `/api/v1/namespaces/${ns}/events?fieldSelector=involvedObject.name=busy,involvedObject.kind=HorizontalPodAutoscaler`,
      )
    ).body;
    expect((events.items as Json[]).map((e) => e.message)).toContain(
      'New size: 3; reason: cpu resource utilization (percentage of request) above target',
    );
  });

  it('syncs no HPA deleted within its first period, so that it records no Event', async () => {
    const hpaPath = `/apis/autoscaling/v2/namespaces/${ns}/horizontalpodautoscalers`;
    const spec = (name: string) => hpaBody(name, 'absent', 2);
    for (const name of ['brief', 'kept'])
      expect((await host.request('POST', hpaPath, { body: spec(name) })).status, name).toBe(201);
    expect((await host.request('DELETE', `${hpaPath}/brief`)).status).toBe(200);
    await advance(host, '15s');
    // 'kept' was queued with 'brief': once it has synced (its target is missing), 'brief' would have too.
    await waitFor(
      host,
      `${hpaPath}/kept`,
      (b) => (b.status?.conditions ?? []).some((c: Json) => c.type === 'AbleToScale'),
      'the kept HPA synced',
    );
    const eventsOf = (name: string) =>
      `/api/v1/namespaces/${ns}/events?fieldSelector=involvedObject.name=${name},involvedObject.kind=HorizontalPodAutoscaler`;
    await waitFor(
      host,
      eventsOf('kept'),
      (b) => (b.items ?? []).length > 0,
      'the kept HPA recording its failure',
    );
    expect((await host.request('GET', eventsOf('brief'))).body.items).toEqual([]);
  });

  it.skipIf(skip !== undefined)('gives kubectl autoscale without a target the 80% CPU metric', async () => {
    await k('create', 'deployment', 'auto', '--image=nginx');
    expect((await k('autoscale', 'deployment', 'auto', '--min=2', '--max=3')).code).toBe(0);
    const v2 = await k(
      'get',
      'hpa',
      'auto',
      '-o',
      'jsonpath={.spec.metrics[0].resource.target.averageUtilization}',
    );
    expect(v2.stdout).toBe('80');
    const v1 = await k(
      'get',
      'hpa.v1.autoscaling',
      'auto',
      '-o',
      'jsonpath={.spec.targetCPUUtilizationPercentage}',
    );
    expect(v1.stdout).toBe('80');
  });
});
