/**
 * Strategies: what the server does to an object around a write, in the
 * order the real server's generic registry calls them.
 *
 * 1. `prepareForCreate` — server-owned fields of a new object: uid,
 *    creationTimestamp, generation 1, status reset for kinds with a status
 *    subresource, the kind's own preparation (e.g. a Namespace's finalizer).
 * 2. `prepareForUpdate` — fields the request may not change: the status on
 *    the main resource (or everything but status on `/status`), uid,
 *    creation and deletion timestamps; generation bumps when its fields
 *    change.
 * 3. `validate` / `validateUpdate` — metadata rules, schema types and
 *    required fields, and the kind's own rules, as field errors.
 */

import type { KubeObject, ObjectMeta } from '../api/meta';
import type { FieldError } from '../machinery/field-errors';
import { newUid, rfc3339Seconds } from '../machinery/ids';
import type { DefinitionSet } from '../machinery/schema';
import type { NamingProfile } from '../machinery/naming';
import { deepEqual, deepClone } from '../machinery/json';
import type { ResourceType } from './resource-type';
import { validateObjectMetaCreate, validateObjectMetaUpdate } from './validation/object-meta';
import { checkAgainstSchema } from './validation/schema-check';
import { kindHooks } from './kind-hooks';
import { validateFinalizersOnTerminating } from './deletion';

export interface StrategyContext {
  now: Date;
  definitions: DefinitionSet;
  /** The profile's namespace finalizer and similar names kinds need. */
  namespaceFinalizer: string;
  /** The naming profile (CRD validation spells schema markers and annotations through it). */
  profile: NamingProfile;
}

function meta(obj: KubeObject): ObjectMeta {
  if (obj.metadata === undefined || obj.metadata === null) obj.metadata = {};
  return obj.metadata;
}

export function hasStatusSubresource(rt: ResourceType): boolean {
  return rt.subresources.has('status');
}

export function prepareForCreate(rt: ResourceType, obj: KubeObject, ctx: StrategyContext): void {
  const m = meta(obj);
  m.uid = newUid();
  m.creationTimestamp = rfc3339Seconds(ctx.now);
  delete m.deletionTimestamp;
  delete m.deletionGracePeriodSeconds;
  delete m.resourceVersion;
  delete m.selfLink;
  if (rt.behavior.generationFields !== undefined) m.generation = 1;
  else delete m.generation;
  if (hasStatusSubresource(rt) && rt.behavior.keepStatusOnCreate !== true) {
    if (rt.behavior.initialStatus !== undefined) obj.status = deepClone(rt.behavior.initialStatus);
    else delete obj.status;
  }
  kindHooks(rt)?.prepareForCreate?.(obj, ctx);
}

function generationFieldsChanged(rt: ResourceType, obj: KubeObject, old: KubeObject): boolean {
  const fields = rt.behavior.generationFields;
  if (fields === undefined) return false;
  if (fields === '*') {
    const keys = new Set([...Object.keys(obj), ...Object.keys(old)]);
    for (const k of keys) {
      if (k === 'metadata' || k === 'status' || k === 'apiVersion' || k === 'kind') continue;
      if (!deepEqual(obj[k], old[k])) return true;
    }
    return false;
  }
  return fields.some((f) => !deepEqual(obj[f], old[f]));
}

/** Prepares an update of the main resource or of a subresource (`status`). */
export function prepareForUpdate(
  rt: ResourceType,
  subresource: string,
  obj: KubeObject,
  old: KubeObject,
  ctx: StrategyContext,
): KubeObject {
  let next: KubeObject;
  if (subresource === 'status') {
    // Only status (and metadata outside the reset set) changes through /status.
    next = { ...deepClone(old), metadata: obj.metadata ?? {} };
    if (obj.status === undefined) delete next.status;
    else next.status = obj.status;
    const m = meta(next);
    const om = old.metadata ?? {};
    for (const key of [
      'labels',
      'annotations',
      'finalizers',
      'ownerReferences',
      'deletionTimestamp',
      'generation',
    ] as const) {
      if (om[key] === undefined) delete m[key];
      else (m as Record<string, unknown>)[key] = deepClone(om[key]);
    }
  } else if (subresource === 'finalize') {
    // A Namespace's finalize subresource changes spec.finalizers and nothing else.
    next = deepClone(old);
    const spec = (next.spec ?? {}) as Record<string, unknown>;
    const finalizers = (obj.spec as { finalizers?: unknown } | undefined)?.finalizers;
    if (finalizers === undefined) delete spec.finalizers;
    else spec.finalizers = finalizers;
    next.spec = spec;
  } else {
    next = obj;
    if (hasStatusSubresource(rt)) {
      if (old.status === undefined) delete next.status;
      else next.status = deepClone(old.status);
    }
  }
  const m = meta(next);
  const om = old.metadata ?? {};
  if (om.generation === undefined) delete m.generation;
  else m.generation = om.generation;
  if (subresource === '' && generationFieldsChanged(rt, next, old)) m.generation = (om.generation ?? 0) + 1;
  if (m.uid === undefined || m.uid === '') m.uid = om.uid;
  if (om.creationTimestamp !== undefined) m.creationTimestamp = om.creationTimestamp;
  if (om.deletionTimestamp !== undefined && om.deletionTimestamp !== null)
    m.deletionTimestamp = om.deletionTimestamp;
  else delete m.deletionTimestamp;
  if (om.deletionGracePeriodSeconds !== undefined && m.deletionGracePeriodSeconds === undefined)
    m.deletionGracePeriodSeconds = om.deletionGracePeriodSeconds;
  delete m.selfLink;
  if (subresource === '') kindHooks(rt)?.prepareForUpdate?.(next, old, ctx);
  return next;
}

function schemaErrors(rt: ResourceType, obj: KubeObject, ctx: StrategyContext): FieldError[] {
  // Custom resources are validated against their full OpenAPI schema by their own hooks.
  if (rt.crd !== undefined) return [];
  const root = rt.schema ?? (rt.definition !== undefined ? { ref: rt.definition } : undefined);
  if (root === undefined) return [];
  return checkAgainstSchema(ctx.definitions, root, obj, { prune: false }).errors;
}

export function validateCreate(rt: ResourceType, obj: KubeObject, ctx: StrategyContext): FieldError[] {
  return [
    ...validateObjectMetaCreate(rt, obj),
    ...schemaErrors(rt, obj, ctx),
    ...(kindHooks(rt)?.validate?.(obj, ctx) ?? []),
  ];
}

export function validateUpdate(
  rt: ResourceType,
  obj: KubeObject,
  old: KubeObject,
  ctx: StrategyContext,
): FieldError[] {
  return [
    ...validateObjectMetaUpdate(rt, obj, old),
    ...validateFinalizersOnTerminating(obj, old),
    ...schemaErrors(rt, obj, ctx),
    ...(kindHooks(rt)?.validateUpdate?.(obj, old, ctx) ?? kindHooks(rt)?.validate?.(obj, ctx) ?? []),
  ];
}
