/**
 * The generic strategy every stored kind starts from, and the subresource
 * strategies built on it (see `rest/strategy.ts` for the order of the
 * steps). The generic steps are the real server's common ones: server-owned
 * metadata on create, immutable metadata on update, generation tracking,
 * status kept apart from the main resource, schema and metadata
 * validation; a kind's hooks add what its own strategy does.
 */

import type { KubeObject, ObjectMeta } from '../../api/meta';
import type { FieldError } from '../../machinery/field-errors';
import { newUid, rfc3339Seconds } from '../../machinery/ids';
import { deepEqual, deepClone, jsonSizeAtMost, slicedAbove } from '../../machinery/json';
import type { KindHooks, Strategy, StrategyContext } from '../rest/strategy';
import type { ResourceType } from '../resource-type';
import { validateObjectMetaCreate, validateObjectMetaUpdate } from '../validation/object-meta';
import { checkAgainstSchema } from '../validation/schema-check';
import { refNode } from '../../machinery/schema';
import { validateFinalizersOnTerminating } from '../deletion';
import { breathe } from '../../machinery/cooperative';
import { canonicalOrder } from '../canonical';
import { goZeroValue } from '../../machinery/go-zero';
import type { DefinitionSet } from '../../machinery/schema';

function meta(obj: KubeObject): ObjectMeta {
  if (obj.metadata === undefined || obj.metadata === null) obj.metadata = {};
  return obj.metadata;
}

/** The zero status of a built-in kind whose `status` is a plain Go struct; undefined when it is a pointer or absent. */
function goStatusZero(defs: DefinitionSet, definition: string): Record<string, unknown> | undefined {
  const status = defs[definition]?.properties?.status;
  if (status?.ref === undefined || status.default === undefined) return undefined;
  return goZeroValue(defs, status);
}

export function hasStatusSubresource(rt: ResourceType): boolean {
  return rt.subresources.has('status');
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

function schemaErrors(rt: ResourceType, obj: KubeObject, ctx: StrategyContext): FieldError[] {
  // Custom resources are validated against their full OpenAPI schema by their own hooks.
  if (rt.crd !== undefined) return [];
  // One root node per definition (object-type.ts): the walk's resolutions are remembered per node.
  const root = rt.schema ?? (rt.definition !== undefined ? refNode(rt.definition) : undefined);
  if (root === undefined) return [];
  return checkAgainstSchema(ctx.definitions, root, obj, { prune: false }).errors;
}

/** Metadata no update may change (uid, creation and deletion timestamps), and the generation. */
function keepServerOwnedMetadata(
  next: KubeObject,
  old: KubeObject,
  bumpGeneration: boolean,
  rt: ResourceType,
): void {
  const m = meta(next);
  const om = old.metadata ?? {};
  if (om.generation === undefined) delete m.generation;
  else m.generation = om.generation;
  if (bumpGeneration && generationFieldsChanged(rt, next, old)) m.generation = (om.generation ?? 0) + 1;
  if (m.uid === undefined || m.uid === '') m.uid = om.uid;
  if (om.creationTimestamp !== undefined) m.creationTimestamp = om.creationTimestamp;
  if (om.deletionTimestamp !== undefined && om.deletionTimestamp !== null)
    m.deletionTimestamp = om.deletionTimestamp;
  else delete m.deletionTimestamp;
  if (om.deletionGracePeriodSeconds !== undefined && m.deletionGracePeriodSeconds === undefined)
    m.deletionGracePeriodSeconds = om.deletionGracePeriodSeconds;
  delete m.selfLink;
}

/** The strategy of a kind's main resource: the generic steps plus the kind's hooks. */
export function mainStrategy(rt: ResourceType, hooks: KindHooks | undefined): Strategy {
  return {
    allowCreateOnUpdate: rt.behavior.allowCreateOnUpdate,
    ...(hooks?.beginWrite !== undefined ? { beginWrite: hooks.beginWrite.bind(hooks) } : {}),
    ...(hooks?.afterDelete !== undefined ? { afterDelete: hooks.afterDelete.bind(hooks) } : {}),
    prepareForCreate(obj, ctx) {
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
        // The real strategies reset status to its Go zero value (`{}` for a Deployment, `{replicas: 0}`
        // for a ReplicaSet) before adding their own initial values; custom resources drop it.
        const zero =
          rt.crd === undefined && rt.definition !== undefined
            ? goStatusZero(ctx.definitions, rt.definition)
            : undefined;
        if (zero !== undefined || rt.behavior.initialStatus !== undefined)
          obj.status = { ...zero, ...deepClone(rt.behavior.initialStatus) };
        else delete obj.status;
      }
      hooks?.prepareForCreate?.(obj, ctx);
    },
    validate: (obj, ctx) =>
      inPhases(obj, [
        () => validateObjectMetaCreate(rt, obj),
        () => schemaErrors(rt, obj, ctx),
        () => hooks?.validate?.(obj, ctx) ?? [],
        () => hooks?.validateAsync?.(obj, undefined, ctx) ?? [],
      ]),
    warningsOnCreate: (obj, ctx) => hooks?.warningsOnCreate?.(obj, ctx) ?? [],
    prepareForUpdate(obj, old, ctx) {
      // The main resource never changes status when the kind has a status subresource.
      if (hasStatusSubresource(rt)) {
        if (old.status === undefined) delete obj.status;
        else obj.status = deepClone(old.status);
      }
      keepServerOwnedMetadata(obj, old, true, rt);
      hooks?.prepareForUpdate?.(obj, old, ctx);
      return obj;
    },
    validateUpdate: (obj, old, ctx) => updateErrors(rt, hooks, obj, old, ctx),
    warningsOnUpdate: (obj, old, ctx) => hooks?.warningsOnUpdate?.(obj, old, ctx) ?? [],
    canonicalize: canonicalOrder,
    beginDelete: (obj, ctx) => hooks?.beginDelete?.(obj, ctx) ?? obj,
  };
}

