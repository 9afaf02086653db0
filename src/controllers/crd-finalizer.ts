/**
 * CRD finalization, as the real CRDFinalizer does it, through the API only:
 * when a CRD marked for deletion still has the cleanup finalizer, its
 * Terminating condition turns to "InstanceDeletionInProgress", its objects
 * are deleted collection by collection (one DELETE per namespace, so normal
 * admission and finalizers apply), and once none remain the condition
 * becomes False ("InstanceDeletionCompleted"; "NeverEstablished" when it was
 * never served) and the finalizer is removed, which lets the server delete
 * the CRD itself.
 */

import type { KubeObject } from '../api/meta';
import { ApiError } from '../client/errors';
import { resourcePath, type ResourceRef } from '../client/paths';
import type { CrdCondition, CustomResourceDefinition } from '../api/crd';
import { asCrd, cleanupFinalizer, isConditionTrue } from '../machinery/crd';
import { crdRef, getCrd, updateStatus, withConditions } from './crd-common';
import { Informer } from './informer';
import type { Controller, ControllerContext } from './types';
import { WorkQueue } from './work-queue';

/** How long objects may take to go before the condition says so (the real controller polls for a minute). */
const checkForMs = 60_000;

function resourceOf(crd: CustomResourceDefinition): ResourceRef | undefined {
  const version = crd.spec?.versions?.find((v) => v.served === true)?.name;
  const plural = crd.status?.acceptedNames?.plural ?? '';
  if (version === undefined || plural === '') return undefined;
  return { group: crd.spec?.group ?? '', version, resource: plural };
}

async function deleteInstances(
  ctx: ControllerContext,
  crd: CustomResourceDefinition,
): Promise<{ remaining: number; errors: string[] }> {
  const ref = resourceOf(crd);
  if (ref === undefined) return { remaining: 0, errors: [] };
  const namespaced = crd.spec?.scope === 'Namespaced';
  const items = (await ctx.client.list(ref)).items;
  const namespaces = new Set(items.map((i) => (namespaced ? (i.metadata?.namespace ?? '') : '')));
  const errors: string[] = [];
  for (const ns of namespaces) {
    const target = namespaced ? { ...ref, namespace: ns } : ref;
    const response = await ctx.client.raw('DELETE', resourcePath(target), {
      body: JSON.stringify({ kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' }),
      headers: { 'content-type': 'application/json' },
    });
    if (!response.ok)
      errors.push(
        ((await response.json().catch(() => ({}))) as { message?: string }).message ??
          `HTTP ${response.status}`,
      );
  }
  const left = (await ctx.client.list(ref)).items.length;
  return { remaining: left, errors };
}

export function crdFinalizer(ctx: ControllerContext): Controller {
  const finalizer = cleanupFinalizer(ctx.profile);
  const started = new Map<string, number>();

  const finish = async (
    crd: CustomResourceDefinition,
    condition: CrdCondition,
  ): Promise<{ requeueAfterMs?: number } | void> => {
    const updated = await updateStatus(ctx, crd, withConditions(ctx, crd, [condition]));
    if (updated === 'retry') return { requeueAfterMs: 20 };
    const meta = updated.metadata ?? {};
    const next: KubeObject = {
      ...updated,
      metadata: { ...meta, finalizers: (meta.finalizers ?? []).filter((f) => f !== finalizer) },
    };
    try {
      await ctx.client.update({ ...crdRef(ctx), name: meta.name ?? '' }, next);
    } catch (e) {
      if (e instanceof ApiError && e.code === 409) return { requeueAfterMs: 20 };
      if (e instanceof ApiError && e.code === 404) return;
      throw e;
    }
    started.delete(meta.name ?? '');
  };

  const reconcile = async (name: string): Promise<{ requeueAfterMs?: number } | void> => {
    let crd = await getCrd(ctx, name);
    const meta = crd?.metadata ?? {};
    if (crd === undefined || meta.deletionTimestamp === undefined || meta.deletionTimestamp === null) return;
    if (!(meta.finalizers ?? []).includes(finalizer)) return;
    if (!isConditionTrue(crd, 'Established'))
      return finish(crd, {
        type: 'Terminating',
        status: 'False',
        reason: 'NeverEstablished',
        message: 'resource was never established',
      });
    const inProgress: CrdCondition = {
      type: 'Terminating',
      status: 'True',
      reason: 'InstanceDeletionInProgress',
      message: 'CustomResource deletion is in progress',
    };
    const current = crd.status?.conditions?.find((c) => c.type === 'Terminating');
    if (current?.reason !== inProgress.reason) {
      const updated = await updateStatus(ctx, crd, withConditions(ctx, crd, [inProgress]));
      if (updated === 'retry') return { requeueAfterMs: 20 };
      crd = updated;
    }
    if (!started.has(name)) started.set(name, ctx.now().getTime());
    const { remaining, errors } = await deleteInstances(ctx, crd);
    if (errors.length > 0) {
      await updateStatus(
        ctx,
        crd,
        withConditions(ctx, crd, [
          {
            type: 'Terminating',
            status: 'True',
            reason: 'InstanceDeletionFailed',
            message: `could not issue all deletes: ${errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`}`,
          },
        ]),
      );
      return { requeueAfterMs: 1000 };
    }
    if (remaining > 0) {
      if (ctx.now().getTime() - (started.get(name) ?? 0) > checkForMs)
        await updateStatus(
          ctx,
          crd,
          withConditions(ctx, crd, [
            {
              type: 'Terminating',
              status: 'True',
              reason: 'InstanceDeletionCheck',
              message: `could not confirm zero CustomResources remaining: ${remaining} remaining`,
            },
          ]),
        );
      return { requeueAfterMs: 200 };
    }
    return finish(crd, {
      type: 'Terminating',
      status: 'False',
      reason: 'InstanceDeletionCompleted',
      message: 'removed all instances',
    });
  };

  const queue = new WorkQueue(reconcile);
  const enqueue = (obj: KubeObject): void => {
    const crd = asCrd(obj);
    const m = crd.metadata ?? {};
    if (
      m.deletionTimestamp !== undefined &&
      m.deletionTimestamp !== null &&
      (m.finalizers ?? []).includes(finalizer)
    )
      queue.add(m.name ?? '');
  };
  const informer = new Informer(ctx.client, crdRef(ctx), {
    add: enqueue,
    update: (_old, obj) => enqueue(obj),
  });
  return {
    name: 'crd-finalizer',
    start: () => informer.start(),
    stop: () => {
      informer.stop();
      queue.stop();
    },
    idle: () => queue.idle(),
  };
}
