/**
 * The storage protection controllers, as the controller manager's
 * pvc-protection and pv-protection controllers do it, through the API only.
 * StorageObjectInUseProtection admission puts `<domain>/pvc-protection` on
 * every new claim and `<domain>/pv-protection` on every new volume, so a
 * deletion only marks them terminating; these controllers remove the
 * finalizer once nothing uses the object — for a claim, no pod scheduled to
 * a node names it in a volume; for a volume, it is no longer Bound — and
 * the server then completes the deletion.
 */

import type { KubeObject } from '../api/meta';
import type { ResourceRef } from '../client/paths';
import { isConflict, isNotFound } from './api-errors';
import { Informer, objectKey } from './informer';
import type { Controller, ControllerContext } from './types';
import { WorkQueue } from './work-queue';

const claimsRef: ResourceRef = { group: '', version: 'v1', resource: 'persistentvolumeclaims' };
const volumesRef: ResourceRef = { group: '', version: 'v1', resource: 'persistentvolumes' };
const podsRef: ResourceRef = { group: '', version: 'v1', resource: 'pods' };

function terminatingWith(obj: KubeObject | undefined, finalizer: string): boolean {
  const m = obj?.metadata;
  return (
    m?.deletionTimestamp !== undefined &&
    m.deletionTimestamp !== null &&
    (m.finalizers ?? []).includes(finalizer)
  );
}

interface PodShape {
  spec?: {
    nodeName?: string;
    volumes?: { name?: string; persistentVolumeClaim?: { claimName?: string }; ephemeral?: unknown }[];
  };
  status?: { phase?: string };
}

/** The claims a pod holds: only once scheduled (the node agent refuses to start one on a terminating claim). */
function claimsOf(pod: KubeObject): string[] {
  const p = pod as PodShape;
  if (p.spec?.nodeName === undefined || p.spec.nodeName === '') return [];
  const shutDown = p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';
  const names: string[] = [];
  for (const v of p.spec.volumes ?? []) {
    if (v.persistentVolumeClaim?.claimName !== undefined) names.push(v.persistentVolumeClaim.claimName);
    // A generic ephemeral volume's claim is named `<pod>-<volume>`.
    else if (v.ephemeral !== undefined && !shutDown)
      names.push(`${pod.metadata?.name ?? ''}-${v.name ?? ''}`);
  }
  return names;
}

/** Removes `finalizer` from the object at `ref`; a conflict or a vanished object just requeues or ends. */
async function dropFinalizer(
  ctx: ControllerContext,
  ref: ResourceRef & { name: string },
  obj: KubeObject,
  finalizer: string,
): Promise<{ requeueAfterMs?: number } | void> {
  const meta = obj.metadata ?? {};
  const next: KubeObject = {
    ...obj,
    metadata: { ...meta, finalizers: (meta.finalizers ?? []).filter((f) => f !== finalizer) },
  };
  try {
    await ctx.client.update(ref, next);
  } catch (e) {
    if (isConflict(e)) return { requeueAfterMs: 20 };
    if (isNotFound(e)) return;
    throw e;
  }
}

export function pvcProtectionController(ctx: ControllerContext): Controller {
  const finalizer = ctx.profile.prefixed('pvc-protection');
  const reconcile = async (key: string): Promise<{ requeueAfterMs?: number } | void> => {
    const [namespace = '', name = ''] = key.split('/');
    await Promise.all([claims.synced, pods.synced]);
    const claim = claims.cache.get(key);
    if (!terminatingWith(claim, finalizer) || claim === undefined) return;
    // The cache may lag behind a pod just created: ask the server, as the real controller does before removing.
    const live = await ctx.client.list({ ...podsRef, namespace });
    if (live.items.some((p) => claimsOf(p).includes(name))) return;
    return dropFinalizer(ctx, { ...claimsRef, namespace, name }, claim, finalizer);
  };
  const queue = new WorkQueue(reconcile);
  const enqueueClaim = (obj: KubeObject): void => {
    if (terminatingWith(obj, finalizer)) queue.add(objectKey(obj));
  };
  /** A pod that goes away or stops may release a terminating claim. */
  const enqueuePodClaims = (pod: KubeObject): void => {
    const ns = pod.metadata?.namespace ?? '';
    for (const name of claimsOf(pod)) if (claims.cache.has(`${ns}/${name}`)) queue.add(`${ns}/${name}`);
  };
  const claims = new Informer(ctx.client, claimsRef, {
    add: enqueueClaim,
    update: (_o, obj) => enqueueClaim(obj),
  });
  const pods = new Informer(ctx.client, podsRef, {
    update: (old) => enqueuePodClaims(old),
    delete: enqueuePodClaims,
  });
  return {
    name: 'pvc-protection',
    start: () => {
      claims.start();
      pods.start();
    },
    stop: () => {
      claims.stop();
      pods.stop();
      queue.stop();
    },
    idle: () => queue.idle(),
  };
}

export function pvProtectionController(ctx: ControllerContext): Controller {
  const finalizer = ctx.profile.prefixed('pv-protection');
  const reconcile = async (name: string): Promise<{ requeueAfterMs?: number } | void> => {
    await volumes.synced;
    const volume = volumes.cache.get(name);
    if (volume === undefined || !terminatingWith(volume, finalizer)) return;
    if ((volume.status as { phase?: string } | undefined)?.phase === 'Bound') return;
    return dropFinalizer(ctx, { ...volumesRef, name }, volume, finalizer);
  };
  const queue = new WorkQueue(reconcile);
  const enqueue = (obj: KubeObject): void => {
    if (terminatingWith(obj, finalizer)) queue.add(objectKey(obj));
  };
  const volumes = new Informer(ctx.client, volumesRef, { add: enqueue, update: (_o, obj) => enqueue(obj) });
  return {
    name: 'pv-protection',
    start: () => volumes.start(),
    stop: () => {
      volumes.stop();
      queue.stop();
    },
    idle: () => queue.idle(),
  };
}
