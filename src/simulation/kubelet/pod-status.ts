/**
 * A pod's status as the kubelet generates it from what it knows of its
 * containers (v1.27's `generateAPIPodStatus`): each container's state,
 * last state, readiness and restart count (regular containers sorted by
 * name, init containers in order); the phase (`getPhase`: Pending while
 * initializing or any container waits to start for the first time,
 * Running once they run, Succeeded or Failed when none runs or will run
 * again — and for a pod being deleted, once everything stopped); the
 * Initialized, Ready, ContainersReady and PodScheduled conditions with the
 * kubelet's reasons and messages, keeping the conditions others own
 * (DisruptionTarget, readiness gates). Pure: the golden stage tests call it.
 */

import type { ContainerStatus, Pod, PodCondition, PodStatus } from '../../api/pod';
import type { ContainerRecord, PodRecord } from './records';

const rfc3339 = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;

const kubeletConditions = new Set(['Initialized', 'Ready', 'ContainersReady', 'PodScheduled']);

function initDone(record: PodRecord): boolean {
  return record.containers
    .filter((c) => c.init)
    .every((c) => c.state === 'exited' && c.terminated?.exitCode === 0);
}

/** Whether the init containers still run, in order, before the regular ones. */
export function initializing(record: PodRecord): boolean {
  return !initDone(record);
}

export function containerStatus(c: ContainerRecord, podInitializing: boolean): ContainerStatus {
  const running = c.state === 'running' || c.state === 'stopping';
  const state: ContainerStatus['state'] = running
    ? { running: { startedAt: c.startedAt !== undefined ? rfc3339(c.startedAt) : null } }
    : c.state === 'exited' && c.terminated !== undefined
      ? { terminated: c.terminated }
      : {
          waiting: c.waiting ?? {
            reason: podInitializing && !c.init ? 'PodInitializing' : 'ContainerCreating',
          },
        };
  const pulled = c.imageID !== undefined;
  return {
    name: c.name,
    state,
    lastState: c.lastTerminated !== undefined ? { terminated: c.lastTerminated } : {},
    ready: running && c.ready,
    restartCount: c.restartCount,
    image: pulled && c.ref !== undefined ? c.ref.normalized : (c.spec.image ?? ''),
    imageID: c.imageID ?? '',
    ...(c.containerID !== undefined ? { containerID: `containerd://${c.containerID}` } : {}),
    started: running && c.started,
  };
}

type Phase = NonNullable<PodStatus['phase']>;

/** The kubelet's getPhase, for a pod whose containers are as recorded. */
export function podPhase(pod: Pod, record: PodRecord, deleting: boolean): Phase {
  const previous = pod.status?.phase;
  if (previous === 'Succeeded' || previous === 'Failed') return previous;
  if (record.failed !== undefined) return 'Failed';
  const policy = pod.spec?.restartPolicy ?? 'Always';
  const inits = record.containers.filter((c) => c.init);
  const failedInit = inits.some((c) => c.state === 'exited' && (c.terminated?.exitCode ?? 0) !== 0);
  if (failedInit && policy === 'Never') return 'Failed';
  if (!initDone(record)) return 'Pending';
  let running = 0;
  let waiting = 0;
  let stopped = 0;
  let succeeded = 0;
  for (const c of record.containers.filter((x) => !x.init)) {
    if (c.state === 'running' || c.state === 'stopping') running++;
    else if (c.state === 'exited' && c.terminated !== undefined) {
      stopped++;
      if (c.terminated.exitCode === 0) succeeded++;
    } else if (c.lastTerminated !== undefined) stopped++;
    else waiting++;
  }
  if (waiting > 0 && !(deleting && running === 0)) return 'Pending';
  if (running > 0) return 'Running';
  if (stopped > 0) {
    // A pod being deleted whose containers all stopped is terminal (v1.27).
    if (deleting) return stopped === succeeded ? 'Succeeded' : 'Failed';
    if (policy === 'Always') return 'Running';
    if (stopped === succeeded) return 'Succeeded';
    if (policy === 'Never') return 'Failed';
    return 'Running';
  }
  return deleting ? 'Failed' : 'Pending';
}

