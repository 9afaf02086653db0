/**
 * Field-set operations that read the schema: reconciling a recorded set
 * with a schema that changed since it was written (a list, map or struct
 * that became atomic is owned as a whole by everyone who owned a part of
 * it; one that became granular stays owned as a whole only at its top, so
 * nobody owns its parts), and naming the struct fields on the way to owned
 * fields as owned too, which pruning needs to remove a whole struct.
 */

import { FieldSet } from '../field-set';
import type { PathElement } from '../path';
import type { TypeRef, TypeResolver } from './types';

/** The set adjusted to the current schema; undefined when nothing changed. */
export function reconcileWithSchema(types: TypeResolver, set: FieldSet, root: TypeRef): FieldSet | undefined {
  const toRemove = new FieldSet();
  walk(types, set, root, [], false, toRemove);
  if (toRemove.empty()) return undefined;
  // Each collapsed node is owned as a whole: drop what was under it, keep the node itself.
  return set.recursiveDifference(toRemove).union(toRemove);
}

function walk(
  types: TypeResolver,
  set: FieldSet | undefined,
  ref: TypeRef,
  path: PathElement[],
  isAtomic: boolean,
  toRemove: FieldSet,
): void {
  if (ref === 'deduced') return; // objects without a schema have no atomic/granular markers to reconcile
  const atom = types.atom(ref);
  const map = atom.map;
  const list = atom.list;
  if (map !== undefined) {
    if (!isAtomic && map.atomic) {
      if (set !== undefined && set.size() > 0) toRemove.insert(path);
      return;
    }
    if (set !== undefined)
      visit(types, set, path, toRemove, (pe) =>
        pe.kind === 'field' ? types.fieldType(map, pe.name) : undefined,
      );
    return;
  }
  if (list !== undefined) {
    if (!isAtomic && list.atomic) {
      toRemove.insert(path);
      return;
    }
    if (set !== undefined) visit(types, set, path, toRemove, () => list.element);
  }
}

function visit(
  types: TypeResolver,
  set: FieldSet,
  path: PathElement[],
  toRemove: FieldSet,
  typeOf: (pe: PathElement) => TypeRef | undefined,
): void {
  const handle = (pe: PathElement, isMember: boolean): void => {
    const t = typeOf(pe);
    if (t === undefined) return;
    const children = set.child(pe);
    walk(types, children, t, [...path, pe], isMember && children === undefined, toRemove);
  };
  for (const c of set.children) if (!set.hasMember(c.pe)) handle(c.pe, false);
  for (const m of set.members) handle(m, true);
}

/** `set` plus every declared struct field that leads to one of its members. */
export function ensureNamedFieldsAreMembers(types: TypeResolver, set: FieldSet, ref: TypeRef): FieldSet {
  const out = new FieldSet();
  for (const m of set.members) out.members.push(m);
  const atom = types.atom(ref);
  for (const c of set.children) {
    let childType: TypeRef | undefined;
    if (c.pe.kind === 'field' && atom.map !== undefined) {
      if (types.isDeclaredField(atom.map, c.pe.name)) out.insertMember(c.pe);
      childType = types.fieldType(atom.map, c.pe.name);
    } else if (c.pe.kind === 'key' && atom.list !== undefined) childType = atom.list.element;
    out.children.push({
      pe: c.pe,
      set: childType === undefined ? c.set : ensureNamedFieldsAreMembers(types, c.set, childType),
    });
  }
  return out;
}
