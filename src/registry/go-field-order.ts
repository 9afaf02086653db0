/**
 * The order in which Go's encoding/json writes each built-in type's fields
 * (its struct's field order), read from `generated/go-field-order.json`: the
 * generator stores only the permutation of each definition's sorted property
 * names (scripts/gen-registry/field-order.ts says how), not the names again,
 * since the definitions already hold them. A definition's order is decoded on
 * its first use and kept; the whole table is a few microseconds' work, none
 * of it at start.
 */

import orders from './generated/go-field-order.json';
import { builtInDefinitions } from './builtins';

/** One character per property index; the generator's `FIELD_INDEX_ALPHABET`. */
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_';

const encoded = orders as readonly (string | null)[];
let indexOf: Map<string, number> | undefined;
const decoded = new Map<string, readonly string[] | undefined>();

/** A built-in definition's JSON property names in Go's order; `undefined` for one without properties or unknown. */
export function goFieldOrder(definition: string): readonly string[] | undefined {
  if (decoded.has(definition)) return decoded.get(definition);
  indexOf ??= new Map(
    Object.keys(builtInDefinitions)
      .sort()
      .map((name, i) => [name, i]),
  );
  const i = indexOf.get(definition);
  const code = i === undefined ? null : (encoded[i] ?? null);
  let order: readonly string[] | undefined;
  if (code !== null) {
    const sorted = Object.keys(builtInDefinitions[definition]?.properties ?? {}).sort();
    order = code === '' ? sorted : [...code].map((c) => sorted[ALPHABET.indexOf(c)] as string);
  }
  decoded.set(definition, order);
  return order;
}