function updateErrors(
  rt: ResourceType,
  hooks: KindHooks | undefined,
  obj: KubeObject,
  old: KubeObject,
  ctx: StrategyContext,
): FieldError[] | Promise<FieldError[]> {
  return inPhases(obj, [
    () => validateObjectMetaUpdate(rt, obj, old),
    () => validateFinalizersOnTerminating(obj, old),
    () => schemaErrors(rt, obj, ctx),
    () => hooks?.validateUpdate?.(obj, old, ctx) ?? hooks?.validate?.(obj, ctx) ?? [],
    () => hooks?.validateAsync?.(obj, old, ctx) ?? [],
  ]);
}

/**
 * The errors of each check, in order. A small object is checked at once (synchronously unless a check is
 * asynchronous); a large one lets other requests run between the checks (machinery/cooperative.ts).
 */
function inPhases(
  obj: KubeObject,
  checks: (() => FieldError[] | Promise<FieldError[]>)[],
): FieldError[] | Promise<FieldError[]> {
  if (jsonSizeAtMost(obj, slicedAbove)) {
    const errors: FieldError[] = [];
    for (let i = 0; i < checks.length; i++) {
      const found = (checks[i] as () => FieldError[] | Promise<FieldError[]>)();
      if (found instanceof Promise) {
        // The asynchronous check (always last) and what follows it.
        return (async () => {
          errors.push(...(await found));
          for (const check of checks.slice(i + 1)) errors.push(...(await check()));
          return withoutBareDuplicates(errors);
        })();
      }
      errors.push(...found);
    }
    return withoutBareDuplicates(errors);
  }
  return (async () => {
    const errors: FieldError[] = [];
    for (const check of checks) {
      await breathe();
      errors.push(...(await check()));
    }
    return withoutBareDuplicates(errors);
  })();
}

/**
 * The schema's bare `Required value` stands in for a check the real kind's
 * validation makes; where the kind reports the same field as required in its
 * own words, the real server says it once, so the bare one goes.
 */
function withoutBareDuplicates(errors: FieldError[]): FieldError[] {
  const worded = new Set(
    errors.filter((e) => e.type === 'FieldValueRequired' && (e.detail ?? '') !== '').map((e) => e.field),
  );
  if (worded.size === 0) return errors;
  return errors.filter(
    (e) => !(e.type === 'FieldValueRequired' && (e.detail ?? '') === '' && worded.has(e.field)),
  );
}

/** Metadata a subresource write may not change: what only the main resource changes. */
const mainOnlyMetadata = [
  'labels',
  'annotations',
  'finalizers',
  'ownerReferences',
  'deletionTimestamp',
  'generation',
] as const;

/**
 * A subresource's strategy: the stored object with only what `take`
 * copies from the request (and the request's metadata outside the
 * main-only set, and those of the set named in `mayChange`), validated
 * like an update of the main resource.
 */
export function subresourceStrategy(
  rt: ResourceType,
  hooks: KindHooks | undefined,
  take: (next: KubeObject, requested: KubeObject, old: KubeObject) => void,
  mayChange: readonly (typeof mainOnlyMetadata)[number][] = [],
): Strategy {
  const { beginWrite: _allocatesOnMainOnly, ...main } = mainStrategy(rt, hooks);
  return {
    ...main,
    allowCreateOnUpdate: false,
    prepareForUpdate(obj, old) {
      const next: KubeObject = { ...deepClone(old), metadata: obj.metadata ?? {} };
      take(next, obj, old);
      const m = meta(next);
      const om = old.metadata ?? {};
      for (const key of mainOnlyMetadata) {
        if (mayChange.includes(key)) continue;
        if (om[key] === undefined) delete m[key];
        else (m as Record<string, unknown>)[key] = deepClone(om[key]);
      }
      keepServerOwnedMetadata(next, old, false, rt);
      return next;
    },
  };
}

/**
 * `/status`: status and nothing else — but the metadata named in `mayChange`, for the kinds whose real status
 * strategy keeps it (a Deployment's controller writes its revision annotation through `/status`).
 */
export function statusStrategy(
  rt: ResourceType,
  hooks: KindHooks | undefined,
  mayChange: readonly (typeof mainOnlyMetadata)[number][] = [],
): Strategy {
  return subresourceStrategy(
    rt,
    hooks,
    (next, requested) => {
      if (requested.status === undefined) delete next.status;
      else next.status = requested.status;
    },
    mayChange,
  );
}
