/**
 * The set of fields an object sets — what an applied configuration claims.
 * Scalars and atomic lists/maps are leaves; associative list items and
 * non-struct map keys are members themselves (so an item or key can be
 * owned and removed as a whole); struct fields are owned only through what
 * they contain.
 */

import type { JsonValue } from '../../api/meta';
import { FieldSet } from '../field-set';
import { fieldPE, pathString, type PathElement } from '../path';
import { asList, asMap, atomKind, deduceAtom, TypedError, type TypeRef, type TypeResolver } from './types';

export function toFieldSet(types: TypeResolver, value: JsonValue, ref: TypeRef): FieldSet {
  const set = new FieldSet();
  walk(types, value, ref, [], set);
  return set;
}

function walk(types: TypeResolver, value: JsonValue, ref: TypeRef, path: PathElement[], set: FieldSet): void {
  const atom = deduceAtom(types.atom(ref), value);
  switch (atomKind(atom)) {
    case 'scalar':
      set.insert(path);
      return;
    case 'list': {
      const list = atom.list;
      if (list === undefined) return;
      if (list.atomic) {
        set.insert(path);
        return;
      }
      const items = asList(value);
      if (items === undefined) return;
      items.forEach((item, i) => {
        let pe: PathElement;
        try {
          pe = types.itemPE(list, item);
        } catch (e) {
          if (e instanceof TypedError) throw new TypedError(pathString(path), `element ${i}: ${e.detail}`);
          throw e;
        }
        const p = [...path, pe];
        walk(types, item, list.element, p, set);
        set.insert(p);
      });
      return;
    }
    case 'map': {
      const map = atom.map;
      if (map === undefined) return;
      if (map.atomic) {
        set.insert(path);
        return;
      }
      const m = asMap(value);
      if (m === undefined) return;
      for (const [key, v] of Object.entries(m)) {
        const p = [...path, fieldPE(key)];
        walk(types, v, types.fieldType(map, key) ?? 'deduced', p, set);
        if (!types.isDeclaredField(map, key)) set.insert(p);
      }
      return;
    }
    default:
      return;
  }
}
