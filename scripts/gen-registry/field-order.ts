/**
 * The order in which Go's encoding/json writes each built-in type's fields:
 * the order of the Go struct's fields. go-to-protobuf writes a type's
 * message fields in that same order (field numbers are assigned once and
 * kept, so they do not follow it: `ServiceSpec.clusterIPs` is field 18 and
 * sits after `clusterIP`), so the declaration order in `generated.proto` is
 * the fact this reads. TypeMeta (`kind`, `apiVersion`) is the first,
 * embedded field of every kind and is not part of the message; a Go embedded
 * struct (`inline`, e.g. `Volume.volumeSource`) writes its own fields at its
 * place. Definitions without a message (the Table kinds, `version.Info`)
 * take their order from `tables.ts`.
 */

import type { Type } from 'protobufjs';
import type { DefinitionSet } from '../../src/machinery/schema';
import { neutralProtoName, protoNameOfDefinition } from './names';
import type { ProtoAnnotations, ProtoIndex } from './proto';
import { GO_FIELD_ORDER_WITHOUT_MESSAGE } from './tables';

const typeMeta = ['kind', 'apiVersion'];

function messageOrder(message: Type, annotations: ProtoAnnotations, visiting: Set<Type>): string[] {
  if (visiting.has(message)) throw new Error(`${message.fullName} embeds itself`);
  const notes = annotations.get(neutralProtoName(message.fullName.slice(1)));
  const out: string[] = [];
  // protobufjs keeps the fields in the order the .proto file declares them.
  for (const field of message.fieldsArray) {
    const note = notes?.get(field.name);
    if (note?.inline === true) {
      field.resolve();
      const embedded = field.resolvedType;
      if (embedded === null || !('fieldsArray' in embedded))
        throw new Error(`${message.fullName}.${field.name} is inline but not a message`);
      out.push(...messageOrder(embedded as Type, annotations, new Set([...visiting, message])));
    } else out.push(note?.jsonName ?? field.name);
  }
  return out;
}

/** Definition name → its JSON property names in Go's order; every property of every definition is placed. */
export function goFieldOrder(
  definitions: DefinitionSet,
  protos: ProtoIndex,
  annotations: ProtoAnnotations,
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const name of Object.keys(definitions).sort()) {
    const properties = Object.keys(definitions[name]?.properties ?? {});
    if (properties.length === 0) continue;
    const message = protos.messages.get(protoNameOfDefinition(name));
    let order: string[];
    if (message !== undefined) {
      const fields = messageOrder(message, annotations, new Set());
      // A kind's TypeMeta; types with fields of these names (OwnerReference, ManagedFieldsEntry) keep their own.
      const meta = typeMeta.filter((p) => properties.includes(p) && !fields.includes(p));
      order = [...meta, ...fields.filter((f) => properties.includes(f))];
    } else {
      const written = GO_FIELD_ORDER_WITHOUT_MESSAGE[name];
      if (written === undefined) throw new Error(`${name} has no message and no written field order`);
      order = written;
    }
    const missing = properties.filter((p) => !order.includes(p));
    const extra = order.filter((p) => !properties.includes(p));
    if (missing.length > 0 || extra.length > 0)
      throw new Error(
        `${name}: field order lacks [${missing.join(', ')}], names unknown [${extra.join(', ')}]`,
      );
    out[name] = order;
  }
  return out;
}

/** The alphabet of `encodeGoFieldOrder`: one character per property index (a definition has at most 64). */
export const FIELD_INDEX_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_';

/**
 * The Go field order as `go-field-order.json` stores it (read by src/registry/go-field-order.ts): one entry per
 * definition, in the order of the definitions' sorted names; each the Go order written as indexes into the
 * definition's sorted property names, one `FIELD_INDEX_ALPHABET` character each; `""` when Go's order is the
 * sorted one, `null` for a definition without properties. The names are the definitions' own (already in
 * definitions.json), so only the permutation is stored: ~1 KiB gzip against ~9 for the names.
 */
export function encodeGoFieldOrder(
  definitions: DefinitionSet,
  order: Record<string, string[]>,
): (string | null)[] {
  return Object.keys(definitions)
    .sort()
    .map((name) => {
      const fields = order[name];
      if (fields === undefined) return null;
      const sorted = Object.keys(definitions[name]?.properties ?? {}).sort();
      if (sorted.length > FIELD_INDEX_ALPHABET.length)
        throw new Error(
          `${name} has ${sorted.length} properties, more than the field order's alphabet holds`,
        );
      const indexes = fields.map((f) => sorted.indexOf(f));
      if (indexes.every((index, i) => index === i)) return '';
      return indexes.map((index) => FIELD_INDEX_ALPHABET[index]).join('');
    });
}
