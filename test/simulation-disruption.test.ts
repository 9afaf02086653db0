/**
 * The node lifecycle controller when no node is Ready (upstream's "master
 * disruption mode"), through the Node host's HTTP API with the simulation
 * running no node of its own: a node registered by hand that never posts
 * status (as Kubernetes' kubectl suite registers `127.0.0.1`) goes Unknown
 * after the startup grace period and is tainted `unreachable` NoSchedule,
 * but not NoExecute, so its pods stay; once another node is Ready the
 * disruption is over and the NoExecute taint (and its eviction) follows.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from './support/host';
import { advance, createPod, getPod, pod, until, type Obj } from './support/simulation';

let host: TestHost;

beforeAll(async () => {
  host = await startTestHost({ profile: 'kubernetes', simulation: { settings: { nodes: 0 } } });
});
afterAll(async () => host?.close());

const taintsOf = async (name: string): Promise<string[]> => {
  const r = await host.request('GET', `/api/v1/nodes/${name}`);
  return ((r.body.spec?.taints ?? []) as Obj[]).map((t) => `${t.key}:${t.effect}`).sort();
};
const readyOf = async (name: string): Promise<string | undefined> => {
  const r = await host.request('GET', `/api/v1/nodes/${name}`);
  return ((r.body.status?.conditions ?? []) as Obj[]).find((c) => c.type === 'Ready')?.status;
};

describe('no node Ready', () => {
  it('taints the unreachable node NoSchedule only, and evicts nothing', async () => {
    const created = await host.request('POST', '/api/v1/nodes', {
      body: { metadata: { name: 'lonely' }, status: { capacity: { memory: '1Gi' } } },
    });
    expect(created.status, created.text).toBe(201);
    // Tolerates unreachable for no time at all: evicted at once, were the NoExecute taint added.
    await createPod(
      host,
      pod('stays', {
        nodeName: 'lonely',
        containers: [{ name: 'c', image: 'busybox' }],
        tolerations: [
          {
            key: 'node.kubernetes.io/unreachable',
            operator: 'Exists',
            effect: 'NoExecute',
            tolerationSeconds: 0,
          },
        ],
      }),
    );
    // Past the 60 s startup grace period for a node that never posted status.
    await advance(host, '65s');
    await until('lonely Unknown', async () => ((await readyOf('lonely')) === 'Unknown' ? true : undefined));
    await host.api.controllersIdle();
    expect(await taintsOf('lonely')).toEqual(['node.kubernetes.io/unreachable:NoSchedule']);
    await advance(host, '10s');
    await host.api.controllersIdle();
    expect(await taintsOf('lonely')).toEqual(['node.kubernetes.io/unreachable:NoSchedule']);
    const stays = await getPod(host, 'stays');
    expect(stays?.metadata.deletionTimestamp).toBeUndefined();
  });

  it('taints NoExecute, and evicts, once another node is Ready', async () => {
    const now = new Date(host.api.clock.now()).toISOString().replace(/\.\d+Z$/, 'Z');
    const ready = await host.request('POST', '/api/v1/nodes', {
      body: {
        metadata: { name: 'healthy' },
        status: {
          conditions: [
            {
              type: 'Ready',
              status: 'True',
              reason: 'KubeletReady',
              lastHeartbeatTime: now,
              lastTransitionTime: now,
            },
          ],
        },
      },
    });
    expect(ready.status, ready.text).toBe(201);
    await until('the unreachable NoExecute taint', async () =>
      (await taintsOf('lonely')).includes('node.kubernetes.io/unreachable:NoExecute') ? true : undefined,
    );
    await until('the pod evicted', async () => {
      const p = await getPod(host, 'stays');
      return p === undefined || p.metadata.deletionTimestamp !== undefined ? true : undefined;
    });
  });
});
