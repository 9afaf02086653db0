/**
 * Namespace lifecycle: when a Namespace is deleted it turns Terminating (the
 * server sets deletionTimestamp and phase while the `orch`/`kubernetes`
 * finalizer is in spec.finalizers); this controller then deletes every
 * namespaced object in it, reports progress in the Namespace's status
 * conditions as the real controller does (content remaining, finalizers
 * remaining, failures), and when nothing is left removes its finalizer
 * through the `finalize` subresource, which lets the server remove the
 * Namespace.
 */

import type { APIResource, KubeObject } from '../api/meta';
import { ApiError } from '../client/errors';
import { resourcePath, type ResourceRef } from '../client/paths';
import { rfc3339Seconds } from '../machinery/ids';
import { Informer } from './informer';
import type { Controller, ControllerContext } from './types';
import { WorkQueue } from './work-queue';

interface Condition {
  type: string;
  status: 'True' | 'False';
  reason: string;
  message: string;
  lastTransitionTime?: string;
}

interface NamespacedResource {
  ref: ResourceRef;
  resource: APIResource;
  label: string;
}

async function namespacedResources(
  ctx: ControllerContext,
): Promise<{ resources: NamespacedResource[]; failed: string[] }> {
  const d = await ctx.client.discovery();
  const resources: NamespacedResource[] = [];
  for (const gv of d.groupVersions) {
    if (!gv.preferred) continue;
    for (const r of gv.resources) {
      if (!r.namespaced || r.name.includes('/') || !r.verbs.includes('list') || !r.verbs.includes('delete'))
        continue;
      resources.push({
        ref: { group: gv.group, version: gv.version, resource: r.name },
        resource: r,
        label: gv.group === '' ? `${r.name}.` : `${r.name}.${gv.group}`,
      });
    }
  }
  return { resources, failed: d.failed.map((f) => f.groupVersion) };
}

function setCondition(conditions: Condition[], next: Condition, now: string): Condition[] {
  const old = conditions.find((c) => c.type === next.type);
  const lastTransitionTime = old !== undefined && old.status === next.status ? old.lastTransitionTime : now;
  return [...conditions.filter((c) => c.type !== next.type), { ...next, lastTransitionTime }];
}

