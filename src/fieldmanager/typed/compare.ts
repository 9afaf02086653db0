/**
 * What changed between two versions of an object, as three field sets:
 * added, modified, removed. Leaves (scalars, atomic lists and maps, and
 * containers that are empty on both sides) compare by value; a container
 * that appears or disappears is itself added or removed along with
 * everything inside it. Writers take ownership of what they add or modify;
 * a field removed is removed from everyone's ownership.
 */

import type { JsonValue } from '../../api/meta';
import { deepEqual } from '../../machinery/json';
import { pauseDue, runNow, sliceSpent, type Work } from '../../machinery/cooperative';
import { FieldSet } from '../field-set';
import { fieldPE, pathString, peString, serializePE, type PathElement } from '../path';
import {
  asList,
  asMap,
  atomKind,
  deduceAtom,
  sameAtom,
  TypedError,
  type Atom,
  type ListAtom,
  type MapAtom,
  type TypeRef,
  type TypeResolver,
} from './types';

export interface Comparison {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

export function isSame(c: Comparison): boolean {
  return c.added.empty() && c.modified.empty() && c.removed.empty();
}

/** Drops `fields` (and everything under them) from every part of a comparison. */
export function excludeFields(c: Comparison, fields: FieldSet | undefined): Comparison {
  if (fields === undefined || fields.empty()) return c;
  return {
    added: c.added.recursiveDifference(fields),
    modified: c.modified.recursiveDifference(fields),
    removed: c.removed.recursiveDifference(fields),
  };
}

export function compareValues(
  types: TypeResolver,
  lhs: JsonValue | undefined,
  rhs: JsonValue | undefined,
  ref: TypeRef,
): Comparison {
  return runNow(compareWork(types, lhs, rhs, ref));
}

/** `compareValues` as work that may pause between the fields of a wide object (machinery/cooperative.ts). */
export function* compareWork(
  types: TypeResolver,
  lhs: JsonValue | undefined,
  rhs: JsonValue | undefined,
  ref: TypeRef,
): Work<Comparison> {
  const c: Comparison = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  yield* node(types, c, lhs, rhs, ref, []);
  return c;
}

interface Walker {
  types: TypeResolver;
  c: Comparison;
  lhs: JsonValue | undefined;
  rhs: JsonValue | undefined;
  path: PathElement[];
  inLeaf: boolean;
}

function* node(
  types: TypeResolver,
  c: Comparison,
  lhs: JsonValue | undefined,
  rhs: JsonValue | undefined,
  ref: TypeRef,
  path: PathElement[],
): Work<void> {
  const atom = types.atom(ref);
  const al = deduceAtom(atom, lhs);
  const ar = deduceAtom(atom, rhs);
  const w: Walker = { types, c, lhs, rhs, path, inLeaf: false };
  if (rhs === undefined) yield* handle(w, al);
  else if (lhs === undefined || sameAtom(al, ar)) yield* handle(w, ar);
  else {
    yield* handle({ ...w }, al);
    yield* handle(w, ar);
  }
  if (!w.inLeaf) {
    if (lhs === undefined) c.added.insert(path);
    else if (rhs === undefined) c.removed.insert(path);
  }
}

/**
 * `node` at once for a member whose sides are leaves of scalar type (a wide map's strings), as `node` would
 * record it; false, with nothing done, otherwise. A generator per member was most of a wide map's
 * comparison, and of its garbage.
 */
function scalarNode(
  types: TypeResolver,
  c: Comparison,
  lhs: JsonValue | undefined,
  rhs: JsonValue | undefined,
  ref: TypeRef,
  parent: PathElement[],
  key: string,
): boolean {
  if ((typeof lhs === 'object' && lhs !== null) || (typeof rhs === 'object' && rhs !== null)) return false;
  const atom = types.atom(ref);
  // The atoms `node` hands on: the left's when the right is absent, else the right's, and the left's too when they differ.
  const al = deduceAtom(atom, lhs);
  const ar = deduceAtom(atom, rhs);
  if (rhs === undefined || lhs === undefined || !sameAtom(al, ar)) {
    if (rhs !== undefined && atomKind(ar) !== 'scalar') return false;
    if (lhs !== undefined && rhs !== undefined && atomKind(al) !== 'scalar') return false;
    if (rhs === undefined && atomKind(al) !== 'scalar') return false;
  } else if (atomKind(ar) !== 'scalar') return false;
  leaf({ types, c, lhs, rhs, path: [...parent, fieldPE(key)], inLeaf: false });
  return true;
}

function* handle(w: Walker, atom: Atom): Work<void> {
  switch (atomKind(atom)) {
    case 'scalar':
      leaf(w);
      return;
    case 'list':
      yield* list(w, atom.list as ListAtom);
      return;
    case 'map':
      yield* map(w, atom.map as MapAtom);
      return;
    default:
      return;
  }
}

function leaf(w: Walker): void {
  if (w.inLeaf) return;
  w.inLeaf = true;
  if (w.lhs === undefined) w.c.added.insert(w.path);
  else if (w.rhs === undefined) w.c.removed.insert(w.path);
  else if (!deepEqual(w.lhs, w.rhs)) w.c.modified.insert(w.path);
}

function* list(w: Walker, t: ListAtom): Work<void> {
  const l = asList(w.lhs);
  const r = asList(w.rhs);
  if (t.atomic || ((l === undefined || l.length === 0) && (r === undefined || r.length === 0))) {
    leaf(w);
    return;
  }
  const items = listItems(w, t, l, r);
  for (const { pe, l: lv, r: rv } of items.values()) {
    yield* node(w.types, w.c, lv, rv, t.element, [...w.path, pe]);
    if (pauseDue()) yield;
  }
}

/** A keyed list's items of both sides by their path element, in first-seen order (left, then right). */
function listItems(
  w: Walker,
  t: ListAtom,
  l: JsonValue[] | undefined,
  r: JsonValue[] | undefined,
): Map<string, { pe: PathElement; l?: JsonValue; r?: JsonValue }> {
  const items = new Map<string, { pe: PathElement; l?: JsonValue; r?: JsonValue }>();
  const index = (values: JsonValue[] | undefined, side: 'l' | 'r'): void => {
    values?.forEach((v, i) => {
      let pe: PathElement;
      try {
        pe = w.types.itemPE(t, v);
      } catch (e) {
        if (e instanceof TypedError) throw new TypedError(pathString(w.path), `element ${i}: ${e.detail}`);
        throw e;
      }
      const id = serializePE(pe);
      const entry = items.get(id) ?? { pe };
      if (entry[side] !== undefined)
        throw new TypedError(pathString(w.path), `duplicate entries for key ${peString(pe)}`);
      entry[side] = v;
      items.set(id, entry);
    });
  };
  index(l, 'l');
  index(r, 'r');
  return items;
}

function* map(w: Walker, t: MapAtom): Work<void> {
  const l = asMap(w.lhs);
  const r = asMap(w.rhs);
  // Each side's keys listed once (for…in to test emptiness listed a wide map's every key again, in one step);
  // each listing of a wide map is one native step of tens of ms, so others may run between them.
  const lKeys = l !== undefined ? Object.keys(l) : [];
  if (sliceSpent()) yield;
  const rKeys = r !== undefined ? Object.keys(r) : [];
  if (sliceSpent()) yield;
  if (t.atomic || (lKeys.length === 0 && rKeys.length === 0)) {
    leaf(w);
    return;
  }
  // Every key of either side once: the left's, then the right's the left does not have.
  const visit = function* (key: string): Work<void> {
    const lv = l !== undefined && Object.hasOwn(l, key) ? l[key] : undefined;
    const rv = r !== undefined && Object.hasOwn(r, key) ? r[key] : undefined;
    const ref = w.types.fieldType(t, key) ?? 'deduced';
    if (!scalarNode(w.types, w.c, lv, rv, ref, w.path, key))
      yield* node(w.types, w.c, lv, rv, ref, [...w.path, fieldPE(key)]);
  };
  for (const key of lKeys) {
    yield* visit(key);
    if (pauseDue()) yield;
  }
  if (r !== undefined)
    for (const key of rKeys) {
      if (l !== undefined && Object.hasOwn(l, key)) continue;
      yield* visit(key);
      if (pauseDue()) yield;
    }
}

/**
 * `compareValues` for an object of at most `budget` nodes, walked with plain calls instead of a generator per
 * node (most of a small create's comparison was the generators' frames and garbage); undefined, with the
 * partial result dropped, once the walk passes `budget` — the caller then runs `compareWork`, which may pause.
 * Node for node the same walk as `node`, `handle`, `list` and `map` above, so the same three sets.
 */
export function compareSmall(
  types: TypeResolver,
  lhs: JsonValue | undefined,
  rhs: JsonValue | undefined,
  ref: TypeRef,
  budget: number,
): Comparison | undefined {
  const c: Comparison = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  const left = { n: budget };
  return nodeNow(types, c, lhs, rhs, ref, [], left) ? c : undefined;
}

/** `node` without pauses; false once the budget is spent. */
function nodeNow(
  types: TypeResolver,
  c: Comparison,
  lhs: JsonValue | undefined,
  rhs: JsonValue | undefined,
  ref: TypeRef,
  path: PathElement[],
  left: { n: number },
): boolean {
  if (--left.n < 0) return false;
  const atom = types.atom(ref);
  const al = deduceAtom(atom, lhs);
  const ar = deduceAtom(atom, rhs);
  const w: Walker = { types, c, lhs, rhs, path, inLeaf: false };
  if (rhs === undefined) {
    if (!handleNow(w, al, left)) return false;
  } else if (lhs === undefined || sameAtom(al, ar)) {
    if (!handleNow(w, ar, left)) return false;
  } else if (!handleNow({ ...w }, al, left) || !handleNow(w, ar, left)) return false;
  if (!w.inLeaf) {
    if (lhs === undefined) c.added.insert(path);
    else if (rhs === undefined) c.removed.insert(path);
  }
  return true;
}

function handleNow(w: Walker, atom: Atom, left: { n: number }): boolean {
  switch (atomKind(atom)) {
    case 'scalar':
      leaf(w);
      return true;
    case 'list':
      return listNow(w, atom.list as ListAtom, left);
    case 'map':
      return mapNow(w, atom.map as MapAtom, left);
    default:
      return true;
  }
}

function listNow(w: Walker, t: ListAtom, left: { n: number }): boolean {
  const l = asList(w.lhs);
  const r = asList(w.rhs);
  if (t.atomic || ((l === undefined || l.length === 0) && (r === undefined || r.length === 0))) {
    leaf(w);
    return true;
  }
  const items = listItems(w, t, l, r);
  for (const { pe, l: lv, r: rv } of items.values())
    if (!nodeNow(w.types, w.c, lv, rv, t.element, [...w.path, pe], left)) return false;
  return true;
}

function mapNow(w: Walker, t: MapAtom, left: { n: number }): boolean {
  const l = asMap(w.lhs);
  const r = asMap(w.rhs);
  const lKeys = l !== undefined ? Object.keys(l) : [];
  const rKeys = r !== undefined ? Object.keys(r) : [];
  if (t.atomic || (lKeys.length === 0 && rKeys.length === 0)) {
    leaf(w);
    return true;
  }
  const visit = (key: string): boolean => {
    if (--left.n < 0) return false;
    const lv = l !== undefined && Object.hasOwn(l, key) ? l[key] : undefined;
    const rv = r !== undefined && Object.hasOwn(r, key) ? r[key] : undefined;
    const ref = w.types.fieldType(t, key) ?? 'deduced';
    return (
      scalarNode(w.types, w.c, lv, rv, ref, w.path, key) ||
      nodeNow(w.types, w.c, lv, rv, ref, [...w.path, fieldPE(key)], left)
    );
  };
  for (const key of lKeys) if (!visit(key)) return false;
  if (r !== undefined)
    for (const key of rKeys) {
      if (l !== undefined && Object.hasOwn(l, key)) continue;
      if (!visit(key)) return false;
    }
  return true;
}
