/**
 * The workload controllers and the simulated cluster together, through the
 * Node host's HTTP API (orch profile): a Deployment's pods run on the
 * simulated nodes and its status follows them; a DaemonSet places one pod
 * per node; a Job running `echo hello` completes and its pod's log says
 * hello; a StatefulSet's claims bind through the default StorageClass and
 * the simulated provisioner; the node agents' usage annotations drive the
 * HorizontalPodAutoscaler. Time is driven through the server's clock.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from './support/host';
import { advance, isRunningReady, nodesReady, until, type Obj } from './support/simulation';
import { hpaBody } from './support/workloads';

let host: TestHost;

beforeAll(async () => {
  host = await startTestHost({ simulation: { settings: { speed: 'instant' } } });
  await nodesReady(host);
});
afterAll(async () => host?.close());

const apps = '/apis/apps/v1/namespaces/default';
const batch = '/apis/batch/v1/namespaces/default';

async function create(path: string, body: unknown): Promise<Obj> {
  const r = await host.request('POST', path, { body });
  if (r.status !== 201) throw new Error(`create ${path} answered ${r.status}: ${r.text}`);
  return r.body;
}

async function podsOf(selector: string): Promise<Obj[]> {
  const r = await host.request('GET', `/api/v1/namespaces/default/pods?labelSelector=${selector}`);
  return r.body.items ?? [];
}

/** The pods matching `selector` once `count` of them (not being deleted) pass `check`. */
function podsWhen(selector: string, count: number, what: string, check: (p: Obj) => boolean) {
  return until(`${count} ${selector} pods ${what}`, async () => {
    const live = (await podsOf(selector)).filter((p) => p.metadata.deletionTimestamp === undefined);
    return live.length === count && live.every(check) ? live : undefined;
  });
}

function template(labels: Record<string, string>, container: Obj) {
  return { metadata: { labels }, spec: { containers: [container] } };
}

