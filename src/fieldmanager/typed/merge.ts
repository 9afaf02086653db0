/**
 * Merging an applied configuration into the live object: where both set a
 * leaf (scalar, atomic list or map) the configuration wins; struct fields,
 * map keys and associative-list items merge one by one. A merged list
 * follows the configuration's order for the items it names and keeps the
 * live items it does not name where they were, as the real server orders
 * them. A `null` container in the configuration leaves the live one alone.
 */

import type { JsonValue } from '../../api/meta';
import { fieldPE, pathString, peString, serializePE, type PathElement } from '../path';
import {
  asList,
  asMap,
  atomKind,
  deduceAtom,
  TypedError,
  type Atom,
  type ListAtom,
  type MapAtom,
  type TypeRef,
  type TypeResolver,
} from './types';

/** The merge of `rhs` into `lhs`; undefined when neither side has anything. */
export function mergeValues(
  types: TypeResolver,
  lhs: JsonValue | undefined,
  rhs: JsonValue | undefined,
  ref: TypeRef,
): JsonValue | undefined {
  return node(types, lhs, rhs, ref, []);
}

interface Walker {
  types: TypeResolver;
  lhs: JsonValue | undefined;
  rhs: JsonValue | undefined;
  path: PathElement[];
  inLeaf: boolean;
  out: JsonValue | undefined;
}

function node(
  types: TypeResolver,
  lhs: JsonValue | undefined,
  rhs: JsonValue | undefined,
  ref: TypeRef,
  path: PathElement[],
): JsonValue | undefined {
  if (lhs === undefined && rhs === undefined) return undefined;
  const atom = types.atom(ref);
  // Only the configuration's reading of the atom decides the output (the live one may differ, e.g. null).
  const w: Walker = { types, lhs, rhs, path, inLeaf: false, out: undefined };
  handle(w, deduceAtom(atom, rhs));
  return w.out;
}

function handle(w: Walker, atom: Atom): void {
  switch (atomKind(atom)) {
    case 'scalar':
      leaf(w);
      return;
    case 'list':
      list(w, atom.list as ListAtom);
      return;
    case 'map':
      map(w, atom.map as MapAtom);
      return;
    default:
      return;
  }
}

function leaf(w: Walker): void {
  if (w.inLeaf) return;
  w.inLeaf = true;
  w.out = w.rhs !== undefined ? w.rhs : w.lhs;
}

interface Indexed {
  pes: PathElement[];
  ids: string[];
  byId: Map<string, JsonValue>;
}

function index(w: Walker, t: ListAtom, values: JsonValue[] | undefined): Indexed {
  const out: Indexed = { pes: [], ids: [], byId: new Map() };
  values?.forEach((v, i) => {
    let pe: PathElement;
    try {
      pe = w.types.itemPE(t, v);
    } catch (e) {
      if (e instanceof TypedError) throw new TypedError(pathString(w.path), `element ${i}: ${e.detail}`);
      throw e;
    }
    const id = serializePE(pe);
    if (out.byId.has(id))
      throw new TypedError(pathString(w.path), `duplicate entries for key ${peString(pe)}`);
    out.byId.set(id, v);
    out.pes.push(pe);
    out.ids.push(id);
  });
  return out;
}

function list(w: Walker, t: ListAtom): void {
  const l = asList(w.lhs);
  const r = asList(w.rhs);
  if (t.atomic || ((l === undefined || l.length === 0) && (r === undefined || r.length === 0))) {
    leaf(w);
    return;
  }
  const rhs = index(w, t, r);
  const lhs = index(w, t, l);
  const out: JsonValue[] = [];
  const merged = new Set<string>();
  const item = (id: string, pe: PathElement): void => {
    merged.add(id);
    const v = node(w.types, lhs.byId.get(id), rhs.byId.get(id), t.element, [...w.path, pe]);
    if (v !== undefined) out.push(v);
  };
  // Items both sides have, in the configuration's order: each is placed when its turn comes on both sides.
  const shared = rhs.ids.filter((id) => lhs.byId.has(id));
  let next = 0;
  const nextShared = (): string | undefined => shared[next];
  let li = 0;
  let ri = 0;
  while (li < lhs.ids.length || ri < rhs.ids.length) {
    if (li < lhs.ids.length && ri < rhs.ids.length) {
      const lid = lhs.ids[li] as string;
      if (lid === rhs.ids[ri]) {
        item(lid, lhs.pes[li] as PathElement);
        li++;
        ri++;
        next++;
        continue;
      }
      if (rhs.byId.has(lid) && nextShared() !== undefined && nextShared() !== lid) {
        li++; // a shared item whose turn has not come yet: the configuration places it
        continue;
      }
    }
    if (li < lhs.ids.length) {
      const lid = lhs.ids[li] as string;
      if (!rhs.byId.has(lid)) {
        item(lid, lhs.pes[li] as PathElement);
        li++;
        continue;
      }
      if (merged.has(lid)) {
        li++; // already placed by the configuration (keeps the walk finite)
        continue;
      }
    }
    if (ri < rhs.ids.length) {
      const rid = rhs.ids[ri] as string;
      item(rid, rhs.pes[ri] as PathElement);
      ri++;
      if (nextShared() === rid) next++;
    }
  }
  if (out.length > 0) w.out = out;
}

function map(w: Walker, t: MapAtom): void {
  const l = asMap(w.lhs);
  const r = asMap(w.rhs);
  const lEmpty = l === undefined || Object.keys(l).length === 0;
  const rEmpty = r === undefined || Object.keys(r).length === 0;
  if (t.atomic || (lEmpty && rEmpty)) {
    leaf(w);
    return;
  }
  const out: Record<string, JsonValue> = {};
  const keys = new Set([...Object.keys(l ?? {}), ...Object.keys(r ?? {})]);
  for (const key of keys) {
    const lv = l !== undefined && Object.hasOwn(l, key) ? l[key] : undefined;
    const rv = r !== undefined && Object.hasOwn(r, key) ? r[key] : undefined;
    const v = node(w.types, lv, rv, w.types.fieldType(t, key) ?? 'deduced', [...w.path, fieldPE(key)]);
    if (v !== undefined) out[key] = v;
  }
  if (Object.keys(out).length > 0) w.out = out;
}
