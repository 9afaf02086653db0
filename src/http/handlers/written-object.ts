/**
 * The object a create or update body holds, as both handlers take it: the body read and decoded (JSON,
 * YAML or protobuf) as the kind the storage serves, the nulls a built-in kind's typed decoding drops
 * dropped, and the unknown and repeated fields handled per fieldValidation. A wide body is long work: each
 * phase lets other requests run before the next (machinery/cooperative.ts).
 */

import type { KubeObject } from '../../api/meta';
import { breathe } from '../../machinery/cooperative';
import { dropNullsSliced } from '../../machinery/json';
import type { RestStorage } from '../../registry/rest/capabilities';
import type { RequestContext } from '../context';
import type { ResolvedRequest } from '../dispatch';
import type { ServerContext } from '../server-context';
import { asObjectOfType, decodeObjectBodyAsync, readBodyText } from '../body';
import { enforceFieldValidation, undecodable, type FieldValidationMode } from '../field-validation';
import type { BodyFormat } from '../negotiate';

/** `v1` or `<group>/<version>` of the kind a storage serves (a Scale is autoscaling/v1). */
export function storageApiVersion(
  req: ResolvedRequest,
  storage: RestStorage,
): { apiVersion: string; kind: string } {
  const k = storage.objectKind;
  if (k === undefined) return { apiVersion: req.rt.apiVersion, kind: req.rt.kind };
  return { apiVersion: k.group === '' ? k.version : `${k.group}/${k.version}`, kind: k.kind };
}

export interface WrittenObjectSteps {
  /** Drop the nulls of a built-in kind (custom resources keep nullable fields' nulls; see CustomResourceFacts). */
  dropNulls: boolean;
  /** Handle unknown and repeated fields per fieldValidation (the resource's own kind, not a Scale or a review). */
  validate: boolean;
}

/**
 * Reads and decodes the request's body as the storage's kind; then, as `steps` say, drops its nulls and
 * enforces field validation (keeping the warnings is the caller's, once the whole body is taken).
 */
export async function decodeWrittenObject(
  server: ServerContext,
  ctx: RequestContext,
  req: ResolvedRequest,
  storage: RestStorage,
  format: BodyFormat,
  mode: FieldValidationMode,
  steps: WrittenObjectSteps,
): Promise<KubeObject> {
  const gvk = storageApiVersion(req, storage);
  const text = await readBodyText(ctx.request);
  await breathe();
  const decoded = await decodeObjectBodyAsync(text, format, { kind: gvk.kind, typed: !req.rt.custom });
  await breathe();
  const obj = asObjectOfType(decoded.value, gvk);
  if (steps.dropNulls && !req.rt.custom) await dropNullsSliced(obj);
  await breathe();
  if (steps.validate) {
    await enforceFieldValidation(
      server.catalog.definitions,
      req.rt,
      obj,
      mode,
      ctx.warnings,
      decoded.findings,
      {
        strictError: undecodable(req.rt),
      },
    );
    await breathe();
  }
  return obj;
}