export function namespaceController(ctx: ControllerContext): Controller {
  const finalizer = ctx.profile.namespaceFinalizer;
  const namespacesRef: ResourceRef = { group: '', version: 'v1', resource: 'namespaces' };

  const reconcile = async (name: string): Promise<{ requeueAfterMs?: number } | void> => {
    let ns: KubeObject;
    try {
      ns = await ctx.client.get({ ...namespacesRef, name });
    } catch (e) {
      if (e instanceof ApiError && e.code === 404) return;
      throw e;
    }
    const meta = ns.metadata ?? {};
    if (meta.deletionTimestamp === undefined || meta.deletionTimestamp === null) return;
    const specFinalizers = (ns.spec as { finalizers?: string[] } | undefined)?.finalizers ?? [];
    if (!specFinalizers.includes(finalizer)) return;

    const { resources, failed } = await namespacedResources(ctx);
    const deleteErrors: string[] = [];
    let remaining = 0;
    const remainingBy: string[] = [];
    const finalizerCounts = new Map<string, number>();
    for (const r of resources) {
      const ref = { ...r.ref, namespace: name };
      try {
        if (r.resource.verbs.includes('deletecollection')) {
          await ctx.client.raw('DELETE', resourcePath(ref), {
            body: JSON.stringify({
              kind: 'DeleteOptions',
              apiVersion: 'v1',
              propagationPolicy: 'Background',
            }),
            headers: { 'content-type': 'application/json' },
          });
        } else {
          const list = await ctx.client.list(ref);
          for (const item of list.items)
            await ctx.client.delete({ ...ref, name: item.metadata?.name ?? '' }).catch(() => undefined);
        }
        const left = await ctx.client.list(ref);
        if (left.items.length > 0) {
          remaining += left.items.length;
          remainingBy.push(`${r.label} has ${left.items.length} resource instances`);
          for (const item of left.items)
            for (const f of item.metadata?.finalizers ?? [])
              finalizerCounts.set(f, (finalizerCounts.get(f) ?? 0) + 1);
        }
      } catch (e) {
        deleteErrors.push(`${r.label}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }

    const now = rfc3339Seconds(ctx.now());
    let conditions = ((ns.status as { conditions?: Condition[] } | undefined)?.conditions ?? []).slice();
    conditions = setCondition(
      conditions,
      failed.length > 0
        ? {
            type: 'NamespaceDeletionDiscoveryFailure',
            status: 'True',
            reason: 'DiscoveryFailed',
            message: `Discovery failed for some groups, ${failed.length} failing: ${failed.join(', ')}`,
          }
        : {
            type: 'NamespaceDeletionDiscoveryFailure',
            status: 'False',
            reason: 'ResourcesDiscovered',
            message: 'All resources successfully discovered',
          },
      now,
    );
    conditions = setCondition(
      conditions,
      {
        type: 'NamespaceDeletionGroupVersionParsingFailure',
        status: 'False',
        reason: 'ParsedGroupVersions',
        message: 'All legacy kube types successfully parsed',
      },
      now,
    );
    conditions = setCondition(
      conditions,
      deleteErrors.length > 0
        ? {
            type: 'NamespaceDeletionContentFailure',
            status: 'True',
            reason: 'ContentDeletionFailed',
            message: `Failed to delete all resource types, ${deleteErrors.length} remaining: ${deleteErrors.join(', ')}`,
          }
        : {
            type: 'NamespaceDeletionContentFailure',
            status: 'False',
            reason: 'ContentDeleted',
            message: 'All content successfully deleted, may be waiting on finalization',
          },
      now,
    );
    conditions = setCondition(
      conditions,
      remaining > 0
        ? {
            type: 'NamespaceContentRemaining',
            status: 'True',
            reason: 'SomeResourcesRemain',
            message: `Some resources are remaining: ${remainingBy.join(', ')}`,
          }
        : {
            type: 'NamespaceContentRemaining',
            status: 'False',
            reason: 'ContentRemoved',
            message: 'All content successfully removed',
          },
      now,
    );
    conditions = setCondition(
      conditions,
      finalizerCounts.size > 0
        ? {
            type: 'NamespaceFinalizersRemaining',
            status: 'True',
            reason: 'SomeFinalizersRemain',
            message: `Some content in the namespace has finalizers remaining: ${[...finalizerCounts].map(([f, n]) => `${f} in ${n} resource instances`).join(', ')}`,
          }
        : {
            type: 'NamespaceFinalizersRemaining',
            status: 'False',
            reason: 'ContentHasNoFinalizers',
            message: 'All content-preserving finalizers finished',
          },
      now,
    );
    const order = [
      'NamespaceDeletionDiscoveryFailure',
      'NamespaceDeletionGroupVersionParsingFailure',
      'NamespaceDeletionContentFailure',
      'NamespaceContentRemaining',
      'NamespaceFinalizersRemaining',
    ];
    conditions.sort((a, b) => order.indexOf(a.type) - order.indexOf(b.type));
    const status = { ...((ns.status as object | undefined) ?? {}), phase: 'Terminating', conditions };
    try {
      ns = await ctx.client.update({ ...namespacesRef, name, subresource: 'status' }, { ...ns, status });
    } catch (e) {
      if (e instanceof ApiError && (e.code === 409 || e.code === 404)) return { requeueAfterMs: 50 };
      throw e;
    }

    if (remaining > 0 || deleteErrors.length > 0) return { requeueAfterMs: remaining > 0 ? 1000 : 2000 };
    const spec = {
      ...((ns.spec as object | undefined) ?? {}),
      finalizers: specFinalizers.filter((f) => f !== finalizer),
    };
    try {
      await ctx.client.update({ ...namespacesRef, name, subresource: 'finalize' }, { ...ns, spec });
    } catch (e) {
      if (e instanceof ApiError && e.code === 409) return { requeueAfterMs: 50 };
      if (e instanceof ApiError && e.code === 404) return;
      throw e;
    }
  };

  const queue = new WorkQueue(reconcile);
  const enqueue = (obj: KubeObject): void => {
    if (obj.metadata?.deletionTimestamp !== undefined && obj.metadata.deletionTimestamp !== null)
      queue.add(obj.metadata.name ?? '');
  };
  const informer = new Informer(ctx.client, namespacesRef, {
    add: enqueue,
    update: (_old, obj) => enqueue(obj),
  });
  return {
    name: 'namespace',
    start: () => informer.start(),
    stop: () => {
      informer.stop();
      queue.stop();
    },
    idle: () => queue.idle(),
  };
}
