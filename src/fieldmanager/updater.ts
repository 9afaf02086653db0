/**
 * The ownership engine, step for step as the real server runs it. An update
 * (any non-apply write) compares the old and new object: the writer takes
 * everything it added or changed, away from whoever had it, and a removed
 * field leaves everyone. An apply merges the configuration into the live
 * object, makes the configuration's fields the applier's set, prunes what
 * the applier set last time and no longer sets (unless someone else owns
 * it), then runs the same comparison — where a change to a field another
 * manager owns is a conflict unless forced.
 */

import type { JsonValue } from '../api/meta';
import { deepEqual } from '../machinery/json';
import { FieldSet } from './field-set';
import type { VersionedSet } from './managed-fields';
import { compareSmall, compareWork, excludeFields, type Comparison } from './typed/compare';
import { runNow, sliceSpent, type Work } from '../machinery/cooperative';
import { mergeValues } from './typed/merge';
import { removeFields } from './typed/remove';
import { ensureNamedFieldsAreMembers, reconcileWithSchema } from './typed/schema-sets';
import { toFieldSet } from './typed/to-field-set';
import type { TypeRef, TypeResolver } from './typed/types';

export type Managers = Map<string, VersionedSet>;

/** Nodes (fields and items of both sides) a comparison walks without a pause before it falls back to steps. */
const smallCompareNodes = 1024;

/** Fields other managers own that the write would change, by owner identity. */
export class Conflicts extends Error {
  constructor(readonly byManager: Map<string, FieldSet>) {
    super('conflicts');
  }
}

export interface UpdaterOptions {
  types: TypeResolver;
  root: TypeRef;
  /** Fields this endpoint never takes ownership of (what the strategy resets, e.g. status on the main resource). */
  ignored?: FieldSet;
  /** How objects are seen when compared (built-in kinds: as Go structs). */
  shape: (v: JsonValue) => JsonValue;
  /** An object never changed (deeply frozen) that writes are often compared from (a create's empty object). */
  empty?: JsonValue;
}

export class Updater {
  constructor(private readonly o: UpdaterOptions) {}

  /** `empty` shaped, made when first compared. */
  private shapedEmpty: JsonValue | undefined;

  /** The old object shaped; the kind's empty object (which every create starts from) is shaped once. */
  private shapeOld(oldObj: JsonValue): JsonValue {
    if (this.o.empty === undefined || oldObj !== this.o.empty) return this.o.shape(oldObj);
    return (this.shapedEmpty ??= this.o.shape(oldObj));
  }

  /** The comparison of the shaped objects; pauses between its steps and inside wide objects. */
  private *compare(oldObj: JsonValue, newObj: JsonValue): Work<Comparison> {
    const oldShaped = this.shapeOld(oldObj);
    if (sliceSpent()) yield;
    const newShaped = this.o.shape(newObj);
    if (sliceSpent()) yield;
    // A small object (a create's ConfigMap) is compared at once; a wide one in steps that may pause.
    const c =
      compareSmall(this.o.types, oldShaped, newShaped, this.o.root, smallCompareNodes) ??
      (yield* compareWork(this.o.types, oldShaped, newShaped, this.o.root));
    if (sliceSpent()) yield;
    return excludeFields(c, this.o.ignored);
  }

  private reconcile(managers: Managers): Managers {
    const out: Managers = new Map();
    for (const [id, vs] of managers) {
      const r = reconcileWithSchema(this.o.types, vs.set, this.o.root);
      out.set(id, r === undefined ? vs : { ...vs, set: r });
    }
    return out;
  }

  private *update(
    oldObj: JsonValue,
    newObj: JsonValue,
    managers: Managers,
    workflow: string,
    force: boolean,
  ): Work<Comparison> {
    const c = yield* this.compare(oldObj, newObj);
    // Only another manager's set can conflict: a create (no managers yet) needs no union of the changes.
    let changed: FieldSet | undefined;
    const conflicts = new Map<string, FieldSet>();
    for (const [id, vs] of managers) {
      if (id === workflow) continue;
      changed ??= c.modified.union(c.added);
      const conflict = vs.set.intersection(changed);
      if (!conflict.empty()) conflicts.set(id, conflict);
      if (sliceSpent()) yield;
    }
    if (!force && conflicts.size > 0) throw new Conflicts(conflicts);
    for (const [id, conflict] of conflicts) {
      const vs = managers.get(id) as VersionedSet;
      managers.set(id, { ...vs, set: vs.set.difference(conflict) });
    }
    if (!c.removed.empty()) {
      for (const [id, vs] of managers)
        if (id !== workflow) managers.set(id, { ...vs, set: vs.set.difference(c.removed) });
    }
    for (const [id, vs] of managers) if (vs.set.empty()) managers.delete(id);
    return c;
  }