function condition(
  old: PodCondition[] | undefined,
  type: string,
  status: 'True' | 'False',
  now: number,
  reason?: string,
  message?: string,
): PodCondition {
  const before = old?.find((c) => c.type === type);
  return {
    type,
    status,
    lastProbeTime: null,
    lastTransitionTime:
      before !== undefined && before.status === status ? (before.lastTransitionTime ?? null) : rfc3339(now),
    ...(reason !== undefined ? { reason } : {}),
    ...(message !== undefined ? { message } : {}),
  };
}

/**
 * The pod as the status is made from: the kubelet's own conditions and a terminal phase from the status it
 * made last (its status manager's cache, when it has one), the conditions others own (readiness gates,
 * DisruptionTarget) from the pod the API shows.
 */
export function withCachedStatus(pod: Pod, cached: PodStatus | undefined): Pod {
  if (cached === undefined) return pod;
  const own = (cached.conditions ?? []).filter((c) => kubeletConditions.has(c.type));
  const others = (pod.status?.conditions ?? []).filter((c) => !kubeletConditions.has(c.type));
  const terminal = cached.phase === 'Succeeded' || cached.phase === 'Failed';
  return {
    ...pod,
    status: {
      ...pod.status,
      ...(terminal ? { phase: cached.phase } : {}),
      conditions: [...own, ...others],
    },
  };
}

/** The status the kubelet writes for the pod now. */
export function generatePodStatus(pod: Pod, record: PodRecord, now: number, hostIP: string): PodStatus {
  const deleting = pod.metadata?.deletionTimestamp !== undefined && pod.metadata.deletionTimestamp !== null;
  const phase = podPhase(pod, record, deleting);
  const init = initializing(record);
  const old = pod.status?.conditions;
  const regular = record.containers.filter((c) => !c.init);
  const inits = record.containers.filter((c) => c.init);
  const completed = phase === 'Succeeded';

  const incomplete = inits
    .filter((c) => !(c.state === 'exited' && c.terminated?.exitCode === 0))
    .map((c) => c.name);
  const initialized = completed
    ? condition(old, 'Initialized', 'True', now, 'PodCompleted')
    : incomplete.length === 0
      ? condition(old, 'Initialized', 'True', now)
      : condition(
          old,
          'Initialized',
          'False',
          now,
          'ContainersNotInitialized',
          `containers with incomplete status: [${incomplete.join(' ')}]`,
        );
  const unready = regular
    .filter((c) => !((c.state === 'running' || c.state === 'stopping') && c.ready))
    .map((c) => c.name);
  const containersReady = completed
    ? condition(old, 'ContainersReady', 'False', now, 'PodCompleted')
    : unready.length === 0 && phase === 'Running'
      ? condition(old, 'ContainersReady', 'True', now)
      : condition(
          old,
          'ContainersReady',
          'False',
          now,
          'ContainersNotReady',
          `containers with unready status: [${unready.join(' ')}]`,
        );
  const gates = (pod.spec?.readinessGates ?? []).map((g) => g.conditionType);
  const gateMissing = gates.filter((g) => old?.find((c) => c.type === g)?.status !== 'True');
  const ready =
    containersReady.status === 'True' && gateMissing.length > 0
      ? condition(
          old,
          'Ready',
          'False',
          now,
          'ReadinessGatesNotReady',
          gateMissing
            .map((g) => `corresponding condition of pod readiness gate "${g}" does not exist.`)
            .join(', '),
        )
      : condition(
          old,
          'Ready',
          containersReady.status === 'True' ? 'True' : 'False',
          now,
          containersReady.reason,
          containersReady.message,
        );
  const scheduled =
    old?.find((c) => c.type === 'PodScheduled') ?? condition(old, 'PodScheduled', 'True', now);
  const others = (old ?? []).filter((c) => !kubeletConditions.has(c.type));

  const podIP = record.podIP;
  const status: PodStatus = {
    phase,
    conditions: [initialized, ready, containersReady, scheduled, ...others],
    ...(record.failed !== undefined ? { message: record.failed.message, reason: record.failed.reason } : {}),
    hostIP,
    ...(podIP !== undefined ? { podIP, podIPs: [{ ip: podIP }] } : {}),
    startTime: record.startTime !== undefined ? rfc3339(record.startTime) : null,
    ...(inits.length > 0 ? { initContainerStatuses: inits.map((c) => containerStatus(c, init)) } : {}),
    containerStatuses: regular
      .map((c) => containerStatus(c, init))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    ...(pod.status?.qosClass !== undefined ? { qosClass: pod.status.qosClass } : {}),
  };
  return status;
}
