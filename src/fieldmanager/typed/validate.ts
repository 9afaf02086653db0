/**
 * The structural checks the real server makes before it can track fields
 * of an object: every associative-list item must name itself (all key
 * fields present or defaulted, maps in keyed lists, scalars in sets) and no
 * two items may share a name. Type mismatches are left to schema
 * validation, which words them for the client.
 */

import type { JsonValue } from '../../api/meta';
import { fieldPE, pathString, peString, serializePE, type PathElement } from '../path';
import { asList, asMap, atomKind, deduceAtom, TypedError, type TypeRef, type TypeResolver } from './types';

export function validateTyped(types: TypeResolver, value: JsonValue, ref: TypeRef): TypedError[] {
  const errors: TypedError[] = [];
  walk(types, value, ref, [], errors);
  return errors;
}

/** All errors as one message, as the real server aggregates them. */
export function typedErrorsMessage(errors: readonly TypedError[]): string {
  if (errors.length === 1) return (errors[0] as TypedError).message;
  return ['errors:', ...errors.map((e) => `  ${e.message}`)].join('\n');
}

function walk(
  types: TypeResolver,
  value: JsonValue,
  ref: TypeRef,
  path: PathElement[],
  errors: TypedError[],
): void {
  const atom = deduceAtom(types.atom(ref), value);
  switch (atomKind(atom)) {
    case 'list': {
      const list = atom.list;
      const items = asList(value);
      if (list === undefined || items === undefined || list.atomic) return;
      const seen = new Set<string>();
      for (let i = 0; i < items.length; i++) {
        const item = items[i] as JsonValue;
        let pe: PathElement;
        try {
          pe = types.itemPE(list, item);
        } catch (e) {
          if (!(e instanceof TypedError)) throw e;
          errors.push(new TypedError(pathString(path), `element ${i}: ${e.detail}`));
          return;
        }
        const id = serializePE(pe);
        if (seen.has(id))
          errors.push(new TypedError(pathString(path), `duplicate entries for key ${peString(pe)}`));
        seen.add(id);
        walk(types, item, list.element, [...path, pe], errors);
      }
      return;
    }
    case 'map': {
      const map = atom.map;
      const m = asMap(value);
      if (map === undefined || m === undefined || map.atomic) return;
      for (const [key, v] of Object.entries(m))
        walk(types, v, types.fieldType(map, key) ?? 'deduced', [...path, fieldPE(key)], errors);
      return;
    }
    default:
      return;
  }
}
