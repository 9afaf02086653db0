/** RuntimeClass against a stored class with overhead and scheduling: what it sets, what it refuses. */

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/meta';
import { quantityValue, runtimeClass } from './runtime-class';
import { fakeDeps, podAttributes } from './support/fake-deps.test-support';

const rc: KubeObject = {
  apiVersion: 'node.orch.io/v1',
  kind: 'RuntimeClass',
  metadata: { name: 'kata' },
  handler: 'kata',
  overhead: { podFixed: { cpu: '250m', memory: '120Mi' } },
  scheduling: {
    nodeSelector: { runtime: 'kata' },
    tolerations: [{ key: 'kata', operator: 'Exists', effect: 'NoSchedule' }],
  },
};
const plugin = runtimeClass(fakeDeps({ objects: { 'node.orch.io/runtimeclasses': [rc] } }));
const pod = (spec: Record<string, unknown>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p' },
  spec: { containers: [{ name: 'c', image: 'i' }], runtimeClassName: 'kata', ...spec },
});

describe('RuntimeClass', () => {
  it('sets overhead, node selector and tolerations from the class', async () => {
    const out = (await plugin.admit?.(podAttributes(pod({ nodeSelector: { disk: 'ssd' } })))) as {
      spec: Record<string, unknown>;
    };
    expect(out.spec.overhead).toEqual({ cpu: '250m', memory: '120Mi' });
    expect(out.spec.nodeSelector).toEqual({ disk: 'ssd', runtime: 'kata' });
    expect(out.spec.tolerations).toEqual([{ key: 'kata', operator: 'Exists', effect: 'NoSchedule' }]);
    await expect(plugin.validate?.(podAttributes(out as KubeObject))).resolves.toBeUndefined();
  });
  it('accepts an equal overhead written differently', async () => {
    await expect(
      plugin.admit?.(podAttributes(pod({ overhead: { cpu: '0.25', memory: '120Mi' } }))),
    ).resolves.toBeDefined();
  });
  it('refuses a different overhead and a conflicting node selector', async () => {
    await expect(plugin.admit?.(podAttributes(pod({ overhead: { cpu: '1' } })))).rejects.toThrow(
      `pods "p" is forbidden: pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead`,
    );
    await expect(plugin.admit?.(podAttributes(pod({ nodeSelector: { runtime: 'runc' } })))).rejects.toThrow(
      'pods "p" is forbidden: conflict: runtimeClass.scheduling.nodeSelector[runtime] = kata; pod.spec.nodeSelector[runtime] = runc',
    );
  });
  it('validate refuses an overhead changed after admit', async () => {
    await expect(plugin.validate?.(podAttributes(pod({ overhead: { cpu: '1' } })))).rejects.toThrow(
      "Pod's Overhead doesn't match",
    );
  });
  it('reads quantities by value', () => {
    expect(quantityValue('250m')).toBe(quantityValue('0.25'));
    expect(quantityValue('1Ki')).toBe(1024);
    expect(quantityValue('1e3')).toBe(1000);
    expect(quantityValue('x')).toBeUndefined();
  });
});
