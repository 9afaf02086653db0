/**
 * Field ownership around every write, in the order of the real server's
 * field manager: which managedFields a write starts from (the request's
 * own, the stored ones, or none after a reset), the ownership engine,
 * metadata the server manages taken out of every set, entries keyed and
 * timestamped per manager, old update entries folded together beyond ten,
 * kubectl's move from client-side apply, and apply's own checks.
 *
 * One deliberate difference, from the specification: after a reset (a
 * single empty managedFields entry), writes keep being recorded — the real
 * v1.28 server stops recording updates to an object whose managedFields
 * are empty.
 */

import type { JsonValue, KubeObject, ManagedFieldsEntry } from '../api/meta';
import { badRequest } from '../machinery/errors';
import { rfc3339Seconds } from '../machinery/ids';
import { deepClone, deepEqualWork, dropNulls } from '../machinery/json';
import { resolveSchema, type DefinitionSet, type SchemaNode } from '../machinery/schema';
import { ApplyConflictError, printManager, type FieldConflict } from './conflict';
import { FieldSet } from './field-set';
import { fieldsFromLastApplied, lastAppliedManager, syncLastApplied } from './last-applied';
import {
  cloneManaged,
  decodeManagedFields,
  decodeManagedFieldsWork,
  emptyManaged,
  encodeManagedFieldsWork,
  managerIdentifier,
  parseIdentifier,
  timeSeconds,
  type Managed,
} from './managed-fields';
import { resolverFor, type ObjectType } from './object-type';
import { fieldPE, pathString, type Path } from './path';
import { resetFields } from './reset-fields';
import { goShape, normalizeAsGo } from './typed/go-shape';
import { TypedError } from './typed/types';
import { typedErrorsMessage, validateTyped } from './typed/validate';
import { Conflicts, Updater, type Managers } from './updater';
import { runNow, sliceSpent, type Work } from '../machinery/cooperative';

/** Update entries beyond this many are merged, oldest first, into one per apiVersion. */
const maxUpdateManagers = 10;
const oldUpdatesManager = 'ancient-changes';
const beforeFirstApplyManager = 'before-first-apply';
/** The key the current update is computed under before it joins its manager's entry (so its time moves only if it took fields). */
const currentOperation = 'current-operation';

/** Metadata the server manages: never owned by anyone. */
const stripSet = FieldSet.of(
  [fieldPE('apiVersion')],
  [fieldPE('kind')],
  [fieldPE('metadata')],
  ...[
    'name',
    'namespace',
    'creationTimestamp',
    'selfLink',
    'uid',
    'clusterName',
    'generation',
    'managedFields',
    'resourceVersion',
  ].map((f): Path => [fieldPE('metadata'), fieldPE(f)]),
);

/** A failure the real server reports without a Status of its own (answered as 500 with this message). */
export class FieldManagerError extends Error {}

interface Engine {
  updater: Updater;
  shape: (v: JsonValue) => JsonValue;
  empty: KubeObject;
}

/**
 * The main resource's engine per kind (definitions, root node, Go structs, status subresource): what it resets
 * does not depend on the objects there, and building it (the resolver's root, the schema's properties, the empty
 * object's shape) was ~15 µs of every create and update. A subresource's reset fields depend on the objects.
 */
const mainEngines = new WeakMap<DefinitionSet, WeakMap<SchemaNode, Map<string, Engine>>>();

function engine(type: ObjectType, subresource: string, objects: (KubeObject | undefined)[]): Engine {
  if (subresource !== '' || type.root === undefined) return newEngine(type, subresource, objects);
  let byRoot = mainEngines.get(type.definitions);
  if (byRoot === undefined) mainEngines.set(type.definitions, (byRoot = new WeakMap()));
  let byFlags = byRoot.get(type.root);
  if (byFlags === undefined) byRoot.set(type.root, (byFlags = new Map()));
  const flags = `${type.goStructs === true} ${type.statusSubresource === true}`;
  let e = byFlags.get(flags);
  if (e === undefined) {
    e = newEngine(type, subresource, objects);
    // Shared by every write of the kind: nothing may change it (the comparison only reads it).
    deepFreeze(e.empty);
    byFlags.set(flags, e);
  }
  return e;
}

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
}

function newEngine(type: ObjectType, subresource: string, objects: (KubeObject | undefined)[]): Engine {
  const types = resolverFor(type.definitions);
  const root = types.root(type.root);
  const rootProperties = Object.keys(resolveSchema(type.definitions, type.root)?.properties ?? {});
  const ignored = resetFields({
    subresource,
    statusSubresource: type.statusSubresource === true,
    rootProperties,
    objects,
  });
  const shape =
    type.goStructs === true
      ? (v: JsonValue): JsonValue => goShape(type.definitions, v, type.root)
      : (v: JsonValue): JsonValue => v;
  const empty = shape({}) as KubeObject;
  return { updater: new Updater({ types, root, ignored, shape, empty: empty as JsonValue }), shape, empty };
}

