/**
 * What a pod asks for, as LimitRanger and ResourceQuota read it (v1.27):
 * per container requests and limits, the pod's totals (the sum of the
 * regular containers, raised to any single init container that needs more,
 * since init containers run one at a time, plus the pod overhead for
 * quota), its quality-of-service class (BestEffort when no container states
 * any cpu or memory), and whether quota still counts its compute usage
 * (not once it finished, nor once its grace period ran out).
 */

import type { KubeObject } from '../../api/meta';
import { add, compare, parseResourceList, type ResourceList } from '../../machinery/quantity';

export interface ContainerResources {
  name: string;
  requests: ResourceList;
  limits: ResourceList;
}

interface RawContainer {
  name?: string;
  resources?: { requests?: unknown; limits?: unknown };
}

interface RawPodSpec {
  containers?: RawContainer[];
  initContainers?: RawContainer[];
  overhead?: unknown;
  activeDeadlineSeconds?: number | null;
  priorityClassName?: string;
}

export function podSpec(pod: KubeObject): RawPodSpec {
  return (pod.spec ?? {}) as RawPodSpec;
}

function readContainer(c: RawContainer): ContainerResources {
  return {
    name: c.name ?? '',
    requests: parseResourceList(c.resources?.requests),
    limits: parseResourceList(c.resources?.limits),
  };
}

export function containers(pod: KubeObject): ContainerResources[] {
  return (podSpec(pod).containers ?? []).map(readContainer);
}

export function initContainers(pod: KubeObject): ContainerResources[] {
  return (podSpec(pod).initContainers ?? []).map(readContainer);
}

function sumInto(total: ResourceList, list: ResourceList): void {
  for (const [k, v] of list) {
    const have = total.get(k);
    total.set(k, have === undefined ? v : add(have, v));
  }
}

function maxInto(total: ResourceList, list: ResourceList): void {
  for (const [k, v] of list) {
    const have = total.get(k);
    if (have === undefined || compare(v, have) > 0) total.set(k, v);
  }
}

function aggregate(
  pod: KubeObject,
  pick: (c: ContainerResources) => ResourceList,
  overhead: boolean,
): ResourceList {
  const total: ResourceList = new Map();
  for (const c of containers(pod)) sumInto(total, pick(c));
  for (const c of initContainers(pod)) maxInto(total, pick(c));
  if (overhead) sumInto(total, parseResourceList(podSpec(pod).overhead));
  return total;
}

/** The pod's effective requests; quota includes the overhead, LimitRanger does not. */
export function podRequests(pod: KubeObject, withOverhead: boolean): ResourceList {
  return aggregate(pod, (c) => c.requests, withOverhead);
}

export function podLimits(pod: KubeObject, withOverhead: boolean): ResourceList {
  return aggregate(pod, (c) => c.limits, withOverhead);
}

/** BestEffort: no container or init container names cpu or memory in requests or limits. */
export function isBestEffort(pod: KubeObject): boolean {
  for (const c of [...containers(pod), ...initContainers(pod)]) {
    for (const list of [c.requests, c.limits]) {
      for (const k of ['cpu', 'memory']) {
        const q = list.get(k);
        if (q !== undefined && q.nanos !== 0n) return false;
      }
    }
  }
  return true;
}

/** Terminating scope: the pod has an active deadline. */
export function isTerminating(pod: KubeObject): boolean {
  const d = podSpec(pod).activeDeadlineSeconds;
  return typeof d === 'number' && d >= 0;
}

/** Whether quota counts the pod's compute usage (the real `QuotaV1Pod`). */
export function countsCompute(pod: KubeObject, now: Date): boolean {
  const phase = (pod.status as { phase?: string } | undefined)?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  const m = pod.metadata ?? {};
  if (
    m.deletionTimestamp !== undefined &&
    m.deletionTimestamp !== null &&
    m.deletionGracePeriodSeconds !== undefined
  ) {
    const end = Date.parse(m.deletionTimestamp) + (m.deletionGracePeriodSeconds ?? 0) * 1000;
    if (now.getTime() > end) return false;
  }
  return true;
}
