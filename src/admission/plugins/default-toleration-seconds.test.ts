/** DefaultTolerationSeconds and ExtendedResourceToleration: which tolerations they add. */

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/meta';
import type { AdmissionPluginDeps } from '../types';
import { defaultTolerationSeconds } from './default-toleration-seconds';
import { extendedResourceToleration, isExtendedResourceName } from './extended-resource-toleration';
import { fakeDeps, podAttributes } from './support/fake-deps.test-support';

const deps: AdmissionPluginDeps = {
  ...fakeDeps(),
  flags: { defaultNotReadyTolerationSeconds: 60, defaultUnreachableTolerationSeconds: 120 },
};
const pod = (spec: Record<string, unknown>): KubeObject => ({
  metadata: { name: 'p' },
  spec: { containers: [], ...spec },
});
const tolerationsOf = (o: KubeObject | undefined) =>
  (o?.spec as { tolerations?: unknown } | undefined)?.tolerations;

describe('DefaultTolerationSeconds', () => {
  const plugin = defaultTolerationSeconds(deps);
  it.each([
    ['no tolerations', [], ['node.orch.io/not-ready', 'node.orch.io/unreachable']],
    [
      'not-ready NoExecute already',
      [{ key: 'node.orch.io/not-ready', operator: 'Exists', effect: 'NoExecute' }],
      ['node.orch.io/unreachable'],
    ],
    [
      'an any-effect unreachable',
      [{ key: 'node.orch.io/unreachable', operator: 'Exists' }],
      ['node.orch.io/not-ready'],
    ],
    [
      'a NoSchedule not-ready does not count',
      [{ key: 'node.orch.io/not-ready', operator: 'Exists', effect: 'NoSchedule' }],
      ['node.orch.io/not-ready', 'node.orch.io/unreachable'],
    ],
  ])('%s', async (_name, tolerations, added) => {
    const out = await plugin.admit?.(podAttributes(pod({ tolerations })));
    const keys = ((tolerationsOf(out) ?? tolerations) as { key?: string }[])
      .slice(tolerations.length)
      .map((t) => t.key);
    expect(keys).toEqual(added);
  });
  it('uses the flags', async () => {
    const out = await plugin.admit?.(podAttributes(pod({})));
    expect(tolerationsOf(out)).toEqual([
      { key: 'node.orch.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 },
      { key: 'node.orch.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 120 },
    ]);
  });
});

describe('ExtendedResourceToleration', () => {
  it.each([
    ['example.com/gpu', true],
    ['cpu', false],
    ['orch.io/thing', false],
    ['hugepages-2Mi', false],
    ['requests.example.com/x', false],
    ['Example.com/x', false],
  ])('%s extended: %s', (name, want) => expect(isExtendedResourceName(name, 'orch.io')).toBe(want));

  it('adds sorted tolerations once, from containers and init containers', async () => {
    const plugin = extendedResourceToleration(deps);
    const out = await plugin.admit?.(
      podAttributes(
        pod({
          containers: [{ resources: { requests: { 'z.io/b': '1' } } }],
          initContainers: [{ resources: { requests: { 'a.io/a': '1' } } }],
          tolerations: [{ key: 'a.io/a', operator: 'Exists', effect: 'NoSchedule' }],
        }),
      ),
    );
    expect(tolerationsOf(out)).toEqual([
      { key: 'a.io/a', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'z.io/b', operator: 'Exists', effect: 'NoSchedule' },
    ]);
  });
});