/** The object without its managedFields: a new top level and metadata, sharing everything else (read-only). */
function withoutManagedFields(obj: KubeObject): KubeObject {
  if (obj.metadata === undefined || obj.metadata === null) return { ...obj };
  const { managedFields: _managed, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

function* decodeOrEmpty(entries: readonly ManagedFieldsEntry[] | undefined): Work<Managed> {
  if (entries === undefined || entries === null) return emptyManaged();
  try {
    return yield* decodeManagedFieldsWork(entries);
  } catch {
    return emptyManaged();
  }
}

function isZeroEntry(e: unknown): boolean {
  if (typeof e !== 'object' || e === null || Array.isArray(e)) return false;
  return Object.values(e).every((v) => v === undefined || v === null || v === '');
}

/** A list holding exactly one empty entry resets ownership (an empty list does not, per the specification). */
function isReset(entries: unknown): boolean {
  return Array.isArray(entries) && entries.length === 1 && isZeroEntry(entries[0]);
}

function strip(managers: Managers, id: string): void {
  const vs = managers.get(id);
  if (vs === undefined) return;
  const set = vs.set.difference(stripSet);
  if (set.empty()) managers.delete(id);
  else managers.set(id, { ...vs, set });
}

/** Folds the oldest update entries into `ancient-changes` (one per apiVersion) until at most ten remain. */
function capUpdateManagers(m: Managed): void {
  const updaters = [...m.fields.entries()].filter(([, vs]) => !vs.applied).map(([id]) => id);
  if (updaters.length <= maxUpdateManagers) return;
  updaters.sort(
    (a, b) => timeSeconds(m.times.get(a)) - timeSeconds(m.times.get(b)) || (a < b ? -1 : a > b ? 1 : 0),
  );
  const firstByVersion = new Map<string, string>();
  let length = updaters.length;
  for (let i = 0; i < updaters.length && length > maxUpdateManagers; i++) {
    const id = updaters[i] as string;
    const vs = m.fields.get(id);
    if (vs === undefined) continue;
    const bucket = managerIdentifier({
      manager: oldUpdatesManager,
      operation: 'Update',
      apiVersion: vs.apiVersion,
    });
    const first = firstByVersion.get(vs.apiVersion);
    if (first === undefined) {
      firstByVersion.set(vs.apiVersion, id);
      continue;
    }
    if (!m.fields.has(bucket)) {
      const s = m.fields.get(first);
      m.fields.delete(first);
      if (s !== undefined) m.fields.set(bucket, s);
    }
    const b = m.fields.get(bucket);
    m.fields.set(bucket, {
      set: vs.set.union(b?.set ?? new FieldSet()),
      apiVersion: vs.apiVersion,
      applied: vs.applied,
    });
    m.fields.delete(id);
    length--;
    m.times.set(bucket, m.times.get(id));
  }
}

function finish(obj: KubeObject, m: Managed): KubeObject {
  return runNow(finishWork(obj, m));
}

function* finishWork(obj: KubeObject, m: Managed): Work<KubeObject> {
  for (const id of [...m.times.keys()]) if (!m.fields.has(id)) m.times.delete(id);
  const entries = yield* encodeManagedFieldsWork(m);
  const meta = obj.metadata ?? (obj.metadata = {});
  if (entries === undefined) delete meta.managedFields;
  else meta.managedFields = entries;
  return obj;
}

/** The whole second of the last entry time made, and its text: the writes of one second share it. */
let timeSecond = Number.NaN;
let timeText = '';

/** `rfc3339Seconds(now)`, remembered for the second it names. */
function entryTime(now: Date): string {
  const second = Math.floor(now.getTime() / 1000);
  if (second !== timeSecond) {
    timeText = rfc3339Seconds(now);
    timeSecond = second;
  }
  return timeText;
}

/** Records an update in `m`: computed under `current-operation`, then joined to `manager`'s Update entry (timestamped only if it took fields). */
function* recordUpdate(
  e: Engine,
  m: Managed,
  live: KubeObject,
  next: KubeObject,
  manager: string,
  apiVersion: string,
  subresource: string,
  now: Date,
): Work<void> {
  const managers = yield* e.updater.updateOpWork(
    live as JsonValue,
    next as JsonValue,
    apiVersion,
    m.fields,
    currentOperation,
  );
  strip(managers, currentOperation);
  const id = managerIdentifier({
    manager: manager === '' ? 'unknown' : manager,
    operation: 'Update',
    apiVersion,
    subresource,
  });
  const current = managers.get(currentOperation);
  if (current !== undefined) {
    managers.delete(currentOperation);
    const previous = managers.get(id);
    managers.set(id, {
      ...current,
      set: previous === undefined ? current.set : current.set.union(previous.set),
    });
    m.times.set(id, entryTime(now));
  }
  m.fields = managers;
}

/** What a non-apply write's field ownership is computed from. */
export interface UpdateArgs {
  type: ObjectType;
  live: KubeObject | undefined;
  next: KubeObject;
  manager: string;
  apiVersion: string;
  subresource: string;
  now: Date;
}

/**
 * Non-apply writes (create, update, merge/JSON/strategic patch): the manager
 * takes ownership of every field it set or changed, away from others
 * (updates never conflict). Returns `next` with its managedFields.
 */
export function updateManagedFields(a: UpdateArgs): KubeObject {
  return runNow(updateManagedFieldsWork(a));
}

/** `updateManagedFields` as work that pauses between its steps and inside wide objects (machinery/cooperative.ts). */
export function* updateManagedFieldsWork(a: UpdateArgs): Work<KubeObject> {
  const liveEntries = a.live?.metadata?.managedFields;
  const requested = a.next.metadata?.managedFields as unknown;
  let m: Managed;
  if (a.subresource !== '') m = yield* decodeOrEmpty(liveEntries);
  else if (isReset(requested)) m = emptyManaged();
  else {
    const fromRequest = Array.isArray(requested)
      ? yield* decodeOrEmpty(requested as ManagedFieldsEntry[])
      : emptyManaged();
    m = fromRequest.fields.size > 0 ? fromRequest : yield* decodeOrEmpty(liveEntries);
  }
  if (sliceSpent()) yield;
  const next = withoutManagedFields(a.next);
  const e = engine(a.type, a.subresource, [a.live, next]);
  const live = a.live === undefined ? e.empty : withoutManagedFields(a.live);
  try {
    yield* recordUpdate(e, m, live, next, a.manager, a.apiVersion, a.subresource, a.now);
  } catch (err) {
    // The real server drops managedFields of an object it cannot track (e.g. duplicate list keys).
    if (err instanceof TypedError) return next;
    throw err;
  }
  capUpdateManagers(m);
  if (sliceSpent()) yield;
  return yield* finishWork(next, m);
}

function gvkText(apiVersion: unknown, kind: unknown): string {
  const v = typeof apiVersion === 'string' ? apiVersion : '';
  const parts = v.split('/');
  const [group, version] =
    parts.length === 1
      ? ['', parts[0] ?? '']
      : parts.length === 2
        ? [parts[0] ?? '', parts[1] ?? '']
        : ['', ''];
  return `${group}/${version}, Kind=${typeof kind === 'string' ? kind : ''}`;
}

function objectName(obj: KubeObject): string {
  return `${obj.metadata?.namespace ?? ''}/${obj.metadata?.name ?? ''}; ${gvkText(obj.apiVersion, obj.kind)}`;
}

function conflictList(byManager: Map<string, FieldSet>, allowed?: FieldSet): FieldConflict[] {
  const out: FieldConflict[] = [];
  for (const id of [...byManager.keys()].sort()) {
    const owner = printManager(id);
    const manager = parseIdentifier(id).manager ?? '';
    byManager.get(id)?.iterate((path) => {
      if (allowed?.has(path) === true) return;
      out.push({ manager, field: pathString(path), owner, identity: id });
    });
  }
  return out;
}

export interface ApplyArgs {
  type: ObjectType;
  /** The stored object; undefined creates the object by apply. */
  live: KubeObject | undefined;
  /** The applied configuration (a partial object). */
  config: KubeObject;
  manager: string;
  /** The endpoint's apiVersion and kind; the configuration must name them. */
  apiVersion: string;
  kind: string;
  subresource: string;
  force: boolean;
  now: Date;
  /** kubectl's client-side apply annotation (its name depends on the naming profile). */
  lastAppliedAnnotation: string;
}

/**
 * Apply (PATCH application/apply-patch+yaml): merges `config` into `live`
 * for `manager`; fields it applied before and no longer sends are removed
 * unless another manager owns them; changing a field another manager owns
 * throws ApplyConflictError unless `force`, which takes it over. Returns
 * the new object with its managedFields.
 */
export function apply(a: ApplyArgs): KubeObject {
  if (a.config.apiVersion !== a.apiVersion || a.config.kind !== a.kind)
    throw badRequest(`invalid object type: ${gvkText(a.config.apiVersion, a.config.kind)}`);
  let stored: Managed;
  try {
    stored = decodeManagedFields(a.live?.metadata?.managedFields ?? []);
  } catch (err) {
    throw new FieldManagerError(
      `failed to decode managed fields: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const annotation = a.lastAppliedAnnotation;
  const id = managerIdentifier({
    manager: a.manager === '' ? 'unknown' : a.manager,
    operation: 'Apply',
    subresource: a.subresource,
  });
  const config = deepClone(a.config);
  const e = engine(a.type, a.subresource, [a.live, config]);
  // A copy: the merged object is built from it, then normalized in place.
  const live = a.live === undefined ? ({} as KubeObject) : withoutManagedFields(deepClone(a.live));
  const types = resolverFor(a.type.definitions);
  const root = types.root(a.type.root);

  const run = (force: boolean): { object: KubeObject; m: Managed } => {
    const m = cloneManaged(stored);
    if (m.fields.size === 0) {
      // The fields an object had before anyone applied to it belong to "before-first-apply".
      try {
        runNow(
          recordUpdate(e, m, e.empty, live, beforeFirstApplyManager, a.apiVersion, a.subresource, a.now),
        );
      } catch (err) {
        if (err instanceof TypedError)
          throw new FieldManagerError(
            `failed to create manager for existing fields: failed to update ManagedFields (${objectName(live)}): ${err.message}`,
          );
        throw err;
      }
    }
    if (config.metadata?.managedFields !== undefined && config.metadata.managedFields !== null)
      throw badRequest('metadata.managedFields must be nil');
    const configErrors = validateTyped(types, config as JsonValue, root);
    if (configErrors.length > 0)
      throw new FieldManagerError(
        `failed to create typed patch object (${objectName(config)}): ${typedErrorsMessage(configErrors)}`,
      );
    const liveErrors = validateTyped(types, live as JsonValue, root);
    if (liveErrors.length > 0)
      throw new FieldManagerError(
        `failed to create typed live object (${objectName(live)}): ${typedErrorsMessage(liveErrors)}`,
      );
    const r = e.updater.applyOp(live as JsonValue, config as JsonValue, a.apiVersion, m.fields, id, force);
    m.fields = r.managers;
    let object: KubeObject;
    if (r.object !== undefined) {
      m.times.set(id, rfc3339Seconds(a.now));
      object = r.object as KubeObject;
    } else object = deepClone(live);
    strip(m.fields, id);
    return { object, m };
  };

  let result: { object: KubeObject; m: Managed };
  try {
    result = run(a.force);
  } catch (err) {
    if (!(err instanceof Conflicts)) throw err;
    if (a.manager !== lastAppliedManager || a.live === undefined)
      throw new ApplyConflictError(conflictList(err.byManager));
    const allowed = fieldsFromLastApplied(types, root, a.live, a.apiVersion, annotation, e.shape);
    if (allowed === undefined) throw new ApplyConflictError(conflictList(err.byManager));
    const remaining = conflictList(err.byManager, allowed);
    if (remaining.length > 0) throw new ApplyConflictError(remaining);
    result = run(true);
  }
  const { object, m } = result;
  // What the real server stores goes through its types: Go structs for built-in kinds, and no nulls.
  if (a.type.goStructs === true) normalizeAsGo(a.type.definitions, object as JsonValue, a.type.root);
  dropNulls(object);
  if (a.manager === lastAppliedManager) syncLastApplied(object, a.config, annotation);
  return finish(object, m);
}

/**
 * A write whose only effect on the object is newer managedFields times is
 * no write: the stored times are kept (the real server's guard against
 * spurious resourceVersion bumps). Entries added, removed or changed are
 * kept as written.
 */
export function ignoreManagedFieldsTimestamps(next: KubeObject, old: KubeObject | undefined): KubeObject {
  return runNow(ignoreManagedFieldsTimestampsWork(next, old));
}

/** `ignoreManagedFieldsTimestamps` as a pass that may pause (the comparison of two wide objects, in slices). */
export function* ignoreManagedFieldsTimestampsWork(
  next: KubeObject,
  old: KubeObject | undefined,
): Work<KubeObject> {
  const now = next.metadata?.managedFields ?? [];
  const before = old?.metadata?.managedFields ?? [];
  if (old === undefined || now.length !== before.length || now.length === 0) return next;
  if (now.every((e, i) => e.time === before[i]?.time)) return next;
  const reverted: KubeObject = { ...next, metadata: { ...next.metadata, managedFields: before } };
  return (yield* deepEqualWork(reverted, old)) ? reverted : next;
}
