/**
 * Simulated nodes going away and coming back, through the Node host's HTTP
 * API, on the server's clock: a stopped node agent leaves its node
 * NotReady (Unknown) after the grace period, tainted `unreachable`, its
 * pods not Ready and, once their toleration (300 s from
 * DefaultTolerationSeconds) has run out, evicted by the taint manager;
 * started again, it finishes them. The node count is a setting: a node
 * added registers, a node removed is deleted and its pods collected. The
 * node lease namespace, which (unlike `default` and the system namespace)
 * may be deleted, is made again by the server's system-namespaces loop
 * within a minute; the agents then renew their Leases and report Ready
 * again, and the unreachable taints are lifted.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from './support/host';
import {
  advance,
  createPod,
  eventsOf,
  getPod,
  isRunningReady,
  nodesReady,
  pod,
  podWhen,
  until,
  type Obj,
} from './support/simulation';

let host: TestHost;

beforeAll(async () => {
  host = await startTestHost({ simulation: { settings: { speed: 'instant' } } });
  await nodesReady(host);
});
afterAll(async () => host?.close());

const readyCondition = (node: Obj) => node.status?.conditions?.find((c: Obj) => c.type === 'Ready');

describe('a stopped node agent', () => {
  it('leaves its node NotReady, tainted, and its pods evicted after their toleration', async () => {
    await createPod(
      host,
      pod('stranded', {
        nodeSelector: { 'orch.io/hostname': 'node-3' },
        containers: [{ name: 'c', image: 'busybox', command: ['sleep', '3600'] }],
      }),
    );
    const running = await podWhen(host, 'stranded', 'Running', isRunningReady);
    expect(running.spec.tolerations).toEqual(
      expect.arrayContaining([
        { key: 'node.orch.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      ]),
    );
    const stopped = await host.request('POST', '/sandbox/v1/nodes/node-3/stop');
    expect(stopped.body).toEqual({ name: 'node-3', running: false });
    // Past the 40 s grace period the node lifecycle controller gives up on it.
    await advance(host, '45s');
    const node = await until('node-3 Unknown', async () => {
      const n = await host.request('GET', '/api/v1/nodes/node-3');
      return readyCondition(n.body)?.status === 'Unknown' ? n.body : undefined;
    });
    expect(readyCondition(node)).toMatchObject({
      reason: 'NodeStatusUnknown',
      message: 'Kubelet stopped posting node status.',
    });
    const tainted = await until('the unreachable taints', async () => {
      const n = await host.request('GET', '/api/v1/nodes/node-3');
      return (n.body.spec.taints ?? []).length === 2 ? n.body : undefined;
    });
    expect(tainted.spec.taints.map((t: Obj) => `${t.key}:${t.effect}`)).toEqual([
      'node.orch.io/unreachable:NoSchedule',
      'node.orch.io/unreachable:NoExecute',
    ]);
    const notReady = await podWhen(host, 'stranded', 'not Ready', (p) =>
      p.status.conditions.some((c: Obj) => c.type === 'Ready' && c.status === 'False'),
    );
    expect(notReady.metadata.deletionTimestamp).toBeUndefined();
    expect(await eventsOf(host, 'stranded')).toContain('Warning NodeNotReady: Node is not ready');
    // The toleration runs out 300 s after the taint: the taint manager evicts.
    await advance(host, '300s');
    const evicted = await podWhen(
      host,
      'stranded',
      'evicted',
      (p) => p.metadata.deletionTimestamp !== undefined,
    );
    expect(evicted.status.conditions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: 'DisruptionTarget',
          status: 'True',
          reason: 'DeletionByTaintManager',
          message: 'Taint manager: deleting due to NoExecute taint',
        }),
      ]),
    );
    expect(await eventsOf(host, 'stranded')).toContain(
      'Normal TaintManagerEviction: Marking for deletion Pod default/stranded',
    );
    // Nothing confirms the deletion while the node is down: the pod stays Terminating.
    expect(await getPod(host, 'stranded')).toBeDefined();
    // Logs cannot reach a stopped node.
    const logs = await host.request('GET', '/api/v1/namespaces/default/pods/stranded/log');
    expect([logs.status, logs.body.message]).toEqual([
      503,
      'error dialing backend: dial tcp 172.18.0.4:10250: connect: connection refused',
    ]);
  });

  it('started again, reports Ready, lifts the taints and finishes the evicted pod', async () => {
    await host.request('POST', '/sandbox/v1/nodes/node-3/start');
    await until('node-3 Ready without taints', async () => {
      const n = await host.request('GET', '/api/v1/nodes/node-3');
      return readyCondition(n.body)?.status === 'True' && (n.body.spec.taints ?? []).length === 0
        ? n
        : undefined;
    });
    // `sleep` ignores SIGTERM: the grace period (30 s) passes on the clock, then the agent removes the pod.
    await until('the Killing Event', async () => {
      const e = await eventsOf(host, 'stranded');
      return e.includes('Normal Killing: Stopping container c') ? e : undefined;
    });
    await advance(host, '30s');
    await until('the evicted pod gone', async () =>
      (await getPod(host, 'stranded')) === undefined ? true : undefined,
    );
  });
});

describe('the node proxy', () => {
  it("reaches a simulated node's agent: /healthz and the pods it runs", async () => {
    const health = await host.request('GET', '/api/v1/nodes/node-1/proxy/healthz');
    expect([health.status, health.text]).toEqual([200, 'ok']);
    const pods = await host.request('GET', '/api/v1/nodes/node-1/proxy/pods');
    expect(pods.body.kind).toBe('PodList');
  });
});

describe('a deleted Node', () => {
  it('is registered again by its node agent', async () => {
    const before = await host.request('GET', '/api/v1/nodes/node-2');
    expect((await host.request('DELETE', '/api/v1/nodes/node-2')).status).toBe(200);
    const again = await until('node-2 registered again', async () => {
      const n = await host.request('GET', '/api/v1/nodes/node-2');
      return n.status === 200 &&
        n.body.metadata.uid !== before.body.metadata.uid &&
        readyCondition(n.body)?.status === 'True'
        ? n.body
        : undefined;
    });
    expect(again.status.capacity.cpu).toBe('4');
  });
});

describe('the node lease namespace, deleted', () => {
  const leases = '/apis/coordination.orch.io/v1/namespaces/orch-node-lease/leases';
  const held = '/api/v1/namespaces/orch-node-lease/configmaps/held';
  // Every node is down at once (a full disruption): tainted NoSchedule, and no NoExecute taint evicts their pods.
  const unreachable = (n: Obj) =>
    readyCondition(n)?.status === 'Unknown' &&
    (n.spec?.taints ?? []).some(
      (t: Obj) => t.key === 'node.orch.io/unreachable' && t.effect === 'NoSchedule',
    );

  it('leaves the nodes unreachable while it is gone, and is made again within a minute', async () => {
    await nodesReady(host);
    // A finalizer keeps the namespace Terminating (nothing can make it again) until the test lets it go.
    const hold = await host.request('POST', '/api/v1/namespaces/orch-node-lease/configmaps', {
      body: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'held', finalizers: ['example.com/hold'] },
      },
    });
    expect(hold.status, hold.text).toBe(201);
    expect((await host.request('DELETE', '/api/v1/namespaces/orch-node-lease')).status).toBe(200);
    await until('the Leases deleted with their namespace', async () => {
      const r = await host.request('GET', leases);
      return r.status === 200 && r.body.items.length === 0 ? true : undefined;
    });
    // No Lease can be made in a terminating namespace: past the grace period the nodes are unreachable.
    await advance(host, '45s');
    await until('3 unreachable nodes', async () => {
      const r = await host.request('GET', '/api/v1/nodes');
      return r.body.items.filter(unreachable).length === 3 ? true : undefined;
    });
    await host.request('PATCH', held, {
      body: { metadata: { finalizers: null } },
      contentType: 'application/merge-patch+json',
    });
    await until('the namespace gone', async () =>
      (await host.request('GET', '/api/v1/namespaces/orch-node-lease')).status === 404 ? true : undefined,
    );
    // The system-namespaces loop runs every minute of the server's clock.
    await advance(host, '60s');
    const again = await until('the namespace made again', async () => {
      const r = await host.request('GET', '/api/v1/namespaces/orch-node-lease');
      return r.status === 200 && r.body.status.phase === 'Active' ? r.body : undefined;
    });
    expect(again.metadata.labels).toEqual({ 'orch.io/metadata.name': 'orch-node-lease' });
    // At their next heartbeat the agents make their Leases again and report Ready: the taints are lifted.
    await advance(host, '10s');
    await nodesReady(host);
    const renewed = await host.request('GET', leases);
    expect(renewed.body.items.map((l: Obj) => l.metadata.name).sort()).toEqual([
      'node-1',
      'node-2',
      'node-3',
    ]);
  });
});

describe('the node count', () => {
  it('adds a node that registers, and removes one (its Node deleted, its pods collected)', async () => {
    const put = await host.request('PUT', '/sandbox/v1/settings', { body: { simulation: { nodes: 4 } } });
    expect(put.body.simulation).toMatchObject({ nodes: 4, speed: 'instant' });
    await nodesReady(host, 4);
    await createPod(
      host,
      pod('on-four', {
        nodeSelector: { 'orch.io/hostname': 'node-4' },
        containers: [{ name: 'c', image: 'nginx' }],
      }),
    );
    await podWhen(host, 'on-four', 'Running', isRunningReady);
    await host.request('PUT', '/sandbox/v1/settings', { body: { simulation: { nodes: 3 } } });
    await until('node-4 deleted', async () => {
      const n = await host.request('GET', '/api/v1/nodes/node-4');
      return n.status === 404 ? n : undefined;
    });
    // The pod GC collects a removed node's pods after a 40 s quarantine.
    await advance(host, '20s');
    await advance(host, '25s');
    await advance(host, '20s');
    await until('the orphaned pod collected', async () =>
      (await getPod(host, 'on-four')) === undefined ? true : undefined,
    );
  });

  it('refuses settings a kubelet would refuse', async () => {
    const labels = await host.request('PUT', '/sandbox/v1/settings', {
      body: { simulation: { labels: { 'orch.io/role': 'x' } } },
    });
    expect([labels.status, labels.body.message]).toEqual([
      400,
      "simulation: unknown 'orch.io' labels specified with --node-labels: [orch.io/role]",
    ]);
    const count = await host.request('PUT', '/sandbox/v1/settings', { body: { simulation: { nodes: -1 } } });
    expect([count.status, count.body.message]).toEqual([
      400,
      'simulation: nodes must be a whole number from 0 to 1000',
    ]);
  });
});
