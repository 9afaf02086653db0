/**
 * The ReplicaSet controller and the ReplicationController manager through
 * the Node host's HTTP API, with pods bound and run by the kwok-like test
 * kubelet: replicas created, scaled up and down, replaced when deleted,
 * orphans adopted and strays released, status counted, and a template the
 * server refuses reported as a `ReplicaFailure` condition and an Event
 * without a hot loop.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from './support/host';
import { startKwok, type Kwok } from './support/kwok';
import { createNamespace, isReady, ownedBy, podTemplate, waitFor, type Json } from './support/workloads';

const ns = 'rs-test';
const rsPath = `/apis/apps/v1/namespaces/${ns}/replicasets`;
const rcPath = `/api/v1/namespaces/${ns}/replicationcontrollers`;
const podsPath = `/api/v1/namespaces/${ns}/pods`;

describe('replica set and replication controllers', () => {
  let host: TestHost;
  let kwok: Kwok;

  beforeAll(async () => {
    host = await startTestHost({ profile: 'kubernetes' });
    kwok = await startKwok(host.url);
    await createNamespace(host, ns);
  });
  afterAll(async () => {
    kwok.stop();
    await host.close();
  });

  const podsOf = async (uid: string, done: (pods: Json[]) => boolean, what: string): Promise<Json[]> =>
    ownedBy(await waitFor(host, podsPath, (list) => done(ownedBy(list, uid)), what), uid);

  it('creates, scales and replaces the pods of a ReplicaSet, and counts them in its status', async () => {
    const r = await host.request('POST', rsPath, {
      body: {
        metadata: { name: 'web' },
        spec: {
          replicas: 3,
          selector: { matchLabels: { app: 'web' } },
          template: podTemplate({ app: 'web' }),
        },
      },
    });
    expect(r.status, r.text).toBe(201);
    const uid = r.body.metadata.uid as string;
    const pods = await podsOf(uid, (p) => p.length === 3 && p.every(isReady), '3 ready pods');
    for (const p of pods) {
      expect(p.metadata.generateName).toBe('web-');
      expect(p.metadata.labels).toEqual({ app: 'web' });
      expect(p.metadata.ownerReferences).toEqual([
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: 'web',
          uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ]);
    }
    const rs = await waitFor(
      host,
      `${rsPath}/web`,
      (b) => b.status?.readyReplicas === 3 && b.status?.availableReplicas === 3,
      'status of 3 ready replicas',
    );
    expect(rs.status).toEqual({
      replicas: 3,
      fullyLabeledReplicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      observedGeneration: 1,
    });

    // A deleted pod is replaced.
    const victim = pods[0].metadata.name as string;
    expect((await host.request('DELETE', `${podsPath}/${victim}`)).status).toBe(200);
    const after = await podsOf(
      uid,
      (p) => p.length === 3 && p.every(isReady) && !p.some((x) => x.metadata.name === victim),
      'a replacement pod',
    );
    expect(after).toHaveLength(3);

    // Scale down through the scale subresource: the surplus goes.
    const scale = await host.request('PATCH', `${rsPath}/web/scale`, {
      body: { spec: { replicas: 1 } },
      contentType: 'application/merge-patch+json',
    });
    expect(scale.status, scale.text).toBe(200);
    await podsOf(uid, (p) => p.length === 1, 'one pod after scaling down');
    const scaled = await waitFor(
      host,
      `${rsPath}/web`,
      (b) => b.status?.replicas === 1 && b.status?.observedGeneration === 2,
      'status after scaling down',
    );
    expect(scaled.status.readyReplicas).toBe(1);

    // Events of the controller on the ReplicaSet.
    const events = await waitFor(
      host,
      `/api/v1/namespaces/${ns}/events?fieldSelector=involvedObject.uid=${uid}`,
      (b) => (b.items ?? []).some((e: Json) => e.reason === 'SuccessfulDelete'),
      'a SuccessfulDelete event',
    );
    const created = (events.items as Json[]).filter((e) => e.reason === 'SuccessfulCreate');
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(created[0].source).toEqual({ component: 'replicaset-controller' });
    expect(created[0].message).toMatch(/^Created pod: web-[a-z0-9]{5}$/);
  });

  it('adopts a matching orphan and releases a pod whose labels no longer match', async () => {
    const orphan = await host.request('POST', podsPath, {
      body: { metadata: { name: 'orphan', labels: { app: 'adopt' } }, spec: podTemplate({}).spec },
    });
    expect(orphan.status, orphan.text).toBe(201);
    const r = await host.request('POST', rsPath, {
      body: {
        metadata: { name: 'adopt' },
        spec: {
          replicas: 2,
          selector: { matchLabels: { app: 'adopt' } },
          template: podTemplate({ app: 'adopt' }),
        },
      },
    });
    const uid = r.body.metadata.uid as string;
    const pods = await podsOf(uid, (p) => p.length === 2, 'the orphan adopted beside one new pod');
    expect(pods.map((p) => p.metadata.name)).toContain('orphan');

    // Relabelled, the orphan is released and replaced.
    const relabel = await host.request('PATCH', `${podsPath}/orphan`, {
      body: { metadata: { labels: { app: 'other' } } },
      contentType: 'application/merge-patch+json',
    });
    expect(relabel.status).toBe(200);
    const now = await podsOf(
      uid,
      (p) => p.length === 2 && !p.some((x) => x.metadata.name === 'orphan'),
      'the relabelled pod released and replaced',
    );
    expect(now).toHaveLength(2);
    const released = await waitFor(
      host,
      `${podsPath}/orphan`,
      (b) => (b.metadata.ownerReferences ?? []).length === 0,
      'the released pod without owner',
    );
    expect(released.metadata.labels).toEqual({ app: 'other' });
  });

  it('reports a template the server refuses as ReplicaFailure and a FailedCreate event', async () => {
    const r = await host.request('POST', rsPath, {
      body: {
        metadata: { name: 'refused' },
        spec: {
          replicas: 1,
          selector: { matchLabels: { app: 'refused' } },
          // Valid for the ReplicaSet, refused for its pods by the ServiceAccount admission plugin.
          template: {
            metadata: { labels: { app: 'refused' } },
            spec: { containers: [{ name: 'c', image: 'nginx' }], serviceAccountName: 'missing-account' },
          },
        },
      },
    });
    expect(r.status, r.text).toBe(201);
    const rs = await waitFor(
      host,
      `${rsPath}/refused`,
      (b) => (b.status?.conditions ?? []).some((c: Json) => c.type === 'ReplicaFailure'),
      'a ReplicaFailure condition',
    );
    const cond = (rs.status.conditions as Json[]).find((c) => c.type === 'ReplicaFailure');
    expect(cond.status).toBe('True');
    expect(cond.reason).toBe('FailedCreate');
    expect(cond.message).toMatch(/missing-account/);
    const events = await waitFor(
      host,
      `/api/v1/namespaces/${ns}/events?fieldSelector=involvedObject.name=refused`,
      (b) => (b.items ?? []).some((e: Json) => e.reason === 'FailedCreate'),
      'a FailedCreate event',
    );
    const failed = (events.items as Json[]).filter((e) => e.reason === 'FailedCreate');
    // The failure repeats as one Event whose count grows, never as a flood of Events.
    expect(failed).toHaveLength(1);
    expect(failed[0].type).toBe('Warning');
    expect(failed[0].message).toMatch(/^Error creating: /);
  });

  it('runs a ReplicationController the same way, by its map selector', async () => {
    const r = await host.request('POST', rcPath, {
      body: {
        metadata: { name: 'legacy' },
        spec: { replicas: 2, selector: { app: 'legacy' }, template: podTemplate({ app: 'legacy' }) },
      },
    });
    expect(r.status, r.text).toBe(201);
    const uid = r.body.metadata.uid as string;
    const pods = await podsOf(uid, (p) => p.length === 2 && p.every(isReady), '2 ready pods of the RC');
    expect(pods[0].metadata.ownerReferences[0]).toMatchObject({
      apiVersion: 'v1',
      kind: 'ReplicationController',
    });
    const rc = await waitFor(host, `${rcPath}/legacy`, (b) => b.status?.readyReplicas === 2, 'RC status');
    expect(rc.status).toMatchObject({ replicas: 2, fullyLabeledReplicas: 2, availableReplicas: 2 });
  });
});
