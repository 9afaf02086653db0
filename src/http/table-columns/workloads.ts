/**
 * Printers of the workload kinds: Deployment, ReplicaSet, StatefulSet,
 * DaemonSet, ControllerRevision (apps), Job and CronJob (batch),
 * HorizontalPodAutoscaler (autoscaling) and PodDisruptionBudget (policy).
 */

import type { Printer } from './printer';
import {
  age,
  ageColumn,
  arr,
  at,
  boolPtr,
  column,
  containerCells,
  formatLabels,
  formatSelector,
  humanDuration,
  int,
  nameColumn,
  rec,
  selectorString,
  since,
  str,
  type Obj,
} from './format';

const name = (o: Obj): string => str(at(o, 'metadata', 'name'));
const containers = column('Containers', 'string', 'Container names of the pod template.', 1);
const images = column('Images', 'string', 'Container images of the pod template.', 1);
const selector = column('Selector', 'string', 'Labels of the pods it manages.', 1);

function templateContainers(o: Obj, ...path: string[]): [string, string] {
  return containerCells(at(o, ...path, 'spec', 'containers'));
}

const deployment: Printer = {
  columns: [
    nameColumn,
    column('Ready', 'string', 'Ready replicas out of those wanted.'),
    column('Up-to-date', 'string', 'Replicas running the current template.'),
    column('Available', 'string', 'Replicas available to serve.'),
    ageColumn,
    containers,
    images,
    selector,
  ],
  cells(o, c) {
    const [names, imgs] = templateContainers(o, 'spec', 'template');
    return [
      name(o),
      `${int(at(o, 'status', 'readyReplicas'))}/${int(at(o, 'spec', 'replicas'))}`,
      int(at(o, 'status', 'updatedReplicas')),
      int(at(o, 'status', 'availableReplicas')),
      age(o, c.now),
      names,
      imgs,
      selectorString(at(o, 'spec', 'selector')),
    ];
  },
};

const replicaSet: Printer = {
  columns: [
    nameColumn,
    column('Desired', 'integer', 'Replicas wanted.'),
    column('Current', 'integer', 'Replicas that exist.'),
    column('Ready', 'integer', 'Replicas that are ready.'),
    ageColumn,
    containers,
    images,
    selector,
  ],
  cells(o, c) {
    const [names, imgs] = templateContainers(o, 'spec', 'template');
    return [
      name(o),
      int(at(o, 'spec', 'replicas')),
      int(at(o, 'status', 'replicas')),
      int(at(o, 'status', 'readyReplicas')),
      age(o, c.now),
      names,
      imgs,
      formatSelector(at(o, 'spec', 'selector')),
    ];
  },
};

const statefulSet: Printer = {
  columns: [
    nameColumn,
    column('Ready', 'string', 'Ready replicas out of those wanted.'),
    ageColumn,
    containers,
    images,
  ],
  cells(o, c) {
    const [names, imgs] = templateContainers(o, 'spec', 'template');
    return [
      name(o),
      `${int(at(o, 'status', 'readyReplicas'))}/${int(at(o, 'spec', 'replicas'))}`,
      age(o, c.now),
      names,
      imgs,
    ];
  },
};

const daemonSet: Printer = {
  columns: [
    nameColumn,
    column('Desired', 'integer', 'Nodes that should run the pod.'),
    column('Current', 'integer', 'Nodes that run the pod.'),
    column('Ready', 'integer', 'Nodes whose pod is ready.'),
    column('Up-to-date', 'integer', 'Nodes running the current template.'),
    column('Available', 'integer', 'Nodes whose pod is available.'),
    column('Node Selector', 'string', 'The node selector of the pod template.'),
    ageColumn,
    containers,
    images,
    selector,
  ],
  cells(o, c) {
    const s = rec(o.status);
    const [names, imgs] = templateContainers(o, 'spec', 'template');
    return [
      name(o),
      int(s.desiredNumberScheduled),
      int(s.currentNumberScheduled),
      int(s.numberReady),
      int(s.updatedNumberScheduled),
      int(s.numberAvailable),
      formatLabels(at(o, 'spec', 'template', 'spec', 'nodeSelector')),
      age(o, c.now),
      names,
      imgs,
      formatSelector(at(o, 'spec', 'selector')),
    ];
  },
};

const controllerRevision: Printer = {
  columns: [
    nameColumn,
    column('Controller', 'string', 'The controller that owns the revision.'),
    column('Revision', 'string', 'The revision number.'),
    ageColumn,
  ],
  cells(o, c) {
    const owner = arr(at(o, 'metadata', 'ownerReferences'))
      .map(rec)
      .find((r) => r.controller === true);
    let controller = '<none>';
    if (owner !== undefined) {
      const apiVersion = str(owner.apiVersion);
      const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
      controller = `${(group === '' ? str(owner.kind) : `${str(owner.kind)}.${group}`).toLowerCase()}/${str(owner.name)}`;
    }
    return [name(o), controller, int(o.revision), age(o, c.now)];
  },
};

