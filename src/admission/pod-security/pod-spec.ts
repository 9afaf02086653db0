/**
 * Where a pod spec lives in each resource the plugin looks at: a pod's own
 * spec, a PodTemplate's template, a workload's `spec.template`, a CronJob's
 * job template. Workloads are only warned and audited, never refused.
 */

import type { KubeObject } from '../../api/meta';
import type { PodMetaView, PodSpecView } from './pod-view';

/** `group/resource` of every workload whose pod template is evaluated. */
const templatePaths: Record<string, readonly string[]> = {
  '/podtemplates': ['template'],
  '/replicationcontrollers': ['spec', 'template'],
  'apps/replicasets': ['spec', 'template'],
  'apps/deployments': ['spec', 'template'],
  'apps/statefulsets': ['spec', 'template'],
  'apps/daemonsets': ['spec', 'template'],
  'batch/jobs': ['spec', 'template'],
  'batch/cronjobs': ['spec', 'jobTemplate', 'spec', 'template'],
};

export function hasPodTemplate(group: string, resource: string): boolean {
  return `${group}/${resource}` in templatePaths;
}

export interface ExtractedPod {
  meta: PodMetaView;
  spec: PodSpecView;
}

function asRecord(v: unknown): Record<string, unknown> | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : undefined;
}

/** The pod template of a workload, or undefined when it has none (a ReplicationController may omit it). */
export function extractPodTemplate(
  group: string,
  resource: string,
  object: KubeObject,
): ExtractedPod | undefined {
  const path = templatePaths[`${group}/${resource}`];
  if (path === undefined) return undefined;
  let at: Record<string, unknown> | undefined = object;
  for (const step of path) at = asRecord(at?.[step]);
  if (at === undefined) return undefined;
  return {
    meta: (asRecord(at.metadata) ?? {}) as PodMetaView,
    spec: (asRecord(at.spec) ?? {}) as PodSpecView,
  };
}

export function podOf(object: KubeObject): ExtractedPod {
  return {
    meta: (object.metadata ?? {}) as PodMetaView,
    spec: (asRecord(object.spec) ?? {}) as PodSpecView,
  };
}