  /** A non-apply write by `manager`: it takes what it added or changed. */
  updateOp(
    live: JsonValue,
    next: JsonValue,
    version: string,
    managersIn: Managers,
    manager: string,
  ): Managers {
    return runNow(this.updateOpWork(live, next, version, managersIn, manager));
  }

  /** `updateOp` as work that may pause (machinery/cooperative.ts). */
  *updateOpWork(
    live: JsonValue,
    next: JsonValue,
    version: string,
    managersIn: Managers,
    manager: string,
  ): Work<Managers> {
    const managers = this.reconcile(managersIn);
    if (sliceSpent()) yield;
    const c = yield* this.update(live, next, managers, manager, true);
    const prev = managers.get(manager)?.set ?? new FieldSet();
    let set = prev.union(c.modified);
    if (sliceSpent()) yield;
    set = set.union(c.added);
    if (sliceSpent()) yield;
    set = set.difference(c.removed);
    if (this.o.ignored !== undefined) set = set.recursiveDifference(this.o.ignored);
    if (set.empty()) managers.delete(manager);
    else managers.set(manager, { set, apiVersion: version, applied: false });
    return managers;
  }

  /** An apply of `config` by `manager`; `object` is undefined when the object does not change. */
  applyOp(
    live: JsonValue,
    config: JsonValue,
    version: string,
    managersIn: Managers,
    manager: string,
    force: boolean,
  ): { object: JsonValue | undefined; managers: Managers } {
    const managers = this.reconcile(managersIn);
    let merged: JsonValue = mergeValues(this.o.types, live, config, this.o.root) ?? {};
    const lastSet = managers.get(manager);
    let set = toFieldSet(this.o.types, config, this.o.root);
    if (this.o.ignored !== undefined) set = set.recursiveDifference(this.o.ignored);
    managers.set(manager, { set, apiVersion: version, applied: true });
    // Nothing can be pruned when the applier still sets everything it set before.
    if (lastSet !== undefined && !lastSet.set.difference(set).empty())
      merged = this.prune(merged, managers, lastSet);
    // Pruning can empty a container the configuration names as empty (`{}`), which would come back on the
    // next apply; merging the configuration once more keeps it, so that apply is idempotent.
    merged = mergeValues(this.o.types, merged, config, this.o.root) ?? merged;
    runNow(this.update(live, merged, managers, manager, force));
    return { object: deepEqual(live, merged) ? undefined : merged, managers };
  }

  private named(set: FieldSet): FieldSet {
    return ensureNamedFieldsAreMembers(this.o.types, set, this.o.root);
  }

  private fieldsOf(v: JsonValue): FieldSet {
    return this.named(toFieldSet(this.o.types, v, this.o.root));
  }

  private remove(v: JsonValue, set: FieldSet): JsonValue {
    return removeFields(this.o.types, v, set, this.o.root);
  }

  /** Removes what the applier set last time and no longer does, unless another manager (or its new set) owns it. */
  private prune(merged: JsonValue, managers: Managers, lastSet: VersionedSet | undefined): JsonValue {
    if (lastSet === undefined || lastSet.set.empty()) return merged;
    const last = this.named(lastSet.set);
    let pruned = this.remove(merged, last);
    // Add back what anyone owns.
    let owned = new FieldSet();
    for (const vs of managers.values()) owned = owned.union(vs.set);
    const mergedSet = this.fieldsOf(merged);
    pruned = this.remove(merged, mergedSet.difference(this.fieldsOf(pruned).union(this.named(owned))));
    // Remove only what the applier had set: fields nobody owns (defaults, server-set) stay.
    return this.remove(merged, mergedSet.difference(this.fieldsOf(pruned)).intersection(last));
  }
}
