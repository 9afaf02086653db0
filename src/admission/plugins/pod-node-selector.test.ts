/** PodNodeSelector: which selector applies (annotation, cluster default), merging, conflicts, whitelists. */

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/meta';
import { podNodeSelector } from './pod-node-selector';
import { fakeDeps, podAttributes } from './support/fake-deps.test-support';

const annotation = 'scheduler.alpha.orch.io/node-selector';
const ns = (name: string, selector?: string): KubeObject => ({
  metadata: { name, ...(selector !== undefined ? { annotations: { [annotation]: selector } } : {}) },
});
const plugin = podNodeSelector(
  fakeDeps({
    namespaces: [ns('plain'), ns('ssd', 'disk=ssd'), ns('open', ''), ns('fenced', '')],
    config: {
      podNodeSelectorPluginConfig: { clusterDefaultNodeSelector: 'tier=general', fenced: 'env=prod' },
    },
  }),
);
const pod = (nodeSelector?: Record<string, string>): KubeObject => ({
  metadata: { name: 'p' },
  spec: { containers: [], ...(nodeSelector !== undefined ? { nodeSelector } : {}) },
});
const admit = (namespace: string, p: KubeObject) => plugin.admit?.(podAttributes(p, { namespace }));
const selectorOf = (o: KubeObject | undefined) =>
  (o?.spec as { nodeSelector?: unknown } | undefined)?.nodeSelector;

describe('PodNodeSelector', () => {
  it.each([
    ['plain', undefined, { tier: 'general' }],
    ['ssd', { app: 'x' }, { disk: 'ssd', app: 'x' }],
    ['open', undefined, undefined],
    ['fenced', { env: 'prod' }, undefined],
  ])('in %s, %j becomes %j', async (namespace, selector, want) => {
    expect(selectorOf(await admit(namespace, pod(selector)))).toEqual(want);
  });

  it.each([
    ['ssd', { disk: 'hdd' }, 'pod node label selector conflicts with its namespace node label selector'],
    ['plain', { tier: 'gpu' }, 'pod node label selector conflicts with its namespace node label selector'],
    ['fenced', { env: 'dev' }, 'pod node label selector labels conflict with its namespace whitelist'],
    ['fenced', { other: 'x' }, 'pod node label selector labels conflict with its namespace whitelist'],
  ])('in %s, %j is refused', async (namespace, selector, message) => {
    await expect(admit(namespace, pod(selector))).rejects.toThrow(`pods "p" is forbidden: ${message}`);
  });

  it('a missing namespace is 404', async () => {
    await expect(admit('ghost', pod())).rejects.toThrow('namespaces "ghost" not found');
  });

  it('validate refuses what a later mutation made conflict', async () => {
    await expect(
      plugin.validate?.(podAttributes(pod({ disk: 'hdd' }), { namespace: 'ssd' })),
    ).rejects.toThrow('conflicts with its namespace node label selector');
  });
});
