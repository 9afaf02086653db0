import { describe, expect, it } from 'vitest';
import type { NodeCondition } from '../../api/node';
import { conditionsDiffer, nodeStatus } from './node-object';

const config = { name: 'node-1', index: 1, capacity: { cpu: '4' }, labels: {} };
const reported = (ready: boolean, now = 1000): NodeCondition[] =>
  nodeStatus(config, { ready, now, old: undefined, images: new Map(), kubeletVersion: 'v1.27.16' })
    .conditions ?? [];
const withReady = (conditions: NodeCondition[], ready: Partial<NodeCondition>): NodeCondition[] =>
  conditions.map((c) => (c.type === 'Ready' ? { ...c, ...ready } : c));

describe('conditionsDiffer: whether the agent must post its status before the periodic report', () => {
  const cases: { name: string; ready: boolean; posted: NodeCondition[] | undefined; differ: boolean }[] = [
    { name: 'what it posted, later heartbeats aside', ready: true, posted: reported(true, 0), differ: false },
    { name: 'nothing posted yet', ready: true, posted: undefined, differ: true },
    {
      name: 'Ready set Unknown by the node controller',
      ready: true,
      posted: withReady(reported(true), {
        status: 'Unknown',
        reason: 'NodeStatusUnknown',
        message: 'Kubelet stopped posting node status.',
      }),
      differ: true,
    },
    { name: 'a Ready node that is not ready any more', ready: false, posted: reported(true), differ: true },
    {
      name: 'a pressure condition missing',
      ready: true,
      posted: reported(true).filter((c) => c.type !== 'PIDPressure'),
      differ: true,
    },
  ];
  for (const c of cases) it(c.name, () => expect(conditionsDiffer(c.ready, c.posted)).toBe(c.differ));
});
