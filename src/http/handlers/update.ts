/**
 * update (PUT to a named object or its status/scale/approval/finalize):
 * the body must name the object of the URL; a resourceVersion in it makes
 * the update conditional (stale is 409), without one it is unconditional.
 * Kinds that allow it are created when absent (201).
 */

import type { KubeObject } from '../../api/meta';
import { badRequest } from '../../machinery/errors';
import { deepCloneSliced, dropNullsSliced } from '../../machinery/json';
import { breathe } from '../../machinery/cooperative';
import type { RestStorage, Updater } from '../../registry/rest/capabilities';
import type { RequestContext } from '../context';
import type { ResolvedRequest } from '../dispatch';
import type { ServerContext } from '../server-context';
import { asObjectOfType, decodeObjectBodyAsync, readBodyText } from '../body';
import { negotiateBody } from '../negotiate';
import { parseDryRun } from '../options';
import { enforceFieldValidation, parseFieldValidation, undecodable } from '../field-validation';
import { refuseUnencodableObjectAnswer, respondObject } from '../encode';
import { respondValue } from '../respond';
import { ownershipOptions } from '../field-manager-options';
import { optionsObject, requestScope } from '../scope';

export function checkNameAndNamespace(req: ResolvedRequest, obj: KubeObject): void {
  const meta = obj.metadata ?? (obj.metadata = {});
  if ((meta.name ?? '') !== req.info.name)
    throw badRequest(
      `the name of the object (${meta.name ?? ''}) does not match the name on the URL (${req.info.name})`,
    );
  if (req.rt.namespaced) {
    if ((meta.namespace ?? '') === '') meta.namespace = req.namespace;
    else if (meta.namespace !== req.namespace)
      throw badRequest(
        'the namespace of the provided object does not match the namespace sent on the request',
      );
  } else delete meta.namespace;
}

/** `v1` or `<group>/<version>` of the kind a storage serves (a Scale is autoscaling/v1). */
export function storageApiVersion(
  req: ResolvedRequest,
  storage: RestStorage,
): { apiVersion: string; kind: string } {
  const k = storage.objectKind;
  if (k === undefined) return { apiVersion: req.rt.apiVersion, kind: req.rt.kind };
  return { apiVersion: k.group === '' ? k.version : `${k.group}/${k.version}`, kind: k.kind };
}

export async function handleUpdate(
  server: ServerContext,
  ctx: RequestContext,
  req: ResolvedRequest,
  storage: RestStorage & Updater,
): Promise<Response> {
  const dryRun = parseDryRun(ctx.query);
  const mode = parseFieldValidation(ctx.query);
  const ownership = ownershipOptions(server, ctx, 'UpdateOptions');
  const format = negotiateBody(server.profile, ctx.request.headers.get('content-type'), true);
  refuseUnencodableObjectAnswer(ctx, req.rt);
  const sub = req.info.subresource;
  const gvk = storageApiVersion(req, storage);
  const text = await readBodyText(ctx.request);
  // Each phase over a wide body lets other requests run before the next (machinery/cooperative.ts).
  await breathe();
  const decoded = await decodeObjectBodyAsync(text, format, {
    kind: gvk.kind,
    typed: !req.rt.custom,
  });
  await breathe();
  const obj = asObjectOfType(decoded.value, gvk);
  if (storage.objectKind === undefined) {
    // custom resources keep nulls of nullable fields; their decoding drops the others (see CustomResourceFacts)
    if (!req.rt.custom) await dropNullsSliced(obj);
    await breathe();
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
  ctx.warnings.keep();
  checkNameAndNamespace(req, obj);
  const scope = requestScope(ctx, req, storage, 'update', {
    dryRun,
    options: optionsObject(server.profile, 'UpdateOptions', ctx.query),
  });
  // Each attempt starts from its own copy of the body (a retry after a conflict must not see the last one's changes).
  const outcome = await storage.update(scope, req.info.name, () => deepCloneSliced(obj), {
    createWhenMissing: sub === '' && req.rt.behavior.allowCreateOnUpdate,
    fieldManager: { manager: ownership.manager },
  });
  if (storage.objectKind !== undefined) return respondValue(ctx, 200, outcome.object);
  await breathe();
  return respondObject(server, ctx, outcome.created ? 201 : 200, req.rt, outcome.object);
}