describe('workloads on the simulated cluster', () => {
  it('a Deployment of 3 nginx replicas runs on the simulated nodes, and its status says so', async () => {
    await create(`${apps}/deployments`, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'nginx', labels: { app: 'nginx' } },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: 'nginx' } },
        template: template({ app: 'nginx' }, { name: 'nginx', image: 'nginx' }),
      },
    });
    const pods = await podsWhen('app=nginx', 3, 'Running and Ready', isRunningReady);
    // Spread over the three nodes (the scheduler's balanced allocation), each owned by the one ReplicaSet.
    expect(new Set(pods.map((p) => p.spec.nodeName))).toEqual(new Set(['node-1', 'node-2', 'node-3']));
    expect(new Set(pods.map((p) => p.metadata.ownerReferences[0].kind))).toEqual(new Set(['ReplicaSet']));
    const d = await until('the Deployment available', async () => {
      const r = await host.request('GET', `${apps}/deployments/nginx`);
      return r.body.status?.availableReplicas === 3 ? r.body : undefined;
    });
    expect(d.status).toMatchObject({
      replicas: 3,
      readyReplicas: 3,
      updatedReplicas: 3,
      observedGeneration: 1,
    });
    const conditions = Object.fromEntries(
      d.status.conditions.map((c: Obj) => [c.type, [c.status, c.reason]]),
    );
    expect(conditions).toEqual({
      Available: ['True', 'MinimumReplicasAvailable'],
      Progressing: ['True', 'NewReplicaSetAvailable'],
    });
  });

  it('a DaemonSet places one pod on each node', async () => {
    await create(`${apps}/daemonsets`, {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent' },
      spec: {
        selector: { matchLabels: { app: 'agent' } },
        template: template(
          { app: 'agent' },
          { name: 'a', image: 'busybox', command: ['sh', '-c', 'while true; do sleep 60; done'] },
        ),
      },
    });
    const pods = await podsWhen('app=agent', 3, 'Running', isRunningReady);
    expect(pods.map((p) => p.spec.nodeName).sort()).toEqual(['node-1', 'node-2', 'node-3']);
    const ds = await until('the DaemonSet ready', async () => {
      const r = await host.request('GET', `${apps}/daemonsets/agent`);
      return r.body.status?.numberReady === 3 ? r.body : undefined;
    });
    expect(ds.status).toMatchObject({
      desiredNumberScheduled: 3,
      currentNumberScheduled: 3,
      numberAvailable: 3,
    });
  });

  it('a Job running echo hello completes, and its pod logged hello', async () => {
    await create(`${batch}/jobs`, {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'hello' },
      spec: {
        template: {
          spec: {
            restartPolicy: 'Never',
            containers: [{ name: 'hello', image: 'busybox', command: ['echo', 'hello'] }],
          },
        },
      },
    });
    const job = await until('the Job complete', async () => {
      const r = await host.request('GET', `${batch}/jobs/hello`);
      return r.body.status?.succeeded === 1 &&
        r.body.status.conditions?.some((c: Obj) => c.type === 'Complete' && c.status === 'True')
        ? r.body
        : undefined;
    });
    expect(job.status.completionTime).toBeDefined();
    const [p] = await podsOf('job-name=hello');
    expect(p.status.phase).toBe('Succeeded');
    const log = await host.request('GET', `/api/v1/namespaces/default/pods/${p.metadata.name}/log`);
    expect(log.text).toBe('hello\n');
  });

  it('a StatefulSet makes web-0 then web-1, their claims bound by the default StorageClass', async () => {
    const classes = await host.request('GET', '/apis/storage.orch.io/v1/storageclasses');
    expect(
      classes.body.items.map((c: Obj) => [
        c.metadata.name,
        c.metadata.annotations['storageclass.orch.io/is-default-class'],
        c.volumeBindingMode,
      ]),
    ).toEqual([['standard', 'true', 'WaitForFirstConsumer']]);
    await create(`${apps}/statefulsets`, {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'web' },
      spec: {
        serviceName: 'web',
        replicas: 2,
        selector: { matchLabels: { app: 'web' } },
        template: template(
          { app: 'web' },
          {
            name: 'nginx',
            image: 'nginx',
            volumeMounts: [{ name: 'www', mountPath: '/usr/share/nginx/html' }],
          },
        ),
        volumeClaimTemplates: [
          {
            metadata: { name: 'www' },
            spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
          },
        ],
      },
    });
    const pods = await podsWhen('app=web', 2, 'Running', isRunningReady);
    const byName = Object.fromEntries(pods.map((p) => [p.metadata.name, p]));
    // Ordered: web-1 is created only once web-0 is Running and Ready.
    expect(Date.parse(byName['web-1'].metadata.creationTimestamp)).toBeGreaterThanOrEqual(
      Date.parse(byName['web-0'].status.conditions.find((c: Obj) => c.type === 'Ready').lastTransitionTime),
    );
    const claims = await host.request('GET', '/api/v1/namespaces/default/persistentvolumeclaims');
    expect(
      claims.body.items.map((c: Obj) => [c.metadata.name, c.spec.storageClassName, c.status.phase]).sort(),
    ).toEqual([
      ['www-web-0', 'standard', 'Bound'],
      ['www-web-1', 'standard', 'Bound'],
    ]);
    const volumes = await host.request('GET', '/api/v1/persistentvolumes');
    for (const claim of claims.body.items) {
      const pv = volumes.body.items.find((v: Obj) => v.metadata.name === claim.spec.volumeName);
      expect(pv?.spec.claimRef.name).toBe(claim.metadata.name);
      expect(pv?.metadata.annotations['pv.orch.io/provisioned-by']).toBe('sandbox.orch.io/host-path');
      // Provisioned on the node the scheduler chose for the claim's pod.
      expect(claim.metadata.annotations['volume.orch.io/selected-node']).toBe(
        byName[claim.metadata.name.slice('www-'.length)].spec.nodeName,
      );
    }
  });

  it('a busy container shows in its usage annotation, and the HPA scales its Deployment up', async () => {
    await create(`${apps}/deployments`, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'burn' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'burn' } },
        template: template(
          { app: 'burn' },
          {
            name: 'burn',
            image: 'busybox',
            command: ['sh', '-c', 'while true; do :; done'],
            resources: { requests: { cpu: '200m' }, limits: { cpu: '500m' } },
          },
        ),
      },
    });
    await podsWhen('app=burn', 1, 'Running', isRunningReady);
    // Two heartbeats of the node agents (every 10 s of the clock): the second samples a busy interval.
    await advance(host, '10s');
    await advance(host, '10s');
    const [p] = await until('the usage annotation', async () => {
      const pods = await podsOf('app=burn');
      return pods[0]?.metadata.annotations?.['sandbox.orch.io/cpu-usage'] === '500m' ? pods : undefined;
    });
    // A whole core's loop, held to the container's CPU limit; memory at its baseline.
    expect(p.metadata.annotations['sandbox.orch.io/memory-usage']).toBe('4Mi');
    const hpa = await host.request(
      'POST',
      '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers',
      {
        body: hpaBody('burn', 'burn', 3, 80),
      },
    );
    expect(hpa.status, hpa.text).toBe(201);
    // 500m of 200m requested is 250%: ceil(1 × 250 / 80) = 4, bounded by maxReplicas.
    const scaled = await until('the HPA to scale', async () => {
      await advance(host, '15s');
      const r = await host.request(
        'GET',
        '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/burn',
      );
      return r.body.status?.desiredReplicas === 3 ? r.body : undefined;
    });
    expect(scaled.status.currentMetrics[0].resource.current.averageUtilization).toBe(250);
    await podsWhen('app=burn', 3, 'Running', isRunningReady);
  });
});
