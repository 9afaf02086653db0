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

/** `contextFor(account)` gives the context of the controller that runs as service account `account`. */
export function workloadControllers(
  contextFor: (account: string) => ControllerContext,
  informerClient: ApiClient,
): Controller[] {
  const informers = new SharedInformers(informerClient);
  return [
    deploymentController(contextFor('deployment-controller'), informers),
    replicaSetController(contextFor('replicaset-controller'), informers),
    replicationController(contextFor('replication-controller'), informers),
    statefulSetController(contextFor('statefulset-controller'), informers),
    daemonSetController(contextFor('daemon-set-controller'), informers),
    jobController(contextFor('job-controller'), informers),
    cronJobController(contextFor('cronjob-controller'), informers),
    ttlAfterFinishedController(contextFor('ttl-after-finished-controller'), informers),
    endpointsController(contextFor('endpoint-controller'), informers),
    endpointSliceController(contextFor('endpointslice-controller'), informers),
    disruptionController(contextFor('disruption-controller'), informers),
    persistentVolumeBinder(contextFor('persistent-volume-binder'), informers),
    horizontalPodAutoscaler(contextFor('horizontal-pod-autoscaler'), informers),
    informers,
  ];
}
