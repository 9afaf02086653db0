/**
 * The lifecycle of a pod on a simulated node, as data (its containers'
 * own lifecycles are `container-stages.ts`): the node agent accepts a pod
 * bound to it and reports it Pending, creates its sandbox (the pod gets
 * its IP) after a short simulated while, fails it once its
 * `activeDeadlineSeconds` have passed on the server's clock, and once a
 * pod being deleted has no container left running, removes it for good.
 */

import type { Stage } from './stage';

export type PodAction = 'accept' | 'sandbox' | 'deadline' | 'remove';

const in_ = (key: string, ...values: (string | boolean)[]) => ({ key, operator: 'In' as const, values });

export const podStages: readonly Stage<PodAction>[] = [
  {
    // What runs has stopped (after the grace period at the latest): the kubelet deletes the pod with grace 0.
    name: 'pod-remove',
    resource: 'Pod',
    selector: [in_('deleting', true), in_('stopped', true)],
    next: { action: 'remove' },
  },
  {
    name: 'pod-accept',
    resource: 'Pod',
    selector: [in_('accepted', false), in_('deleting', false)],
    next: { state: 'accepted', action: 'accept' },
  },
  {
    name: 'pod-active-deadline',
    resource: 'Pod',
    selector: [
      in_('accepted', true),
      in_('terminal', false),
      in_('deleting', false),
      { key: 'activeDeadlineMs', operator: 'Exists' },
    ],
    delay: { msFrom: 'activeDeadlineMs', since: 'startTime' },
    next: {
      state: 'deadline-exceeded',
      events: [
        {
          type: 'Warning',
          reason: 'DeadlineExceeded',
          message: 'Pod was active on the node longer than the specified deadline',
        },
      ],
      action: 'deadline',
    },
  },
  {
    name: 'pod-sandbox',
    resource: 'Pod',
    selector: [
      in_('accepted', true),
      in_('sandboxReady', false),
      in_('deleting', false),
      in_('terminal', false),
      // A failed mount is tried again by the volume manager, not here.
      { key: 'mountError', operator: 'DoesNotExist' },
    ],
    delay: { ms: 300, jitterMs: 500, simulated: true },
    next: { state: 'sandbox-ready', action: 'sandbox' },
  },
];
