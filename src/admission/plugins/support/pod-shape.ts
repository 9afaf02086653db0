/**
 * The parts of a v1 Pod the scheduling and image plugins read and write,
 * typed loosely (objects reach admission as parsed JSON), plus the walk over
 * every container with its field path that the real `VisitContainersWithPath`
 * does: init containers, containers, then ephemeral containers.
 */

import type { KubeObject } from '../../../api/meta';
import type { Toleration } from './tolerations';

export interface ContainerShape {
  name?: string;
  image?: string;
  imagePullPolicy?: string;
  resources?: { requests?: Record<string, unknown>; limits?: Record<string, unknown> };
  securityContext?: { seLinuxOptions?: unknown; runAsUser?: unknown } | null;
  [field: string]: unknown;
}

export interface PodAffinityTermShape {
  topologyKey?: string;
  [field: string]: unknown;
}

export interface PodSpecShape {
  containers?: ContainerShape[];
  initContainers?: ContainerShape[];
  ephemeralContainers?: ContainerShape[];
  tolerations?: Toleration[];
  nodeSelector?: Record<string, string>;
  priorityClassName?: string;
  priority?: number;
  preemptionPolicy?: string;
  runtimeClassName?: string | null;
  overhead?: Record<string, unknown> | null;
  securityContext?: {
    supplementalGroups?: unknown;
    seLinuxOptions?: unknown;
    runAsUser?: unknown;
    fsGroup?: unknown;
  } | null;
  affinity?: {
    podAntiAffinity?: { requiredDuringSchedulingIgnoredDuringExecution?: PodAffinityTermShape[] } | null;
  } | null;
  [field: string]: unknown;
}

export interface PodShape extends KubeObject {
  spec?: PodSpecShape;
}

/** The object as a pod (its spec, or an empty one when absent). */
export function podSpecOf(object: KubeObject | undefined): PodSpecShape {
  const spec = (object as PodShape | undefined)?.spec;
  return spec !== null && typeof spec === 'object' ? spec : {};
}

/** A deep copy to mutate and return, with `spec` guaranteed. */
export function clonePod(object: KubeObject): PodShape & { spec: PodSpecShape } {
  const copy = structuredClone(object) as PodShape;
  if (copy.spec === undefined || copy.spec === null || typeof copy.spec !== 'object') copy.spec = {};
  return copy as PodShape & { spec: PodSpecShape };
}

/** Calls `visit` for every container with its path; stops when it returns false. */
export function visitContainers(
  spec: PodSpecShape,
  visit: (container: ContainerShape, path: string) => boolean,
): void {
  for (const field of ['initContainers', 'containers', 'ephemeralContainers'] as const) {
    const list = spec[field];
    if (!Array.isArray(list)) continue;
    for (let i = 0; i < list.length; i++) {
      const c = list[i];
      if (c === undefined || c === null || typeof c !== 'object') continue;
      if (!visit(c, `spec.${field}[${i}]`)) return;
    }
  }
}

/** True for a pod subresource or anything that is not a core pod: the pod plugins skip those. */
export function isNotPod(a: { group: string; resource: string; subresource: string }): boolean {
  return a.group !== '' || a.resource !== 'pods' || a.subresource !== '';
}
