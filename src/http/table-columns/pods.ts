/**
 * Printers of pods and what makes them: Pod (readiness, the status reason
 * kubectl users know, restarts with the age of the last one),
 * PodTemplate and ReplicationController.
 */

import type { Printer } from './printer';
import {
  age,
  ageColumn,
  arr,
  at,
  column,
  containerCells,
  formatLabels,
  int,
  nameColumn,
  orNone,
  rec,
  since,
  str,
  type Obj,
} from './format';

const name = (o: Obj): string => str(at(o, 'metadata', 'name'));
const wideContainers = [
  column('Containers', 'string', 'Container names of the pod template.', 1),
  column('Images', 'string', 'Container images of the pod template.', 1),
];

function podStatus(pod: Obj): { reason: string; ready: number; restarts: number; lastRestart: number } {
  const spec = rec(pod.spec);
  const status = rec(pod.status);
  let reason = str(status.reason) || str(status.phase);
  let restarts = 0;
  let ready = 0;
  let lastRestart = 0;
  const noteRestart = (c: Obj): void => {
    const finished = Date.parse(str(at(c, 'lastState', 'terminated', 'finishedAt')));
    if (Number.isFinite(finished) && finished > lastRestart) lastRestart = finished;
  };
  let initializing = false;
  const inits = arr(status.initContainerStatuses).map(rec);
  for (let i = 0; i < inits.length; i++) {
    const c = inits[i] ?? {};
    restarts += int(c.restartCount);
    noteRestart(c);
    const terminated = rec(at(c, 'state', 'terminated'));
    const waiting = rec(at(c, 'state', 'waiting'));
    const hasTerminated = at(c, 'state', 'terminated') !== undefined;
    if (hasTerminated && int(terminated.exitCode) === 0) continue;
    if (hasTerminated) {
      const r = str(terminated.reason);
      if (r !== '') reason = `Init:${r}`;
      else
        reason =
          int(terminated.signal) !== 0
            ? `Init:Signal:${int(terminated.signal)}`
            : `Init:ExitCode:${int(terminated.exitCode)}`;
    } else if (str(waiting.reason) !== '' && str(waiting.reason) !== 'PodInitializing')
      reason = `Init:${str(waiting.reason)}`;
    else reason = `Init:${i}/${arr(spec.initContainers).length}`;
    initializing = true;
    break;
  }
  if (!initializing) {
    restarts = 0;
    let hasRunning = false;
    const statuses = arr(status.containerStatuses).map(rec);
    for (let i = statuses.length - 1; i >= 0; i--) {
      const c = statuses[i] ?? {};
      restarts += int(c.restartCount);
      noteRestart(c);
      const waiting = str(at(c, 'state', 'waiting', 'reason'));
      const hasTerminated = at(c, 'state', 'terminated') !== undefined;
      const terminated = rec(at(c, 'state', 'terminated'));
      if (waiting !== '') reason = waiting;
      else if (hasTerminated && str(terminated.reason) !== '') reason = str(terminated.reason);
      else if (hasTerminated)
        reason =
          int(terminated.signal) !== 0
            ? `Signal:${int(terminated.signal)}`
            : `ExitCode:${int(terminated.exitCode)}`;
      else if (c.ready === true && at(c, 'state', 'running') !== undefined) {
        hasRunning = true;
        ready++;
      }
    }
    if (reason === 'Completed' && hasRunning) {
      const podReady = arr(status.conditions).some(
        (c) => str(rec(c).type) === 'Ready' && str(rec(c).status) === 'True',
      );
      reason = podReady ? 'Running' : 'NotReady';
    }
  }
  if (at(pod, 'metadata', 'deletionTimestamp') !== undefined)
    reason = str(status.reason) === 'NodeLost' ? 'Unknown' : 'Terminating';
  return { reason, ready, restarts, lastRestart };
}

const pod: Printer = {
  columns: [
    nameColumn,
    column('Ready', 'string', 'Ready containers out of all containers.'),
    column('Status', 'string', 'The pod phase, or why it is not running yet.'),
    column('Restarts', 'string', 'Container restarts, and how long ago the last one was.'),
    ageColumn,
    column('IP', 'string', 'The pod IP address.', 1),
    column('Node', 'string', 'The node the pod is bound to.', 1),
    column('Nominated Node', 'string', 'The node the scheduler nominated for preemption.', 1),
    column('Readiness Gates', 'string', 'Readiness gates that are met, out of all.', 1),
  ],
  cells(o, c) {
    const s = podStatus(o);
    const total = arr(at(o, 'spec', 'containers')).length;
    const restarts =
      s.lastRestart > 0
        ? `${s.restarts} (${since(new Date(s.lastRestart).toISOString(), c.now)} ago)`
        : String(s.restarts);
    const gates = arr(at(o, 'spec', 'readinessGates')).map((g) => str(rec(g).conditionType));
    const conditions = arr(at(o, 'status', 'conditions')).map(rec);
    const met = gates.filter((g) => conditions.find((x) => str(x.type) === g)?.status === 'True').length;
    return [
      name(o),
      `${s.ready}/${total}`,
      s.reason,
      restarts,
      age(o, c.now),
      orNone(str(rec(arr(at(o, 'status', 'podIPs'))[0]).ip)),
      orNone(str(at(o, 'spec', 'nodeName'))),
      orNone(str(at(o, 'status', 'nominatedNodeName'))),
      gates.length === 0 ? '<none>' : `${met}/${gates.length}`,
    ];
  },
  conditions(o) {
    const phase = str(at(o, 'status', 'phase'));
    if (phase === 'Succeeded')
      return [
        {
          type: 'Completed',
          status: 'True',
          reason: 'Succeeded',
          message: 'All containers of the pod finished successfully.',
        },
      ];
    if (phase === 'Failed')
      return [
        { type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod terminated in failure.' },
      ];
    return undefined;
  },
};

const podTemplate: Printer = {
  columns: [
    nameColumn,
    column('Containers', 'string', 'Container names of the template.'),
    column('Images', 'string', 'Container images of the template.'),
    column('Pod Labels', 'string', 'Labels of the pods made from the template.'),
  ],
  cells(o) {
    const [names, images] = containerCells(at(o, 'template', 'spec', 'containers'));
    return [name(o), names, images, formatLabels(at(o, 'template', 'metadata', 'labels'))];
  },
};

const replicationController: Printer = {
  columns: [
    nameColumn,
    column('Desired', 'integer', 'Replicas wanted.'),
    column('Current', 'integer', 'Replicas that exist.'),
    column('Ready', 'integer', 'Replicas that are ready.'),
    ageColumn,
    ...wideContainers,
    column('Selector', 'string', 'Labels of the pods it manages.', 1),
  ],
  cells(o, c) {
    const [names, images] = containerCells(at(o, 'spec', 'template', 'spec', 'containers'));
    return [
      name(o),
      int(at(o, 'spec', 'replicas')),
      int(at(o, 'status', 'replicas')),
      int(at(o, 'status', 'readyReplicas')),
      age(o, c.now),
      names,
      images,
      formatLabels(at(o, 'spec', 'selector')),
    ];
  },
};

export const podPrinters: Record<string, Printer> = {
  Pod: pod,
  PodTemplate: podTemplate,
  ReplicationController: replicationController,
};
