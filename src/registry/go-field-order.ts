/**
 * The order in which Go's encoding/json writes each built-in type's fields
 * (its struct's field order), read from `generated/go-field-order*.json`: the
 * generator stores only the permutation of each definition's sorted property
 * names (scripts/gen-registry/field-order.ts says how), not the names again,
 * since the definitions already hold them. Each part of the definitions (the
 * start path's, the lazy one's, see builtins.ts) has its own table, aligned
 * with that part's sorted names. A definition's order is decoded on its first
 * use and kept; the whole table is a few microseconds' work, none of it at
 * start.
 */

import { builtInDefinitionParts, type BuiltInDefinitionPart } from './builtins';

/** One character per property index; the generator's `FIELD_INDEX_ALPHABET`. */
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_';

/** Each loaded part's definition names by their index in its table. */
const indexes = new Map<BuiltInDefinitionPart, Map<string, number>>();
const decoded = new Map<string, readonly string[] | undefined>();

/** A built-in definition's JSON property names in Go's order; `undefined` for one without properties or unknown. */
export function goFieldOrder(definition: string): readonly string[] | undefined {
  if (decoded.has(definition)) return decoded.get(definition);
  for (const part of builtInDefinitionParts()) {
    const def = part.definitions[definition];
    if (def === undefined) continue;
    let indexOf = indexes.get(part);
    if (indexOf === undefined) {
      indexOf = new Map(
        Object.keys(part.definitions)
          .sort()
          .map((name, i) => [name, i]),
      );
      indexes.set(part, indexOf);
    }
    const i = indexOf.get(definition);
    const code = i === undefined ? null : (part.fieldOrder[i] ?? null);
    let order: readonly string[] | undefined;
    if (code !== null) {
      const sorted = Object.keys(def.properties ?? {}).sort();
      order = code === '' ? sorted : [...code].map((c) => sorted[ALPHABET.indexOf(c)] as string);
    }
    decoded.set(definition, order);
    return order;
  }
  // Not kept: a definition of the lazy part asked before it was loaded would otherwise stay unknown.
  return undefined;
}
