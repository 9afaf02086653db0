/**
 * Reading a PATCH body as the real server reads each patch type: the
 * document's own repeated fields (and, for a JSON patch, the unknown and
 * repeated fields of its operations, worded `json patch ...`) become strict
 * findings that are reported before the unknown fields of the patched
 * object; unreadable documents are 400s in the words each patch type uses.
 * Strict failures of a patch are 400s, as for POST and PUT.
 */

import { badRequest, type StatusError } from '../machinery/errors';
import { decodeJson, JsonSyntaxError, type DuplicateField } from '../machinery/decode/json';
import { isPlainObject } from '../machinery/json';
import type { SchemaNode } from '../machinery/schema';
import type { DecodeFindings, FieldValidationMode } from './field-validation';
import type { PatchType } from './negotiate';
import { inDocumentOrder, typedDecoderSees, type FieldAt } from './strict-findings';

export interface DecodedPatch {
  patch: unknown;
  findings: DecodeFindings;
}

/** The Go type a JSON value failed to decode into, named as Go's decoder names JSON values. */
function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'object';
  if (typeof value === 'boolean') return 'bool';
  return typeof value;
}

/** An operation of a JSON patch as the server decodes it to check its fields. */
const jsonPatchOpSchema: SchemaNode = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      op: { type: 'string' },
      path: { type: 'string' },
      from: { type: 'string' },
      value: { preserveUnknownFields: true },
    },
  },
};
const jsonPatchFields = new Set(['op', 'path', 'from', 'value']);

/** Unknown and repeated fields of JSON patch operations, in the order the decoder meets them. */
function jsonPatchFindings(ops: unknown[], duplicates: readonly DuplicateField[]): string[] {
  const items: (FieldAt & { message: string })[] = duplicates
    .filter((d) => typedDecoderSees({}, jsonPatchOpSchema, d.segments))
    .map((d) => ({
      segments: d.segments,
      keysBefore: d.keysBefore,
      message: `json patch duplicate field "${d.path}"`,
    }));
  ops.forEach((op, i) => {
    if (!isPlainObject(op)) return;
    for (const key of Object.keys(op))
      if (!jsonPatchFields.has(key))
        items.push({ segments: [i, key], message: `json patch unknown field "[${i}].${key}"` });
  });
  return inDocumentOrder(ops, items).map((i) => i.message);
}

/** Decodes a JSON, merge or strategic merge patch body (apply bodies are read elsewhere). */
export function decodePatch(text: string, type: PatchType, mode: FieldValidationMode): DecodedPatch {
  const checked = mode !== 'Ignore';
  let decoded;
  try {
    decoded = decodeJson(text);
  } catch (e) {
    if (!(e instanceof JsonSyntaxError)) throw e;
    if (type === 'merge' && !checked) throw badRequest('Invalid JSON Patch');
    throw badRequest(type === 'strategic' || !checked ? e.message : `error decoding patch: ${e.message}`);
  }
  const patch = decoded.value;
  if (type === 'json') {
    if (patch === null) return { patch: [], findings: {} };
    const opType = checked ? 'handlers.jsonPatchOp' : 'jsonpatch.Operation';
    const prefix = checked ? 'error decoding patch: ' : '';
    if (!Array.isArray(patch))
      throw badRequest(
        `${prefix}json: cannot unmarshal ${jsonKind(patch)} into Go value of type ${checked ? '[]handlers.jsonPatchOp' : 'jsonpatch.Patch'}`,
      );
    const bad = patch.find((op) => !isPlainObject(op) && op !== null);
    if (bad !== undefined)
      throw badRequest(`${prefix}json: cannot unmarshal ${jsonKind(bad)} into Go value of type ${opType}`);
    return { patch, findings: { leading: checked ? jsonPatchFindings(patch, decoded.duplicates) : [] } };
  }
  if (type === 'merge' && patch === null) throw badRequest('Invalid JSON Patch');
  if (!isPlainObject(patch) && patch !== null) {
    const why = `json: cannot unmarshal ${jsonKind(patch)} into Go value of type map[string]interface {}`;
    throw badRequest(type === 'merge' ? `error decoding patch: ${why}` : why);
  }
  return {
    patch,
    findings: { leading: checked ? decoded.duplicates.map((d) => `duplicate field "${d.path}"`) : [] },
  };
}

/**
 * The Strict failure of a patch: 400 Bad Request naming every unknown and
 * duplicate field in one message, as the spec's error table rules for
 * POST, PUT and PATCH alike.
 */
export function patchStrictError(): (message: string) => StatusError {
  return (message) => badRequest(message);
}
