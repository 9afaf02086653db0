/** Names built from the naming profile: the kubernetes profile gets the real taint and label keys. */

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/meta';
import { namingProfile } from '../../machinery/naming';
import type { AdmissionPluginDeps } from '../types';
import { defaultTolerationSeconds } from './default-toleration-seconds';
import { limitPodHardAntiAffinityTopology } from './limit-pod-hard-anti-affinity-topology';
import { taintNodesByCondition } from './taint-nodes-by-condition';
import { fakeDeps, podAttributes } from './support/fake-deps.test-support';

const deps: AdmissionPluginDeps = { ...fakeDeps(), profile: namingProfile('kubernetes') };
const node: KubeObject = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n' } };
const nodeWrite = (object: KubeObject) =>
  podAttributes(object, { kind: 'Node', resource: 'nodes', namespace: '' });

describe('kubernetes profile names', () => {
  it('TaintNodesByCondition adds node.kubernetes.io/not-ready:NoSchedule, once', async () => {
    const plugin = taintNodesByCondition(deps);
    const out = await plugin.admit?.(nodeWrite(node));
    expect(out?.spec).toEqual({ taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }] });
    expect(await plugin.admit?.(nodeWrite(out as KubeObject))).toBeUndefined();
    expect(await plugin.admit?.({ ...nodeWrite(node), subresource: 'status' })).toBeUndefined();
  });
  it('DefaultTolerationSeconds uses node.kubernetes.io keys', async () => {
    const out = await defaultTolerationSeconds(deps).admit?.(
      podAttributes({ metadata: { name: 'p' }, spec: {} }),
    );
    expect((out?.spec as { tolerations: { key: string }[] }).tolerations.map((t) => t.key)).toEqual([
      'node.kubernetes.io/not-ready',
      'node.kubernetes.io/unreachable',
    ]);
  });
  it('LimitPodHardAntiAffinityTopology allows only kubernetes.io/hostname', async () => {
    const plugin = limitPodHardAntiAffinityTopology(deps);
    const pod = (topologyKey: string): KubeObject => ({
      metadata: { name: 'p' },
      spec: {
        affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey }] } },
      },
    });
    await expect(plugin.validate?.(podAttributes(pod('kubernetes.io/hostname')))).resolves.toBeUndefined();
    await expect(plugin.validate?.(podAttributes(pod('orch.io/hostname')))).rejects.toThrow(
      'has TopologyKey orch.io/hostname but only key kubernetes.io/hostname is allowed',
    );
  });
});
