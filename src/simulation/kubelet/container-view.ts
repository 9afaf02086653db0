/**
 * The views the stages read (`stages/*-stages.ts`), built from what the
 * node agent knows: for a container, its lifecycle state, whether it may
 * start (the sandbox is up, the init containers before it are done, the
 * pod is not going away), the image pull policy and whether the node has
 * the image, the pull's outcome, the process's exit and whether the
 * restart policy restarts it, with the kubelet's back-offs (image pulls
 * and crash loops: 10 s doubling to 5 min); for a pod, whether it was
 * accepted, has its sandbox, is being deleted and has stopped.
 */

import type { Pod } from '../../api/pod';
import { formatGoDuration } from '../../machinery/go-duration';
import { normalizeImage } from '../containers/images';
import type { ContainerRecord, PodRecord } from './records';

const initialBackoffMs = 10_000;
const maxBackoffMs = 300_000;

/** The kubelet's back-off after `failures` failures in a row: 0 for none, then 10 s doubling to 5 min. */
export function backoffMs(failures: number): number {
  if (failures <= 0) return 0;
  return Math.min(initialBackoffMs * 2 ** (failures - 1), maxBackoffMs);
}

/** The pull policy a container gets by default: Always for `:latest` or no tag, else IfNotPresent. */
export function pullPolicy(image: string, declared: string | undefined): string {
  if (declared !== undefined && declared !== '') return declared;
  const ref = normalizeImage(image);
  return ref.tag === 'latest' ? 'Always' : 'IfNotPresent';
}

/** Go's duration text with nanoseconds (`2.154302813s`, `543.210987ms`), as the Pulled event prints it. */
export function preciseDuration(ms: number): string {
  const nanos = Math.round(ms * 1e6);
  if (nanos < 1e9) return `${(nanos / 1e6).toFixed(6).replace(/\.?0+$/, '')}ms`;
  if (nanos < 60e9) return `${(nanos / 1e9).toFixed(9).replace(/\.?0+$/, '')}s`;
  return formatGoDuration(Math.round(ms));
}

/** Whether the restart policy restarts a container that exited with `exitCode`. */
export function restarts(policy: string | undefined, init: boolean, exitCode: number): boolean {
  const p = policy ?? 'Always';
  if (init) return exitCode !== 0 && p !== 'Never';
  return p === 'Always' || (p === 'OnFailure' && exitCode !== 0);
}

const isDeleting = (pod: Pod) =>
  pod.metadata?.deletionTimestamp !== undefined && pod.metadata.deletionTimestamp !== null;
const isTerminal = (pod: Pod) => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';

export interface ContainerViewInputs {
  pod: Pod;
  record: PodRecord;
  container: ContainerRecord;
  /** The images the node has (normalized references). */
  nodeImages: ReadonlySet<string>;
  /** The crash-loop back-off streak of this container (restarts with a back-off since it last ran long). */
  crashStreak: number;
}

export function containerView(i: ContainerViewInputs): Record<string, unknown> {
  const { pod, record, container: c } = i;
  const stopping =
    isDeleting(pod) || record.failed !== undefined || (isTerminal(pod) && c.state !== 'exited');
  const index = record.containers.indexOf(c);
  const before = record.containers.slice(0, index).filter((x) => x.init);
  const initsDone = record.containers
    .filter((x) => x.init)
    .every((x) => x.state === 'exited' && x.terminated?.exitCode === 0);
  const turn = c.init ? before.every((x) => x.state === 'exited' && x.terminated?.exitCode === 0) : initsDone;
  const image = c.spec.image ?? '';
  const policy = pullPolicy(image, c.spec.imagePullPolicy);
  const present = i.nodeImages.has(normalizeImage(image).normalized);
  const exit = c.process?.exit;
  const terminated = c.terminated;
  const exitCode = terminated?.exitCode ?? exit?.exitCode ?? 0;
  const finished = terminated?.finishedAt ?? null;
  const backoff = backoffMs(i.crashStreak);
  return {
    name: c.name,
    image,
    state: c.state,
    podName: record.name,
    podNamespace: record.namespace,
    podUID: record.uid,
    podStopping: stopping,
    mayStart: record.sandboxReady && turn && !stopping,
    pullPolicy: policy,
    imagePresent: present,
    pullNeeded: policy === 'Always' || !present,
    pull: c.pull ?? null,
    imageBackoffMs: backoffMs(c.pullFailures),
    pullFailedAt: c.pullFailedAt ?? null,
    configError: c.configError ?? null,
    startError: c.startError ?? null,
    exited: exit !== undefined,
    restart: c.state === 'exited' && !stopping && restarts(pod.spec?.restartPolicy, c.init, exitCode),
    crashBackoffMs: backoff,
    crashBackoff: formatGoDuration(backoff),
    finishedAt: finished === null ? null : Date.parse(finished),
  };
}

export interface PodView {
  accepted: boolean;
  sandboxReady: boolean;
  deleting: boolean;
  terminal: boolean;
  stopped: boolean;
  state: string;
  startTime: number | null;
  activeDeadlineMs: number | null;
  mountError: string | null;
}

export function podView(pod: Pod, record: PodRecord): PodView {
  const deadline = pod.spec?.activeDeadlineSeconds;
  return {
    accepted: record.state !== 'new',
    sandboxReady: record.sandboxReady,
    deleting: isDeleting(pod),
    terminal: isTerminal(pod) || record.failed !== undefined,
    stopped: record.containers.every(
      (c) => c.state !== 'running' && c.state !== 'stopping' && c.state !== 'created',
    ),
    state: record.state,
    startTime: record.startTime ?? null,
    activeDeadlineMs: typeof deadline === 'number' ? deadline * 1000 : null,
    mountError: record.mountError ?? null,
  };
}
