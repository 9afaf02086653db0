/** PodTolerationRestriction: namespace and cluster defaults, the QoS toleration, whitelists, bad annotations. */

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/meta';
import { isBestEffort, podTolerationRestriction } from './pod-toleration-restriction';
import { fakeDeps, podAttributes } from './support/fake-deps.test-support';

const defaults = 'scheduler.alpha.orch.io/defaultTolerations';
const whitelist = 'scheduler.alpha.orch.io/tolerationsWhitelist';
const ns = (name: string, annotations: Record<string, string> = {}): KubeObject => ({
  metadata: { name, annotations },
});
const dedicated = { key: 'dedicated', operator: 'Equal', value: 'a', effect: 'NoSchedule' };
const plugin = podTolerationRestriction(
  fakeDeps({
    namespaces: [
      ns('plain'),
      ns('team', {
        [defaults]: JSON.stringify([dedicated]),
        [whitelist]: JSON.stringify([{ key: 'dedicated', operator: 'Exists' }]),
      }),
      ns('none', { [defaults]: '' }),
      ns('open', { [defaults]: '', [whitelist]: '' }),
      ns('garbled', { [defaults]: '{' }),
    ],
    config: {
      default: [{ key: 'cluster', operator: 'Exists' }],
      whitelist: [{ key: 'cluster', operator: 'Exists' }],
    },
  }),
);
const pod = (spec: Record<string, unknown> = {}): KubeObject => ({
  metadata: { name: 'p' },
  spec: { containers: [{ name: 'c', image: 'i' }], ...spec },
});
const tolerationsOf = (o: KubeObject | undefined) =>
  (o?.spec as { tolerations?: unknown } | undefined)?.tolerations;
const admit = (namespace: string, p: KubeObject, operation: 'CREATE' | 'UPDATE' = 'CREATE') =>
  plugin.admit?.(podAttributes(p, { namespace, operation }));

describe('PodTolerationRestriction', () => {
  it('merges the namespace defaults, else the cluster default, and none for an empty annotation', async () => {
    expect(tolerationsOf(await admit('team', pod()))).toEqual([dedicated]);
    expect(tolerationsOf(await admit('plain', pod()))).toEqual([{ key: 'cluster', operator: 'Exists' }]);
    expect(await admit('none', pod())).toBeUndefined();
  });
  it('adds no defaults on update, but the memory-pressure toleration to a Burstable pod', async () => {
    const burstable = pod({ containers: [{ name: 'c', resources: { limits: { cpu: '1' } } }] });
    expect(tolerationsOf(await admit('open', burstable, 'UPDATE'))).toEqual([
      { key: 'node.orch.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
    ]);
    // Where the cluster whitelist applies, the plugin's own memory-pressure toleration must be on it too (as upstream).
    await expect(admit('none', burstable)).rejects.toThrow('conflict with its cluster whitelist');
  });
  it('refuses tolerations outside the namespace, then the cluster, whitelist with a 500', async () => {
    await expect(
      admit('team', pod({ tolerations: [{ key: 'gpu', operator: 'Exists' }] })),
    ).rejects.toMatchObject({
      status: {
        code: 500,
        message:
          'pod tolerations (possibly merged with namespace default tolerations) conflict with its namespace whitelist',
      },
    });
    await expect(admit('plain', pod({ tolerations: [{ key: 'gpu', operator: 'Exists' }] }))).rejects.toThrow(
      'conflict with its cluster whitelist',
    );
  });
  it('answers 500 for an annotation that is not JSON', async () => {
    await expect(admit('garbled', pod())).rejects.toMatchObject({ status: { code: 500 } });
  });
  it('classifies BestEffort by positive cpu or memory requests and limits only', () => {
    expect(
      isBestEffort({ containers: [{ resources: { requests: { cpu: '0', 'example.com/gpu': '1' } } }] }),
    ).toBe(true);
    expect(isBestEffort({ initContainers: [{ resources: { limits: { memory: '1Mi' } } }] })).toBe(false);
  });
});
