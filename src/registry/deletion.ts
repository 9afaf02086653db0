/**
 * The deletion lifecycle of the spec's state table, as the real server's
 * generic store runs it: what a DELETE does to an object (remove it now, or
 * mark it terminating with deletionTimestamp — because it has finalizers,
 * because the propagation policy adds the `orphan` or `foregroundDeletion`
 * finalizer, or because a scheduled Pod gets a grace period), and when an
 * update of a terminating object removes it (its last finalizer is gone).
 */

import type { KubeObject } from '../api/meta';
import { fieldError, type FieldError } from '../machinery/field-errors';
import { rfc3339Seconds } from '../machinery/ids';
import { deepClone } from '../machinery/json';
import type { ResourceType } from './resource-type';

export const orphanFinalizer = 'orphan';
export const foregroundFinalizer = 'foregroundDeletion';

export type PropagationPolicy = 'Orphan' | 'Background' | 'Foreground';

export interface DeleteRequestOptions {
  gracePeriodSeconds?: number;
  propagationPolicy?: PropagationPolicy;
  orphanDependents?: boolean;
}

export type DeletePlan =
  /** Remove from storage now. */
  | { kind: 'remove' }
  /** Store this terminating object (deletionTimestamp set, finalizers added); it stays until they are gone. */
  | { kind: 'terminate'; object: KubeObject }
  /** Already terminating and nothing changes. */
  | { kind: 'unchanged' };

function isNamespace(rt: ResourceType): boolean {
  return rt.group === '' && rt.resource === 'namespaces';
}

function isPod(rt: ResourceType): boolean {
  return rt.group === '' && rt.resource === 'pods';
}

/** The policy when the request names none: Jobs orphan their pods (batch/v1 compatibility), everything else deletes dependents in the background. */
function defaultPolicy(rt: ResourceType): PropagationPolicy {
  return rt.kind === 'Job' && rt.group === 'batch' ? 'Orphan' : 'Background';
}

function effectivePolicy(rt: ResourceType, o: DeleteRequestOptions): PropagationPolicy {
  if (o.propagationPolicy !== undefined) return o.propagationPolicy;
  if (o.orphanDependents !== undefined) return o.orphanDependents ? 'Orphan' : 'Background';
  return defaultPolicy(rt);
}

/** A Pod's grace period: 0 unless it is scheduled and still running, as the real Pod strategy decides. */
function podGrace(obj: KubeObject, requested: number | undefined): number {
  const spec = (obj.spec ?? {}) as { nodeName?: string; terminationGracePeriodSeconds?: number };
  const phase = (obj.status as { phase?: string } | undefined)?.phase;
  if ((spec.nodeName ?? '') === '' || phase === 'Succeeded' || phase === 'Failed') return 0;
  const grace = requested ?? spec.terminationGracePeriodSeconds ?? 30;
  return Math.max(0, grace);
}

export function planDelete(
  rt: ResourceType,
  current: KubeObject,
  options: DeleteRequestOptions,
  now: Date,
): DeletePlan {
  const meta = current.metadata ?? {};
  const terminating = meta.deletionTimestamp !== undefined && meta.deletionTimestamp !== null;
  const finalizers = new Set(meta.finalizers ?? []);
  const policy = effectivePolicy(rt, options);
  // Propagation is expressed as finalizers the garbage collector honours.
  if (policy === 'Orphan') {
    finalizers.add(orphanFinalizer);
    finalizers.delete(foregroundFinalizer);
  } else if (policy === 'Foreground') {
    finalizers.add(foregroundFinalizer);
    finalizers.delete(orphanFinalizer);
  } else if (options.propagationPolicy !== undefined || options.orphanDependents !== undefined) {
    finalizers.delete(orphanFinalizer);
    finalizers.delete(foregroundFinalizer);
  }
  // A policy only matters for objects that may have dependents; an object with no finalizers and Background goes now.
  const nsFinalizers = isNamespace(rt)
    ? ((current.spec as { finalizers?: string[] } | undefined)?.finalizers ?? [])
    : [];
  let grace = isPod(rt) ? podGrace(current, options.gracePeriodSeconds) : 0;
  if (terminating && meta.deletionGracePeriodSeconds !== undefined && grace > meta.deletionGracePeriodSeconds)
    grace = meta.deletionGracePeriodSeconds;

  const sameFinalizers =
    finalizers.size === (meta.finalizers ?? []).length &&
    (meta.finalizers ?? []).every((f) => finalizers.has(f));
  if (finalizers.size === 0 && nsFinalizers.length === 0 && grace === 0) return { kind: 'remove' };
  if (terminating && sameFinalizers && grace === (meta.deletionGracePeriodSeconds ?? 0)) {
    return grace === 0 && finalizers.size === 0 && nsFinalizers.length === 0
      ? { kind: 'remove' }
      : { kind: 'unchanged' };
  }
  const next = deepClone(current);
  const m = next.metadata ?? (next.metadata = {});
  if (!terminating || grace < (meta.deletionGracePeriodSeconds ?? 0))
    m.deletionTimestamp = rfc3339Seconds(new Date(now.getTime() + grace * 1000));
  m.deletionGracePeriodSeconds = grace;
  if (finalizers.size > 0) m.finalizers = [...finalizers];
  else delete m.finalizers;
  if (isNamespace(rt)) next.status = { ...((next.status as object | undefined) ?? {}), phase: 'Terminating' };
  return { kind: 'terminate', object: next };
}

/** After an update of a terminating object: true when it must now be removed (no finalizers left, no grace period pending). */
export function shouldRemoveAfterUpdate(rt: ResourceType, next: KubeObject, old: KubeObject): boolean {
  const om = old.metadata ?? {};
  if (om.deletionTimestamp === undefined || om.deletionTimestamp === null) return false;
  if ((next.metadata?.finalizers ?? []).length > 0) return false;
  if (isNamespace(rt) && ((next.spec as { finalizers?: string[] } | undefined)?.finalizers ?? []).length > 0)
    return false;
  return (om.deletionGracePeriodSeconds ?? 0) === 0;
}

/** No new finalizers may be added to a terminating object (real wording). */
export function validateFinalizersOnTerminating(next: KubeObject, old: KubeObject): FieldError[] {
  const om = old.metadata ?? {};
  if (om.deletionTimestamp === undefined || om.deletionTimestamp === null) return [];
  const before = new Set(om.finalizers ?? []);
  const added = (next.metadata?.finalizers ?? []).filter((f) => !before.has(f));
  if (added.length === 0) return [];
  return [
    fieldError.forbidden(
      'metadata.finalizers',
      `no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map((f) => JSON.stringify(f)).join(', ')}}`,
    ),
  ];
}
