/**
 * The workload controllers in the orch profile, where annotation, label and
 * finalizer names carry the orch.io domain and the discovery group is
 * renamed: a Deployment's revision annotations, an EndpointSlice's group
 * and labels, a Job's tracking finalizer and completion index annotation.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from './support/host';
import { startKwok, type Kwok } from './support/kwok';
import { createNamespace, isReady, ownedBy, podTemplate, waitFor, type Json } from './support/workloads';

const ns = 'orch-names';

describe('workload controllers in the orch profile', () => {
  let host: TestHost;
  let kwok: Kwok;

  beforeAll(async () => {
    host = await startTestHost();
    kwok = await startKwok(host.url);
    await createNamespace(host, ns);
  });
  afterAll(async () => {
    kwok.stop();
    await host.close();
  });

  it('names the Deployment revision annotations under deployment.orch.io', async () => {
    const r = await host.request('POST', `/apis/apps/v1/namespaces/${ns}/deployments`, {
      body: {
        metadata: { name: 'web' },
        spec: {
          replicas: 1,
          selector: { matchLabels: { app: 'web' } },
          template: podTemplate({ app: 'web' }),
        },
      },
    });
    expect(r.status, r.text).toBe(201);
    const d = await waitFor(
      host,
      `/apis/apps/v1/namespaces/${ns}/deployments/web`,
      (b) => b.status?.availableReplicas === 1,
      'the Deployment available',
    );
    expect(d.metadata.annotations).toEqual({ 'deployment.orch.io/revision': '1' });
    const [rs] = ownedBy(
      (await host.request('GET', `/apis/apps/v1/namespaces/${ns}/replicasets`)).body,
      d.metadata.uid,
    );
    expect(Object.keys(rs.metadata.annotations).sort()).toEqual([
      'deployment.orch.io/desired-replicas',
      'deployment.orch.io/max-replicas',
      'deployment.orch.io/revision',
    ]);
  });

  it('writes EndpointSlices in discovery.orch.io with orch.io labels', async () => {
    await host.request('POST', `/api/v1/namespaces/${ns}/services`, {
      body: { metadata: { name: 'web' }, spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } },
    });
    const slices = await waitFor(
      host,
      `/apis/discovery.orch.io/v1/namespaces/${ns}/endpointslices`,
      (b) => (b.items?.[0]?.endpoints ?? []).length === 1,
      'a slice with the ready pod',
    );
    expect(slices.items[0].metadata.labels).toEqual({
      'orch.io/service-name': 'web',
      'endpointslice.orch.io/managed-by': 'endpointslice-controller.orch.io',
    });
  });

  it('tracks Job pods with the batch.orch.io finalizer and index annotation', async () => {
    const r = await host.request('POST', `/apis/batch/v1/namespaces/${ns}/jobs`, {
      body: {
        metadata: { name: 'once' },
        spec: {
          completionMode: 'Indexed',
          completions: 1,
          template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } },
        },
      },
    });
    expect(r.status, r.text).toBe(201);
    const pods = await waitFor(
      host,
      `/api/v1/namespaces/${ns}/pods`,
      (b) => ownedBy(b, r.body.metadata.uid).some(isReady),
      'the Job pod running',
    );
    const [pod] = ownedBy(pods, r.body.metadata.uid) as Json[];
    expect(pod.metadata.finalizers).toEqual(['batch.orch.io/job-tracking']);
    expect(pod.metadata.annotations['batch.orch.io/job-completion-index']).toBe('0');
  });
});
