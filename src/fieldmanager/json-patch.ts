/**
 * JSON patch (RFC 6902) through fast-json-patch, with its failures split the
 * way the real server splits them: a malformed patch document is the
 * client's syntax error (400), an operation that cannot apply to this
 * object is unprocessable (422). The library is loaded on first use: a
 * caller awaits `jsonPatchLibrary.load()` before applying a patch.
 */

import type { Operation } from 'fast-json-patch';
import { jsonPatchLibrary } from '../machinery/json-patch-library';

export { jsonPatchLibrary };

export class JsonPatchError extends Error {
  constructor(
    message: string,
    /** True when the patch document itself is malformed. */
    readonly malformed: boolean,
  ) {
    super(message);
  }
}

const documentErrors = new Set([
  'SEQUENCE_NOT_AN_ARRAY',
  'OPERATION_NOT_AN_OBJECT',
  'OPERATION_OP_INVALID',
  'OPERATION_PATH_INVALID',
  'OPERATION_FROM_REQUIRED',
  'OPERATION_VALUE_REQUIRED',
  'OPERATION_VALUE_CANNOT_CONTAIN_UNDEFINED',
]);

export function applyJsonPatch(document: unknown, operations: unknown): unknown {
  if (!Array.isArray(operations))
    throw new JsonPatchError('json: cannot unmarshal object into Go value of type jsonpatch.Patch', true);
  try {
    return jsonPatchLibrary
      .get()
      .applyPatch(structuredClone(document), operations as Operation[], true, true, false).newDocument;
  } catch (e) {
    const name = (e as { name?: string }).name ?? '';
    const message = e instanceof Error ? (e.message.split('\n')[0] ?? e.message) : String(e);
    throw new JsonPatchError(message, documentErrors.has(name));
  }
}
