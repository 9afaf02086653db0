/**
 * The scheduler through the Node host's HTTP API: where it places pods
 * (node selectors, taints and tolerations, resources, pod anti-affinity on
 * the hostname, cordoned nodes), the `PodScheduled=False` condition and
 * `FailedScheduling` Event with the real message when nothing fits, and
 * the retry once the cluster changes.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from './support/host';
import { createPod, eventsOf, nodesReady, pod, podWhen, until, type Obj } from './support/simulation';

let host: TestHost;

beforeAll(async () => {
  host = await startTestHost({ simulation: { settings: { speed: 'instant' } } });
  await nodesReady(host);
});
afterAll(async () => host?.close());

const scheduled = (p: Obj) => (p.spec?.nodeName ?? '') !== '';
const unschedulable = (p: Obj) =>
  p.status?.conditions?.some(
    (c: Obj) => c.type === 'PodScheduled' && c.status === 'False' && c.reason === 'Unschedulable',
  );

async function refusal(name: string): Promise<{ message: string; events: string[] }> {
  const p = await podWhen(host, name, 'unschedulable', unschedulable);
  const message = p.status.conditions.find((c: Obj) => c.type === 'PodScheduled').message;
  const events = await until('FailedScheduling', async () => {
    const e = await eventsOf(host, name);
    return e.some((x) => x.startsWith('Warning FailedScheduling')) ? e : undefined;
  });
  return { message, events };
}

function patchNode(name: string, patch: unknown) {
  return host.request('PATCH', `/api/v1/nodes/${name}`, {
    body: patch,
    contentType: 'application/merge-patch+json',
  });
}

describe('the scheduler', () => {
  it('refuses a node selector no node matches, then places the pod once a node has the label', async () => {
    await createPod(
      host,
      pod('picky', { nodeSelector: { disk: 'ssd' }, containers: [{ name: 'c', image: 'nginx' }] }),
    );
    const { message, events } = await refusal('picky');
    const expected =
      "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling..";
    expect(message).toBe(expected);
    expect(events).toContain(`Warning FailedScheduling: ${expected}`);
    await patchNode('node-2', { metadata: { labels: { disk: 'ssd' } } });
    const p = await podWhen(host, 'picky', 'scheduled', scheduled);
    expect(p.spec.nodeName).toBe('node-2');
  });

  it('counts requests against allocatable', async () => {
    await createPod(
      host,
      pod('greedy', {
        containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '5', memory: '1Gi' } } }],
      }),
    );
    expect((await refusal('greedy')).message).toBe(
      '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod..',
    );
    await createPod(
      host,
      pod('fits', { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '3500m' } } }] }),
    );
    const placed = await podWhen(host, 'fits', 'scheduled', scheduled);
    // A second one no longer fits where the first went.
    await createPod(
      host,
      pod('fits-too', {
        nodeSelector: { 'orch.io/hostname': placed.spec.nodeName },
        containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '1' } } }],
      }),
    );
    expect((await refusal('fits-too')).message).toBe(
      "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling..",
    );
  });

  it('keeps pods off tainted nodes unless they tolerate the taint', async () => {
    await patchNode('node-3', {
      spec: { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] },
    });
    await createPod(
      host,
      pod('on-three', {
        nodeSelector: { 'orch.io/hostname': 'node-3' },
        containers: [{ name: 'c', image: 'nginx' }],
      }),
    );
    expect((await refusal('on-three')).message).toBe(
      "0/3 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling..",
    );
    await createPod(
      host,
      pod('tolerant', {
        nodeSelector: { 'orch.io/hostname': 'node-3' },
        tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }],
        containers: [{ name: 'c', image: 'nginx' }],
      }),
    );
    expect((await podWhen(host, 'tolerant', 'scheduled', scheduled)).spec.nodeName).toBe('node-3');
    await patchNode('node-3', { spec: { taints: null } });
  });

  it('spreads pods with required anti-affinity on the hostname, one per node', async () => {
    const antiAffinity = {
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { labelSelector: { matchLabels: { app: 'spread' } }, topologyKey: 'orch.io/hostname' },
        ],
      },
    };
    for (const n of ['s1', 's2', 's3', 's4'])
      await createPod(
        host,
        pod(
          n,
          { affinity: antiAffinity, containers: [{ name: 'c', image: 'nginx' }] },
          { labels: { app: 'spread' } },
        ),
      );
    const nodes = new Set<string>();
    for (const n of ['s1', 's2', 's3'])
      nodes.add((await podWhen(host, n, 'scheduled', scheduled)).spec.nodeName);
    expect(nodes.size).toBe(3);
    expect((await refusal('s4')).message).toBe(
      "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod..",
    );
  });

  it('places nothing on a cordoned node', async () => {
    await patchNode('node-1', { spec: { unschedulable: true } });
    await until('the unschedulable taint', async () => {
      const n = await host.request('GET', '/api/v1/nodes/node-1');
      return (n.body.spec.taints ?? []).some((t: Obj) => t.key === 'node.orch.io/unschedulable')
        ? n
        : undefined;
    });
    await createPod(
      host,
      pod('cordoned', {
        nodeSelector: { 'orch.io/hostname': 'node-1' },
        containers: [{ name: 'c', image: 'nginx' }],
      }),
    );
    expect((await refusal('cordoned')).message).toBe(
      "0/3 nodes are available: 1 node(s) were unschedulable, 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling..",
    );
    await patchNode('node-1', { spec: { unschedulable: null } });
    expect((await podWhen(host, 'cordoned', 'scheduled', scheduled)).spec.nodeName).toBe('node-1');
  });

  it('leaves pods of another scheduler, and gated pods, alone', async () => {
    await createPod(
      host,
      pod('other', { schedulerName: 'my-scheduler', containers: [{ name: 'c', image: 'nginx' }] }),
    );
    await createPod(
      host,
      pod('gated', { schedulingGates: [{ name: 'wait' }], containers: [{ name: 'c', image: 'nginx' }] }),
    );
    const gated = await podWhen(host, 'gated', 'gated', (p) =>
      p.status?.conditions?.some((c: Obj) => c.reason === 'SchedulingGated'),
    );
    expect(gated.status.conditions[0]).toMatchObject({
      type: 'PodScheduled',
      status: 'False',
      reason: 'SchedulingGated',
      message: 'Scheduling is blocked due to non-empty scheduling gates',
    });
    const other = await host.request('GET', '/api/v1/namespaces/default/pods/other');
    expect(other.body.spec.nodeName).toBeUndefined();
    expect(other.body.status.conditions ?? []).toEqual([]);
  });
});
