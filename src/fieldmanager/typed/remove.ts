/**
 * Removing a set of fields from an object — how apply drops what a manager
 * stopped applying. Members of the set go (a struct field, a map key, a
 * list item, with everything under it); deeper members are removed inside.
 * A container left empty becomes null, as on the real server, and nulls
 * disappear when the object is stored.
 */

import type { JsonValue } from '../../api/meta';
import type { FieldSet } from '../field-set';
import { fieldPE } from '../path';
import { asList, asMap, atomKind, deduceAtom, type TypeRef, type TypeResolver } from './types';

/** `value` without the members of `toRemove`; null where a container ends up empty. */
export function removeFields(
  types: TypeResolver,
  value: JsonValue,
  toRemove: FieldSet,
  ref: TypeRef,
): JsonValue {
  const atom = deduceAtom(types.atom(ref), value);
  switch (atomKind(atom)) {
    case 'scalar':
      return value;
    case 'list': {
      const list = atom.list;
      const items = asList(value);
      if (list === undefined || items === undefined || items.length === 0 || list.atomic) return null;
      const out: JsonValue[] = [];
      for (const item of items) {
        const pe = types.itemPE(list, item);
        if (toRemove.hasMember(pe)) continue;
        const sub = toRemove.child(pe);
        out.push(sub !== undefined && !sub.empty() ? removeFields(types, item, sub, list.element) : item);
      }
      return out.length > 0 ? out : null;
    }
    case 'map': {
      const map = atom.map;
      const m = asMap(value);
      if (map === undefined || m === undefined || Object.keys(m).length === 0 || map.atomic) return null;
      const out: Record<string, JsonValue> = {};
      for (const [key, v] of Object.entries(m)) {
        const pe = fieldPE(key);
        if (toRemove.hasMember(pe)) continue;
        const sub = toRemove.child(pe);
        out[key] =
          sub !== undefined && !sub.empty()
            ? removeFields(types, v, sub, types.fieldType(map, key) ?? 'deduced')
            : v;
      }
      return Object.keys(out).length > 0 ? out : null;
    }
    default:
      return null;
  }
}
