/**
 * The lifecycle of a simulated node, as data: its node agent registers the
 * Node, reports it Ready a moment later (with the Events a kubelet writes
 * when it starts), and then renews its Lease every ten seconds of the
 * server's clock (a quarter of the forty-second lease, as the kubelet
 * does), posting its status when it changed or every five minutes.
 */

import type { Stage } from './stage';

export type NodeAction = 'register' | 'ready' | 'heartbeat';

const in_ = (key: string, ...values: (string | boolean)[]) => ({ key, operator: 'In' as const, values });

export const nodeStages: readonly Stage<NodeAction>[] = [
  {
    name: 'node-register',
    resource: 'Node',
    selector: [in_('registered', false)],
    next: {
      state: 'registered',
      events: [{ type: 'Normal', reason: 'Starting', message: 'Starting kubelet.' }],
      action: 'register',
    },
  },
  {
    name: 'node-ready',
    resource: 'Node',
    selector: [in_('registered', true), in_('ready', false)],
    delay: { ms: 500, jitterMs: 500, simulated: true },
    next: {
      state: 'ready',
      events: [
        {
          type: 'Normal',
          reason: 'NodeHasSufficientMemory',
          message: 'Node {{name}} status is now: NodeHasSufficientMemory',
        },
        {
          type: 'Normal',
          reason: 'NodeHasNoDiskPressure',
          message: 'Node {{name}} status is now: NodeHasNoDiskPressure',
        },
        {
          type: 'Normal',
          reason: 'NodeHasSufficientPID',
          message: 'Node {{name}} status is now: NodeHasSufficientPID',
        },
        {
          type: 'Normal',
          reason: 'NodeAllocatableEnforced',
          message: 'Updated Node Allocatable limit across pods',
        },
        { type: 'Normal', reason: 'NodeReady', message: 'Node {{name}} status is now: NodeReady' },
      ],
      action: 'ready',
    },
  },
  {
    name: 'node-heartbeat',
    resource: 'Node',
    selector: [in_('registered', true), in_('ready', true)],
    delay: { ms: 10_000, since: 'lastHeartbeat' },
    next: { action: 'heartbeat' },
  },
];
