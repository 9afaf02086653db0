/**
 * apps/v1 defaults: replicas 1 and a revision history of 10 for the
 * workloads; a Deployment rolls 25%/25% with a 600 s progress deadline; a
 * DaemonSet rolls one pod at a time without surge; a StatefulSet is
 * OrderedReady, rolls from partition 0 and retains its claims.
 */

import { child, maybe, ptr, str, type Defaulter } from './helpers';

const deployment: Defaulter = (obj) => {
  const spec = child(obj, 'spec');
  ptr(spec, 'replicas', 1);
  const strategy = child(spec, 'strategy');
  str(strategy, 'type', 'RollingUpdate');
  if (strategy.type === 'RollingUpdate') {
    const rolling = child(strategy, 'rollingUpdate');
    ptr(rolling, 'maxUnavailable', '25%');
    ptr(rolling, 'maxSurge', '25%');
  }
  ptr(spec, 'revisionHistoryLimit', 10);
  ptr(spec, 'progressDeadlineSeconds', 600);
};

const daemonSet: Defaulter = (obj) => {
  const spec = child(obj, 'spec');
  const strategy = child(spec, 'updateStrategy');
  str(strategy, 'type', 'RollingUpdate');
  if (strategy.type === 'RollingUpdate') {
    const rolling = child(strategy, 'rollingUpdate');
    ptr(rolling, 'maxUnavailable', 1);
    ptr(rolling, 'maxSurge', 0);
  }
  ptr(spec, 'revisionHistoryLimit', 10);
};

const statefulSet: Defaulter = (obj, ctx) => {
  const spec = child(obj, 'spec');
  str(spec, 'podManagementPolicy', 'OrderedReady');
  const strategy = child(spec, 'updateStrategy');
  if (strategy.type === undefined || strategy.type === null || strategy.type === '') {
    strategy.type = 'RollingUpdate';
    ptr(strategy, 'rollingUpdate', {});
  }
  // Only a rollingUpdate that exists gets a partition: `type: RollingUpdate` alone stays as sent.
  const rolling = maybe(strategy, 'rollingUpdate');
  if (strategy.type === 'RollingUpdate' && rolling !== undefined) {
    ptr(rolling, 'partition', 0);
    if (ctx.gate('MaxUnavailableStatefulSet')) ptr(rolling, 'maxUnavailable', 1);
  }
  if (ctx.gate('StatefulSetAutoDeletePVC')) {
    const retention = child(spec, 'persistentVolumeClaimRetentionPolicy');
    str(retention, 'whenDeleted', 'Retain');
    str(retention, 'whenScaled', 'Retain');
  }
  ptr(spec, 'replicas', 1);
  ptr(spec, 'revisionHistoryLimit', 10);
};

export const appsDefaults: Record<string, Defaulter> = {
  'api.apps.v1.Deployment': deployment,
  'api.apps.v1.ReplicaSet': (obj) => ptr(child(obj, 'spec'), 'replicas', 1),
  'api.apps.v1.DaemonSet': daemonSet,
  'api.apps.v1.StatefulSet': statefulSet,
};