const job: Printer = {
  columns: [
    nameColumn,
    column('Completions', 'string', 'Succeeded pods out of those wanted.'),
    column('Duration', 'string', 'How long the job ran (or has been running).'),
    ageColumn,
    containers,
    images,
    selector,
  ],
  cells(o, c) {
    const succeeded = int(at(o, 'status', 'succeeded'));
    const completions = at(o, 'spec', 'completions');
    const parallelism = int(at(o, 'spec', 'parallelism'));
    const done =
      typeof completions === 'number'
        ? `${succeeded}/${int(completions)}`
        : parallelism > 1
          ? `${succeeded}/1 of ${parallelism}`
          : `${succeeded}/1`;
    const start = Date.parse(str(at(o, 'status', 'startTime')));
    const end = Date.parse(str(at(o, 'status', 'completionTime')));
    const duration = !Number.isFinite(start)
      ? ''
      : humanDuration((Number.isFinite(end) ? end : c.now.getTime()) - start);
    const [names, imgs] = templateContainers(o, 'spec', 'template');
    return [name(o), done, duration, age(o, c.now), names, imgs, formatSelector(at(o, 'spec', 'selector'))];
  },
};

const cronJob: Printer = {
  columns: [
    nameColumn,
    column('Schedule', 'string', 'The cron schedule.'),
    column('Suspend', 'boolean', 'Whether new runs are suspended.'),
    column('Active', 'integer', 'Jobs running now.'),
    column('Last Schedule', 'string', 'When a job was last scheduled.'),
    ageColumn,
    containers,
    images,
    selector,
  ],
  cells(o, c) {
    const last = at(o, 'status', 'lastScheduleTime');
    const [names, imgs] = templateContainers(o, 'spec', 'jobTemplate', 'spec', 'template');
    return [
      name(o),
      str(at(o, 'spec', 'schedule')),
      boolPtr(at(o, 'spec', 'suspend')),
      arr(at(o, 'status', 'active')).length,
      last === undefined ? '<none>' : since(last, c.now),
      age(o, c.now),
      names,
      imgs,
      formatSelector(at(o, 'spec', 'jobTemplate', 'spec', 'selector')),
    ];
  },
};

/** Metric targets as `current/target` pairs (at most two, then `+ N more...`). */
function hpaTargets(o: Obj): string {
  const specs = arr(at(o, 'spec', 'metrics')).map(rec);
  const statuses = arr(at(o, 'status', 'currentMetrics')).map(rec);
  const legacy = at(o, 'spec', 'targetCPUUtilizationPercentage');
  if (specs.length === 0 && typeof legacy === 'number') {
    const cur = at(o, 'status', 'currentCPUUtilizationPercentage');
    return `${typeof cur === 'number' ? `${cur}%` : '<unknown>'}/${legacy}%`;
  }
  if (specs.length === 0) return '<none>';
  const list = specs.map((s, i) => {
    const type = str(s.type);
    const key = type.charAt(0).toLowerCase() + type.slice(1);
    const target = rec(rec(s[key]).target);
    const current = rec(rec(statuses[i]?.[key]).current);
    if (target.averageUtilization !== undefined) {
      const cur =
        current.averageUtilization !== undefined ? `${int(current.averageUtilization)}%` : '<unknown>';
      return `${cur}/${int(target.averageUtilization)}%`;
    }
    const field = target.averageValue !== undefined ? 'averageValue' : 'value';
    const suffix = field === 'averageValue' && type !== 'Pods' && type !== 'Resource' ? ' (avg)' : '';
    return `${str(current[field]) || '<unknown>'}/${str(target[field])}${suffix}`;
  });
  return list.length > 2 ? `${list.slice(0, 2).join(', ')} + ${list.length - 2} more...` : list.join(', ');
}

const horizontalPodAutoscaler: Printer = {
  columns: [
    nameColumn,
    column('Reference', 'string', 'The scaled workload.'),
    column('Targets', 'string', 'Current and target metric values.'),
    column('MinPods', 'string', 'Lower replica bound.'),
    column('MaxPods', 'string', 'Upper replica bound.'),
    column('Replicas', 'string', 'Current replicas.'),
    ageColumn,
  ],
  cells(o, c) {
    const ref = rec(at(o, 'spec', 'scaleTargetRef'));
    const min = at(o, 'spec', 'minReplicas');
    return [
      name(o),
      `${str(ref.kind)}/${str(ref.name)}`,
      hpaTargets(o),
      typeof min === 'number' ? String(min) : '<unset>',
      int(at(o, 'spec', 'maxReplicas')),
      int(at(o, 'status', 'currentReplicas')),
      age(o, c.now),
    ];
  },
};

const podDisruptionBudget: Printer = {
  columns: [
    nameColumn,
    column('Min Available', 'string', 'Pods that must stay available.'),
    column('Max Unavailable', 'string', 'Pods that may be unavailable.'),
    column('Allowed Disruptions', 'integer', 'Pods that may be disrupted now.'),
    ageColumn,
  ],
  cells(o, c) {
    const intOrString = (v: unknown): string => (v === undefined ? 'N/A' : str(v));
    return [
      name(o),
      intOrString(at(o, 'spec', 'minAvailable')),
      intOrString(at(o, 'spec', 'maxUnavailable')),
      int(at(o, 'status', 'disruptionsAllowed')),
      age(o, c.now),
    ];
  },
};

export const appsPrinters: Record<string, Printer> = {
  Deployment: deployment,
  ReplicaSet: replicaSet,
  StatefulSet: statefulSet,
  DaemonSet: daemonSet,
  ControllerRevision: controllerRevision,
};
export const batchPrinters: Record<string, Printer> = { Job: job, CronJob: cronJob };
export const autoscalingPrinters: Record<string, Printer> = {
  HorizontalPodAutoscaler: horizontalPodAutoscaler,
};
export const policyPrinters: Record<string, Printer> = { PodDisruptionBudget: podDisruptionBudget };
