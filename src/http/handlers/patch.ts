/**
 * patch (PATCH to a named object or its status/scale): JSON patch, merge
 * patch and (for built-in kinds) strategic merge patch applied to the
 * stored object (again on each optimistic retry), then the write pipeline
 * like an update; a resourceVersion the patch sets is a precondition.
 */

import type { KubeObject } from '../../api/meta';
import { badRequest, StatusError } from '../../machinery/errors';
import { dropNulls } from '../../machinery/json';
import { applyMergePatch } from '../../fieldmanager/merge-patch';
import { applyJsonPatch, JsonPatchError } from '../../fieldmanager/json-patch';
import { strategicMergePatch } from '../../fieldmanager/strategic-merge-patch';
import type { DefinitionSet, SchemaNode } from '../../machinery/schema';
import type { RequestContext } from '../context';
import type { ResolvedRequest } from '../dispatch';
import type { ServerContext } from '../server-context';
import { readBodyText } from '../body';
import { negotiatePatch, type PatchType } from '../negotiate';
import { parseDryRun } from '../options';
import { respondObject } from '../encode';
import { applyScale, scaleOf } from '../subresources/scale';
import { respondValue } from '../respond';
import { checkNameAndNamespace } from './update';
import { enforceFieldValidation, parseFieldValidation } from '../field-validation';
import { decodePatch, patchStrictError } from '../patch-decode';

function parsePatchJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw badRequest(`error decoding patch: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** The schema a strategic merge patch follows: the definitions and the target kind's top definition. */
interface PatchSchemaRef {
  defs: DefinitionSet;
  root: SchemaNode | undefined;
}

function applyPatch(type: PatchType, current: KubeObject, patch: unknown, schema?: PatchSchemaRef): KubeObject {
  switch (type) {
    case 'strategic':
      if (schema?.root === undefined) throw badRequest(`patch type ${type} is not supported`);
      return strategicMergePatch(schema.defs, schema.root, current, patch) as KubeObject;
    case 'merge': {
      const result = applyMergePatch(current, patch);
      if (typeof result !== 'object' || result === null || Array.isArray(result)) throw badRequest('merge patch must be a JSON object');
      return result as KubeObject;
    }
    case 'json':
      try {
        const result = applyJsonPatch(current, patch);
        if (typeof result !== 'object' || result === null || Array.isArray(result)) throw badRequest('the patched document is not an object');
        return result as KubeObject;
      } catch (e) {
        if (!(e instanceof JsonPatchError)) throw e;
        if (e.malformed) throw badRequest(e.message);
        throw new StatusError(422, 'Invalid', 'the server rejected our request due to an error in our request', { causes: [{ reason: 'FieldValueInvalid', message: e.message }] });
      }
    default:
      throw badRequest(`patch type ${type} is not supported`);
  }
}

export async function handlePatch(server: ServerContext, ctx: RequestContext, req: ResolvedRequest): Promise<Response> {
  // Strategic merge patch needs the Go types' patch markers: built-in kinds only (custom resources get 415).
  const type = negotiatePatch(ctx.request.headers.get('content-type'), !req.rt.custom);
  const dryRun = parseDryRun(ctx.query);
  const mode = parseFieldValidation(ctx.query);
  const text = await readBodyText(ctx.request);
  const { patch, findings } = type === 'apply' ? { patch: parsePatchJson(text), findings: {} } : decodePatch(text, type, mode);
  const sub = req.info.subresource;
  const gvk = { apiVersion: req.rt.apiVersion, kind: req.rt.kind };
  const defs = server.catalog.definitions;
  const schema: PatchSchemaRef = { defs, root: req.rt.definition !== undefined ? { ref: req.rt.definition } : req.rt.schema };

  const patched = (current: KubeObject): KubeObject => {
    const obj = applyPatch(type, current, patch, schema);
    if (obj.apiVersion !== gvk.apiVersion || obj.kind !== gvk.kind) throw badRequest('the patch must not change apiVersion or kind');
    dropNulls(obj);
    checkNameAndNamespace(req, obj);
    const strictError = patchStrictError(type, patch, mode === 'Strict' ? obj : undefined);
    enforceFieldValidation(defs, req.rt, obj, mode, ctx.warnings, findings, { strictError });
    return obj;
  };

  if (sub === 'scale') {
    const outcome = await server.runWrite({
      verb: 'patch',
      rt: req.rt,
      subresource: '',
      namespace: req.namespace,
      name: req.info.name,
      dryRun,
      user: ctx.user,
      desired: (current) => {
        const obj = current ?? {};
        const scaleDefinition = req.rt.subresources.get('scale')?.definition;
        const scale = applyPatch(type, scaleOf(server, req.rt, obj), patch, { defs, root: scaleDefinition !== undefined ? { ref: scaleDefinition } : undefined });
        return applyScale(obj, scale);
      },
      createWhenMissing: false,
    });
    return respondValue(ctx, 200, scaleOf(server, req.rt, outcome.object));
  }

  const warningsBefore = ctx.warnings.length;
  const outcome = await server.runWrite({
    verb: 'patch',
    rt: req.rt,
    subresource: sub,
    namespace: req.namespace,
    name: req.info.name,
    dryRun,
    user: ctx.user,
    desired: (current) => {
      ctx.warnings.length = warningsBefore; // a retried attempt reports its own findings only
      return patched({ ...(current ?? {}), apiVersion: gvk.apiVersion, kind: gvk.kind });
    },
    createWhenMissing: false,
  });
  return respondObject(server, ctx, 200, req.rt, outcome.object);
}
