/**
 * The lifecycle of a container on a simulated node, as data: from `new`
 * through the image pull (or its failure and back-off), creation and
 * start, to running; an exit and, as the restart policy says, a restart
 * (at once the first time, then after the kubelet's crash-loop back-off);
 * and stopping when the pod goes away. Each stage names the Events the
 * kubelet writes, with its texts. The view a stage reads is built by the
 * node agent (`kubelet/container-view.ts`): its `state`, facts of the
 * runtime (the pull's outcome, the process's exit) and computed back-offs.
 */

import type { Stage } from './stage';

/** What the node agent does when a container stage applies. */
export type ContainerAction = 'pull' | 'imagePulled' | 'create' | 'start' | 'stop' | 'restart';

const in_ = (key: string, ...values: (string | boolean | number)[]) => ({
  key,
  operator: 'In' as const,
  values,
});
const exists = (key: string) => ({ key, operator: 'Exists' as const });
const absent = (key: string) => ({ key, operator: 'DoesNotExist' as const });

export const containerStages: readonly Stage<ContainerAction>[] = [
  {
    name: 'container-stop',
    resource: 'Container',
    selector: [in_('podStopping', true), in_('state', 'running')],
    next: {
      state: 'stopping',
      events: [{ type: 'Normal', reason: 'Killing', message: 'Stopping container {{name}}' }],
      action: 'stop',
    },
  },
  {
    // A container that never started has nothing to stop: it stays as it is while the pod goes.
    name: 'container-abandon',
    resource: 'Container',
    selector: [
      in_('podStopping', true),
      { key: 'state', operator: 'NotIn', values: ['running', 'stopping', 'exited', 'abandoned'] },
    ],
    next: { state: 'abandoned' },
  },
  {
    name: 'image-never-pull',
    resource: 'Container',
    selector: [
      in_('state', 'new'),
      in_('mayStart', true),
      in_('pullPolicy', 'Never'),
      in_('imagePresent', false),
    ],
    next: {
      state: 'never-pull',
      waiting: {
        reason: 'ErrImageNeverPull',
        message: 'Container image "{{image}}" is not present with pull policy of Never',
      },
      events: [
        {
          type: 'Warning',
          reason: 'ErrImageNeverPull',
          message: 'Container image "{{image}}" is not present with pull policy of Never',
        },
        { type: 'Warning', reason: 'Failed', message: 'Error: ErrImageNeverPull' },
      ],
    },
  },
  {
    name: 'image-present',
    resource: 'Container',
    selector: [in_('state', 'new'), in_('mayStart', true), in_('pullNeeded', false)],
    next: {
      state: 'image-ready',
      events: [
        {
          type: 'Normal',
          reason: 'Pulled',
          message: 'Container image "{{image}}" already present on machine',
        },
      ],
    },
  },
  {
    name: 'image-pull',
    resource: 'Container',
    selector: [in_('state', 'new'), in_('mayStart', true), in_('pullNeeded', true)],
    next: {
      state: 'pulling',
      events: [{ type: 'Normal', reason: 'Pulling', message: 'Pulling image "{{image}}"' }],
      action: 'pull',
    },
  },
  {
    name: 'image-pulled',
    resource: 'Container',
    selector: [in_('state', 'pulling'), in_('pull.ok', true)],
    delay: { msFrom: 'pull.ms', simulated: true },
    next: {
      state: 'image-ready',
      events: [
        {
          type: 'Normal',
          reason: 'Pulled',
          message:
            'Successfully pulled image "{{image}}" in {{pull.duration}} ({{pull.duration}} including waiting)',
        },
      ],
      action: 'imagePulled',
    },
  },
  {
    name: 'image-pull-failed',
    resource: 'Container',
    selector: [in_('state', 'pulling'), in_('pull.ok', false)],
    delay: { ms: 600, jitterMs: 600, simulated: true },
    next: {
      state: 'pull-failed',
      waiting: { reason: 'ErrImagePull', message: '{{pull.error}}' },
      events: [
        { type: 'Warning', reason: 'Failed', message: 'Failed to pull image "{{image}}": {{pull.error}}' },
        { type: 'Warning', reason: 'Failed', message: 'Error: ErrImagePull' },
      ],
    },
  },
  {
    name: 'image-pull-backoff',
    resource: 'Container',
    selector: [in_('state', 'pull-failed')],
    delay: { ms: 1000, jitterMs: 500, simulated: true },
    next: {
      state: 'pull-backoff',
      waiting: { reason: 'ImagePullBackOff', message: 'Back-off pulling image "{{image}}"' },
      events: [
        { type: 'Normal', reason: 'BackOff', message: 'Back-off pulling image "{{image}}"' },
        { type: 'Warning', reason: 'Failed', message: 'Error: ImagePullBackOff' },
      ],
    },
  },
  {
    // The image back-off runs on the server's clock: moving it forward retries the pull.
    name: 'image-pull-retry',
    resource: 'Container',
    selector: [in_('state', 'pull-backoff')],
    delay: { msFrom: 'imageBackoffMs', since: 'pullFailedAt' },
    next: {
      state: 'pulling',
      events: [{ type: 'Normal', reason: 'Pulling', message: 'Pulling image "{{image}}"' }],
      action: 'pull',
    },
  },
  {
    name: 'container-config-error',
    resource: 'Container',
    selector: [in_('state', 'image-ready'), exists('configError')],
    next: {
      state: 'config-error',
      waiting: { reason: 'CreateContainerConfigError', message: '{{configError}}' },
      events: [{ type: 'Warning', reason: 'Failed', message: 'Error: {{configError}}' }],
    },
  },
  {
    // The kubelet tries again on its next sync of the pod (a ConfigMap created meanwhile is found then).
    name: 'container-config-retry',
    resource: 'Container',
    selector: [in_('state', 'config-error')],
    delay: { ms: 10_000 },
    next: { state: 'image-ready' },
  },
  {
    // Created once its environment, command and mounts are resolved (`prepared`).
    name: 'container-create',
    resource: 'Container',
    selector: [in_('state', 'image-ready'), absent('configError'), in_('prepared', true)],
    delay: { ms: 100, jitterMs: 200, simulated: true },
    next: {
      state: 'created',
      events: [{ type: 'Normal', reason: 'Created', message: 'Created container {{name}}' }],
      action: 'create',
    },
  },
  {
    name: 'container-start-failed',
    resource: 'Container',
    selector: [in_('state', 'created'), exists('startError')],
    next: {
      state: 'exited',
      events: [{ type: 'Warning', reason: 'Failed', message: 'Error: {{startError}}' }],
    },
  },
  {
    name: 'container-start',
    resource: 'Container',
    selector: [in_('state', 'created'), absent('startError')],
    delay: { ms: 50, jitterMs: 100, simulated: true },
    next: {
      state: 'running',
      events: [{ type: 'Normal', reason: 'Started', message: 'Started container {{name}}' }],
      action: 'start',
    },
  },
  {
    name: 'container-exit',
    resource: 'Container',
    selector: [in_('state', 'running', 'stopping'), in_('exited', true)],
    next: { state: 'exited' },
  },
  {
    // The first restart is at once; the kubelet's back-off starts with the second.
    name: 'container-restart',
    resource: 'Container',
    selector: [in_('state', 'exited'), in_('restart', true), in_('crashBackoffMs', 0)],
    next: { state: 'new', action: 'restart' },
  },
  {
    name: 'container-crash-loop',
    resource: 'Container',
    selector: [
      in_('state', 'exited'),
      in_('restart', true),
      { key: 'crashBackoffMs', operator: 'NotIn', values: [0] },
    ],
    next: {
      state: 'crash-backoff',
      waiting: {
        reason: 'CrashLoopBackOff',
        message:
          'back-off {{crashBackoff}} restarting failed container={{name}} pod={{podName}}_{{podNamespace}}({{podUID}})',
      },
      events: [
        {
          type: 'Warning',
          reason: 'BackOff',
          message:
            'Back-off restarting failed container {{name}} in pod {{podName}}_{{podNamespace}}({{podUID}})',
        },
      ],
    },
  },
  {
    // The crash-loop back-off counts from when the container finished, on the server's clock.
    name: 'container-crash-loop-over',
    resource: 'Container',
    selector: [in_('state', 'crash-backoff')],
    delay: { msFrom: 'crashBackoffMs', since: 'finishedAt' },
    next: { state: 'new', action: 'restart' },
  },
];
