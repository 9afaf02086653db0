/**
 * The controller manager's workload controllers, built together over one
 * set of shared informers: each controller acts as its own service account
 * (`system:serviceaccount:<system>:<name>`, bound to the real
 * `system:controller:<name>` role), while the informers list and watch
 * with the controller manager's credentials. The informer factory comes
 * last in the list, so it starts once every controller has added its
 * handlers.
 */

import type { ApiClient } from '../client/client';
import { cronJobController } from './cron-job';
import { daemonSetController } from './daemon-set';
import { deploymentController } from './deployment/index';
import { disruptionController } from './disruption';
import { endpointSliceController } from './endpoint-slice';
import { endpointsController } from './endpoints';
import { horizontalPodAutoscaler } from './horizontal-pod-autoscaler';
import { jobController } from './job';
import { persistentVolumeBinder } from './persistent-volume-binder';
import { replicaSetController, replicationController } from './replica-set';
import { SharedInformers } from './shared-informers';
import { statefulSetController } from './stateful-set';
import { ttlAfterFinishedController } from './ttl-after-finished';
import type { Controller, ControllerContext } from './types';

/**
 * Whether `--controllers` (`selection`) enables the controller `name`: named, or `*` without `-name`.
 */
export function controllerEnabled(selection: readonly string[], name: string): boolean {
  if (selection.includes(name)) return true;
  if (selection.includes(`-${name}`)) return false;
  return selection.includes('*');
}

/**
 * `contextFor(account)` gives the context of the controller that runs as service account `account`;
 * `selection` is the controller manager's `--controllers` (default every controller).
 */
export function workloadControllers(
  contextFor: (account: string) => ControllerContext,
  informerClient: ApiClient,
  selection: readonly string[] = ['*'],
): Controller[] {
  const informers = new SharedInformers(informerClient);
  // By the controller manager's controller names; a controller is built only when enabled, since building one
  // adds its handlers to the shared informers.
  const all: [string, () => Controller][] = [
    ['deployment', () => deploymentController(contextFor('deployment-controller'), informers)],
    ['replicaset', () => replicaSetController(contextFor('replicaset-controller'), informers)],
    ['replicationcontroller', () => replicationController(contextFor('replication-controller'), informers)],
    ['statefulset', () => statefulSetController(contextFor('statefulset-controller'), informers)],
    ['daemonset', () => daemonSetController(contextFor('daemon-set-controller'), informers)],
    ['job', () => jobController(contextFor('job-controller'), informers)],
    ['cronjob', () => cronJobController(contextFor('cronjob-controller'), informers)],
    [
      'ttl-after-finished',
      () => ttlAfterFinishedController(contextFor('ttl-after-finished-controller'), informers),
    ],
    ['endpoint', () => endpointsController(contextFor('endpoint-controller'), informers)],
    ['endpointslice', () => endpointSliceController(contextFor('endpointslice-controller'), informers)],
    ['disruption', () => disruptionController(contextFor('disruption-controller'), informers)],
    [
      'persistentvolume-binder',
      () => persistentVolumeBinder(contextFor('persistent-volume-binder'), informers),
    ],
    [
      'horizontalpodautoscaling',
      () => horizontalPodAutoscaler(contextFor('horizontal-pod-autoscaler'), informers),
    ],
  ];
  return [
    ...all.filter(([name]) => controllerEnabled(selection, name)).map(([, build]) => build()),
    informers,
  ];
}
