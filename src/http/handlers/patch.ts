/**
 * patch (PATCH to a named object or its status/scale): JSON patch and merge
 * patch applied to the stored object (again on each optimistic retry), then
 * the write pipeline like an update; a resourceVersion the patch sets is a
 * precondition. Strategic merge patch and apply join through `patchers`.
 */

import type { KubeObject } from '../../api/meta';
import { badRequest, StatusError } from '../../machinery/errors';
import { dropNulls } from '../../machinery/json';
import { applyMergePatch } from '../../fieldmanager/merge-patch';
import { applyJsonPatch, JsonPatchError } from '../../fieldmanager/json-patch';
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

function parsePatchJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw badRequest(`error decoding patch: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function applyPatch(type: PatchType, current: KubeObject, patch: unknown): KubeObject {
  switch (type) {
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
  const type = negotiatePatch(ctx.request.headers.get('content-type'), false);
  const dryRun = parseDryRun(ctx.query);
  const mode = parseFieldValidation(ctx.query);
  const patch = parsePatchJson(await readBodyText(ctx.request));
  const sub = req.info.subresource;
  const gvk = { apiVersion: req.rt.apiVersion, kind: req.rt.kind };

  const patched = (current: KubeObject): KubeObject => {
    const obj = applyPatch(type, current, patch);
    if (obj.apiVersion !== gvk.apiVersion || obj.kind !== gvk.kind) throw badRequest('the patch must not change apiVersion or kind');
    dropNulls(obj);
    checkNameAndNamespace(req, obj);
    enforceFieldValidation(server.catalog.definitions, req.rt, obj, mode, ctx.warnings);
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
        const scale = applyPatch(type, scaleOf(server, req.rt, obj), patch);
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
