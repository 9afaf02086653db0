/**
 * FieldsV1, the wire form of a field set in `metadata.managedFields`: a
 * nested object whose keys are serialized path elements (`f:`, `k:`, `v:`)
 * and whose leaves are `{}`; a node that is itself owned and also has owned
 * children carries `".": {}`. Keys are written in the set's order, as the
 * real server writes them, so entries compare equal byte for byte.
 */

import type { JsonObject, JsonValue } from '../api/meta';
import { FieldSet } from './field-set';
import { comparePE, deserializePE, serializePE, type PathElement } from './path';

function emit(set: FieldSet, includeSelf: boolean): JsonObject {
  const out: JsonObject = {};
  if (includeSelf && (set.members.length > 0 || set.children.length > 0)) out['.'] = {};
  let mi = 0;
  let ci = 0;
  const members = set.members;
  const children = set.children;
  while (mi < members.length || ci < children.length) {
    const m = members[mi];
    const c = children[ci];
    const order = m === undefined ? 1 : c === undefined ? -1 : comparePE(m, c.pe);
    if (order < 0) {
      out[serializePE(m as PathElement)] = {};
      mi++;
    } else {
      const child = c as { pe: PathElement; set: FieldSet };
      out[serializePE(child.pe)] = emit(child.set, order === 0);
      if (order === 0) mi++;
      ci++;
    }
  }
  return out;
}

export function setToFieldsV1(set: FieldSet): JsonObject {
  return emit(set, false);
}

export class FieldsV1Error extends Error {}

function isObject(v: JsonValue | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Reads one node: its children, and whether the node itself is a member (a leaf `{}`, or `"."`). */
function read(node: JsonObject): { children: FieldSet | undefined; isMember: boolean } {
  let children: FieldSet | undefined;
  let isMember = false;
  for (const [key, value] of Object.entries(node)) {
    if (key === '.') {
      isMember = true;
      continue;
    }
    let pe: PathElement | undefined;
    try {
      pe = deserializePE(key);
    } catch (e) {
      throw new FieldsV1Error(`parsing key as path element: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (pe === undefined) continue; // a kind of element a later version may know: dropped, as the real server does
    if (!isObject(value)) throw new FieldsV1Error(`expected an object at ${key}`);
    const sub = read(value);
    if (sub.isMember) (children ??= new FieldSet()).insertMember(pe);
    if (sub.children !== undefined && !sub.children.empty())
      (children ??= new FieldSet()).adopt(pe, sub.children);
  }
  if (children === undefined) isMember = true;
  return { children, isMember };
}

/** Decodes FieldsV1; malformed input throws FieldsV1Error. */
export function fieldsV1ToSet(fields: JsonValue | undefined): FieldSet {
  if (fields === undefined || fields === null) return new FieldSet();
  if (!isObject(fields)) throw new FieldsV1Error('FieldsV1 must be an object');
  return read(fields).children ?? new FieldSet();
}
