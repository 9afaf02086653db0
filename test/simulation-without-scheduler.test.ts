/**
 * The simulated cluster without its scheduler (`--scheduler=false`,
 * decision 0131), as a control plane with no kube-scheduler: a pod that
 * names no node stays unscheduled, with no `PodScheduled` condition and no
 * scheduler Event; a pod that names a node still runs there, its node
 * agent being unaffected.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from './support/host';
import { createPod, eventsOf, getPod, isRunningReady, nodesReady, pod, podWhen } from './support/simulation';

let host: TestHost;

beforeAll(async () => {
  host = await startTestHost({
    simulation: { settings: { nodes: 1, speed: 'instant' }, scheduler: false },
  });
  await nodesReady(host, 1);
});
afterAll(async () => host?.close());

describe('no scheduler', () => {
  it.each([
    { name: 'unbound', spec: {}, want: { nodeName: undefined, running: false } },
    { name: 'bound', spec: { nodeName: 'node-1' }, want: { nodeName: 'node-1', running: true } },
  ])('$name pod', async ({ name, spec, want }) => {
    await createPod(
      host,
      pod(name, { ...spec, containers: [{ name: 'c', image: 'busybox', command: ['sleep', '3600'] }] }),
    );
    if (want.running) await podWhen(host, name, 'Running', isRunningReady);
    await host.api.controllersIdle();
    const p = await getPod(host, name);
    expect(p.spec.nodeName).toBe(want.nodeName);
    expect(Boolean(isRunningReady(p))).toBe(want.running);
    if (!want.running) {
      expect(p.status.phase).toBe('Pending');
      expect(p.status.conditions ?? []).toEqual([]);
    }
    expect((await eventsOf(host, name)).filter((e) => /Scheduled|FailedScheduling/.test(e))).toEqual([]);
  });
});
