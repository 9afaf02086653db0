/**
 * The `scale` subresource: a Scale (autoscaling/v1) view of a workload's
 * replicas — spec.replicas, status.replicas and the label selector as a
 * string — and the write back of spec.replicas from a Scale, through the
 * workload's own store (its strategy bumps the generation; admission sees
 * the subresource `scale`). Custom resources map the Scale through their
 * CRD's specReplicasPath, statusReplicasPath and labelSelectorPath.
 */

import type { KubeObject } from '../../api/meta';
import { badRequest } from '../../machinery/errors';
import type { ResourceType } from '../resource-type';
import { selectorToString } from '../../machinery/label-selector-text';
import type { ScalePaths } from '../crd/facts';
import type {
  GetOptions,
  Getter,
  ParentUpdater,
  UpdatedObjectInfo,
  Updater,
  UpdateOptions,
} from '../rest/capabilities';
import type { RequestScope } from '../rest/scope';
import type { GenericStore } from './store';

function pathParts(path: string): string[] {
  return path.replace(/^\./, '').split('.');
}

function nested(obj: unknown, path: string): unknown {
  let cur = obj;
  for (const p of pathParts(path))
    cur = typeof cur === 'object' && cur !== null ? (cur as Record<string, unknown>)[p] : undefined;
  return cur;
}

function customScaleOf(paths: ScalePaths, obj: KubeObject): KubeObject {
  const int = (v: unknown): number => (typeof v === 'number' && Number.isInteger(v) ? v : 0);
  const selector = paths.labelSelectorPath === undefined ? undefined : nested(obj, paths.labelSelectorPath);
  const m = obj.metadata ?? {};
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: m.name,
      namespace: m.namespace,
      uid: m.uid,
      resourceVersion: m.resourceVersion,
      creationTimestamp: m.creationTimestamp,
    },
    spec: { replicas: int(nested(obj, paths.specReplicasPath)) },
    status: {
      replicas: int(nested(obj, paths.statusReplicasPath)),
      ...(typeof selector === 'string' && selector !== '' ? { selector } : {}),
    },
  };
}

function setNested(obj: KubeObject, path: string, value: unknown): void {
  const parts = pathParts(path);
  let cur: Record<string, unknown> = obj;
  for (const p of parts.slice(0, -1)) {
    const next = cur[p];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) cur[p] = {};
    cur = cur[p] as Record<string, unknown>;
  }
  cur[parts[parts.length - 1] ?? ''] = value;
}

export function scaleOf(rt: ResourceType, obj: KubeObject): KubeObject {
  if (rt.crd?.scale !== undefined) return customScaleOf(rt.crd.scale, obj);
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

/** Applies a Scale's spec.replicas to the workload (to a custom resource's specReplicasPath when `rt` has one). */
export function applyScale(obj: KubeObject, scale: KubeObject, rt?: ResourceType): KubeObject {
  const replicas = (scale.spec as { replicas?: unknown } | undefined)?.replicas;
  if (replicas !== undefined && (typeof replicas !== 'number' || !Number.isInteger(replicas)))
    throw badRequest('spec.replicas must be an integer');
  const customPath = rt?.crd?.scale?.specReplicasPath;
  if (customPath !== undefined) setNested(obj, customPath, replicas ?? 0);
  else {
    const spec = (obj.spec ?? {}) as Record<string, unknown>;
    spec.replicas = replicas ?? 0;
    obj.spec = spec;
  }
  const rv = scale.metadata?.resourceVersion;
  if (rv !== undefined && rv !== '' && obj.metadata !== undefined) obj.metadata.resourceVersion = rv;
  return obj;
}

/** The scale subresource of a workload whose store is `store`. */
export class ScaleStorage implements Getter, Updater, ParentUpdater {
  readonly objectKind: { group: string; version: string; kind: string };

  constructor(private readonly store: GenericStore) {
    const sub = store.rt.subresources.get('scale');
    this.objectKind = { group: sub?.group ?? 'autoscaling', version: sub?.version ?? 'v1', kind: 'Scale' };
  }

  present(parent: KubeObject): KubeObject {
    return scaleOf(this.store.rt, parent);
  }

  async get(scope: RequestScope, name: string, options?: GetOptions): Promise<KubeObject> {
    return this.present(await this.store.get(scope, name, options));
  }

  /** PUT or PATCH of a Scale: `objInfo` sees the current Scale and returns the wanted one; its replicas go to the workload. */
  async update(scope: RequestScope, name: string, objInfo: UpdatedObjectInfo, options: UpdateOptions) {
    const rt = this.store.rt;
    const result = await this.store.update(
      scope,
      name,
      async (current) => {
        const parent = current ?? {};
        const scale = await objInfo(scaleOf(rt, parent));
        return applyScale(parent, scale, rt);
      },
      { ...options, createWhenMissing: false },
    );
    return { object: this.present(result.object), created: false };
  }

  /** Apply through `/scale`: the handler merges into the workload itself, so ownership is recorded there. */
  async updateParent(scope: RequestScope, name: string, parent: UpdatedObjectInfo, options: UpdateOptions) {
    const result = await this.store.update(scope, name, parent, { ...options, createWhenMissing: false });
    return this.present(result.object);
  }
}
