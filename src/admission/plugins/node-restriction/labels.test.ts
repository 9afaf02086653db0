/** The node label policy under both naming profiles. */

import { describe, expect, it } from 'vitest';
import { namingProfile } from '../../../machinery/naming';
import { modifiedLabels, NodeLabelPolicy } from './labels';

describe('NodeLabelPolicy', () => {
  const cases: { profile: 'orch' | 'kubernetes'; keys: string[]; forbidden: string[] }[] = [
    {
      profile: 'orch',
      keys: [
        'orch.io/hostname',
        'beta.orch.io/arch',
        'topology.orch.io/zone',
        'kubelet.orch.io/a',
        'x.node.orch.io/b',
      ],
      forbidden: [],
    },
    {
      profile: 'orch',
      keys: [
        'orch.io/role',
        'node-restriction.orch.io/a',
        'a.node-restriction.orch.io/b',
        'foo.orch.io/c',
        'plain',
      ],
      forbidden: [
        'a.node-restriction.orch.io/b',
        'foo.orch.io/c',
        'node-restriction.orch.io/a',
        'orch.io/role',
      ],
    },
    {
      profile: 'kubernetes',
      keys: [
        'kubernetes.io/hostname',
        'k8s.io/x',
        'sub.k8s.io/y',
        'node.kubernetes.io/instance-type',
        'example.com/z',
      ],
      forbidden: ['k8s.io/x', 'sub.k8s.io/y'],
    },
  ];
  for (const c of cases)
    it(`${c.profile}: ${c.keys.join(' ')}`, () =>
      expect(new NodeLabelPolicy(namingProfile(c.profile)).forbidden(c.keys)).toEqual(c.forbidden));

  it('modified labels: added, removed and changed keys', () =>
    expect(modifiedLabels({ a: '1', b: '2', c: '3' }, { b: '2', c: '4', d: '5' }).sort()).toEqual([
      'a',
      'c',
      'd',
    ]));
});
