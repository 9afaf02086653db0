/**
 * The `scale` subresource: a Scale (autoscaling/v1) view of a workload's
 * replicas — spec.replicas, status.replicas and the label selector as a
 * string — and the write back of spec.replicas from a Scale.
 */

import type { KubeObject } from '../../api/meta';
import { badRequest } from '../../machinery/errors';
import type { ResourceType } from '../../registry/resource-type';
import type { ServerContext } from '../server-context';
import { selectorToString } from '../../machinery/label-selector-text';

export function scaleOf(server: ServerContext, rt: ResourceType, obj: KubeObject): KubeObject {
  const spec = (obj.spec ?? {}) as { replicas?: number; selector?: unknown };
  const status = (obj.status ?? {}) as { replicas?: number };
  const m = obj.metadata ?? {};
  const sub = rt.subresources.get('scale');
  const group = sub?.group ?? 'autoscaling';
  return {
    kind: 'Scale',
    apiVersion: `${group}/${sub?.version ?? 'v1'}`,
    metadata: {
      name: m.name,
      namespace: m.namespace,
      uid: m.uid,
      resourceVersion: m.resourceVersion,
      creationTimestamp: m.creationTimestamp,
    },
    spec: { replicas: spec.replicas ?? 0 },
    status: { replicas: status.replicas ?? 0, selector: selectorToString(spec.selector) },
  };
}

/** Applies a Scale's spec.replicas to the workload. */
export function applyScale(obj: KubeObject, scale: KubeObject): KubeObject {
  const replicas = (scale.spec as { replicas?: unknown } | undefined)?.replicas;
  if (replicas !== undefined && (typeof replicas !== 'number' || !Number.isInteger(replicas))) throw badRequest('spec.replicas must be an integer');
  const spec = (obj.spec ?? {}) as Record<string, unknown>;
  spec.replicas = replicas ?? 0;
  obj.spec = spec;
  const rv = scale.metadata?.resourceVersion;
  if (rv !== undefined && rv !== '' && obj.metadata !== undefined) obj.metadata.resourceVersion = rv;
  return obj;
}
