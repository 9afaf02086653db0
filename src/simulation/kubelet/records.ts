/**
 * What a node agent remembers of each pod and container it runs: the
 * lifecycle state the stages move (`container-stages.ts`), the waiting
 * reason the last stage set, restart counts and the last termination, the
 * image pull's outcome, and the running simulated container. The pod's
 * status is computed from these (`pod-status.ts`); after the agent starts
 * again they are rebuilt from the status it had written (`restore.ts`).
 */

import type { Container as ContainerSpec, ContainerStateTerminated, Pod } from '../../api/pod';
import type { Container } from '../containers/container';
import type { ImageRef } from '../containers/images';

export interface PullOutcome {
  ok: boolean;
  /** How long the pull takes (a simulated duration) and its Go-style text (`2.154302813s`). */
  ms: number;
  duration: string;
  error?: string;
}

export interface ContainerRecord {
  name: string;
  init: boolean;
  spec: ContainerSpec;
  /** The lifecycle state (see container-stages.ts): new, pulling, image-ready, created, running, exited, … */
  state: string;
  waiting?: { reason: string; message?: string };
  restartCount: number;
  /** The last termination, shown as `lastState` once the container runs again (or waits to). */
  lastTerminated?: ContainerStateTerminated;
  /** The current termination while the container is `exited`. */
  terminated?: ContainerStateTerminated;
  startedAt?: number;
  containerID?: string;
  ref?: ImageRef;
  imageID?: string;
  pull?: PullOutcome;
  pullFailedAt?: number;
  pullFailures: number;
  configError?: string;
  startError?: string;
  process?: Container;
  /** The container instance before the current one, for `kubectl logs --previous`. */
  previous?: Container;
  ready: boolean;
  /** The startup probe passed (or there is none) once running. */
  started: boolean;
}

export interface PodRecord {
  uid: string;
  namespace: string;
  name: string;
  /** The state the pod stages move: new, accepted, sandbox-ready, deadline-exceeded. */
  state: string;
  sandboxReady: boolean;
  podIP?: string;
  startTime?: number;
  /** Set by the pod-deadline stage: the pod failed with DeadlineExceeded. */
  failed?: { reason: string; message: string };
  mountError?: string;
  containers: ContainerRecord[];
}

export function newContainerRecord(spec: ContainerSpec, init: boolean): ContainerRecord {
  return {
    name: spec.name,
    init,
    spec,
    state: 'new',
    restartCount: 0,
    pullFailures: 0,
    ready: false,
    started: false,
  };
}

/** The record of a pod the node agent has just found bound to its node. */
export function newPodRecord(pod: Pod): PodRecord {
  const spec = pod.spec ?? { containers: [] };
  return {
    uid: pod.metadata?.uid ?? '',
    namespace: pod.metadata?.namespace ?? '',
    name: pod.metadata?.name ?? '',
    state: 'new',
    sandboxReady: false,
    containers: [
      ...(spec.initContainers ?? []).map((c) => newContainerRecord(c, true)),
      ...spec.containers.map((c) => newContainerRecord(c, false)),
    ],
  };
}
