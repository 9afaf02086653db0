/**
 * A pod record rebuilt from the status a node agent wrote before it
 * stopped (the browser's worker sleeps and wakes; a host restarts on its
 * saved state): the pod's start time and IP, and each container's state,
 * restart count and last termination, so that back-offs continue where
 * they were and running containers are resumed (their programs replay
 * from `startedAt`) rather than started again.
 */

import type { ContainerStatus, Pod } from '../../api/pod';
import { normalizeImage } from '../containers/images';
import { newContainerRecord, type ContainerRecord, type PodRecord } from './records';

/** Whether this node's agent had accepted the pod (it wrote a start time). */
export function wasAccepted(pod: Pod): boolean {
  return (pod.status?.startTime ?? null) !== null && pod.status?.startTime !== undefined;
}

function containerRecord(
  spec: NonNullable<Pod['spec']>['containers'][number],
  init: boolean,
  status: ContainerStatus | undefined,
  now: number,
): ContainerRecord {
  const c = newContainerRecord(spec, init);
  if (status === undefined) return c;
  c.restartCount = status.restartCount ?? 0;
  const id = (status.containerID ?? '').replace(/^[a-z]+:\/\//, '');
  if (status.imageID !== undefined && status.imageID !== '') {
    c.imageID = status.imageID;
    c.ref = normalizeImage(spec.image ?? '');
  }
  const s = status.state ?? {};
  const last = status.lastState?.terminated;
  if (s.running !== undefined) {
    c.state = 'running';
    c.startedAt = Date.parse(s.running.startedAt ?? '') || now;
    if (id !== '') c.containerID = id;
    if (last !== undefined) c.lastTerminated = last;
    c.ready = status.ready;
    c.started = status.started ?? true;
  } else if (s.terminated !== undefined) {
    c.state = 'exited';
    c.terminated = s.terminated;
    if (last !== undefined) c.lastTerminated = last;
    c.startedAt = Date.parse(s.terminated.startedAt ?? '') || undefined;
  } else {
    const reason = s.waiting?.reason ?? '';
    if (reason === 'CrashLoopBackOff' && last !== undefined) {
      c.state = 'crash-backoff';
      c.terminated = last;
      c.waiting = { reason, ...(s.waiting?.message !== undefined ? { message: s.waiting.message } : {}) };
    } else if (reason === 'ErrImagePull' || reason === 'ImagePullBackOff') {
      c.state = 'pull-backoff';
      c.pullFailures = 1;
      c.pullFailedAt = now;
      c.waiting = {
        reason: 'ImagePullBackOff',
        ...(s.waiting?.message !== undefined ? { message: s.waiting.message } : {}),
      };
      if (last !== undefined) c.lastTerminated = last;
    } else {
      if (last !== undefined) c.lastTerminated = last;
    }
  }
  return c;
}

export function restoreRecord(pod: Pod, now: number): PodRecord {
  const spec = pod.spec ?? { containers: [] };
  const status = pod.status ?? {};
  const byName = (list: ContainerStatus[] | undefined, name: string) => list?.find((s) => s.name === name);
  const podIP = status.podIP;
  return {
    uid: pod.metadata?.uid ?? '',
    namespace: pod.metadata?.namespace ?? '',
    name: pod.metadata?.name ?? '',
    state: 'accepted',
    sandboxReady: podIP !== undefined && podIP !== '',
    ...(podIP !== undefined && podIP !== '' ? { podIP } : {}),
    startTime: Date.parse(status.startTime ?? '') || now,
    ...(status.reason === 'DeadlineExceeded'
      ? { failed: { reason: 'DeadlineExceeded', message: status.message ?? '' } }
      : {}),
    containers: [
      ...(spec.initContainers ?? []).map((c) =>
        containerRecord(c, true, byName(status.initContainerStatuses, c.name), now),
      ),
      ...spec.containers.map((c) => containerRecord(c, false, byName(status.containerStatuses, c.name), now)),
    ],
  };
}
