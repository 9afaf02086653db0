/**
 * FieldsV1, the wire form of a field set in `metadata.managedFields`: a
 * nested object whose keys are serialized path elements (`f:`, `k:`, `v:`)
 * and whose leaves are `{}`; a node that is itself owned and also has owned
 * children carries `".": {}`. Keys are written in the set's order, as the
 * real server writes them, so entries compare equal byte for byte.
 */

import type { JsonObject, JsonValue } from '../api/meta';
import { FieldSet } from './field-set';
import { pauseDue, runNow, type Work } from '../machinery/cooperative';
import { comparePE, deserializePE, serializePE, type PathElement } from './path';

function* emit(set: FieldSet, includeSelf: boolean): Work<JsonObject> {
  // A wide map's members arrive in the body's order: sorted here in slices, not at once on first read.
  yield* set.sortWork();
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
      out[serializePE(child.pe)] = yield* emit(child.set, order === 0);
      if (order === 0) mi++;
      ci++;
    }
    if (pauseDue()) yield;
  }
  return out;
}

export function setToFieldsV1(set: FieldSet): JsonObject {
  return runNow(emit(set, false));
}

/** `setToFieldsV1` as work that may pause (machinery/cooperative.ts). */
export function setToFieldsV1Work(set: FieldSet): Work<JsonObject> {
  return emit(set, false);
}

export class FieldsV1Error extends Error {}

function isObject(v: JsonValue | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Reads one node: its children, and whether the node itself is a member (a leaf `{}`, or `"."`). */
function* read(node: JsonObject): Work<{ children: FieldSet | undefined; isMember: boolean }> {
  let children: FieldSet | undefined;
  let isMember = false;
  // Object.keys, not for…in: for…in lists a wide node's every key before the first, in one step.
  for (const key of Object.keys(node)) {
    const value = node[key];
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
    const sub = yield* read(value);
    if (sub.isMember) (children ??= new FieldSet()).insertMember(pe);
    if (sub.children !== undefined && !sub.children.empty())
      (children ??= new FieldSet()).adopt(pe, sub.children);
    if (pauseDue()) yield;
  }
  if (children === undefined) isMember = true;
  return { children, isMember };
}

/** Decodes FieldsV1; malformed input throws FieldsV1Error. */
export function fieldsV1ToSet(fields: JsonValue | undefined): FieldSet {
  return runNow(fieldsV1ToSetWork(fields));
}

/** `fieldsV1ToSet` as work that may pause (machinery/cooperative.ts). */
export function* fieldsV1ToSetWork(fields: JsonValue | undefined): Work<FieldSet> {
  if (fields === undefined || fields === null) return new FieldSet();
  if (!isObject(fields)) throw new FieldsV1Error('FieldsV1 must be an object');
  return (yield* read(fields)).children ?? new FieldSet();
}
