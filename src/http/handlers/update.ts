/**
 * update (PUT to a named object or its status/scale/approval/finalize):
 * the body must name the object of the URL; a resourceVersion in it makes
 * the update conditional (stale is 409), without one it is unconditional.
 * Kinds that allow it are created when absent (201).
 */

import type { KubeObject } from '../../api/meta';
import { badRequest } from '../../machinery/errors';
import { deepCloneSliced } from '../../machinery/json';
import { breathe } from '../../machinery/cooperative';
import type { RestStorage, Updater } from '../../registry/rest/capabilities';
import type { RequestContext } from '../context';
import type { ResolvedRequest } from '../dispatch';
import type { ServerContext } from '../server-context';
import { negotiateBody } from '../negotiate';
import { parseDryRun } from '../options';
import { parseFieldValidation } from '../field-validation';
import { refuseUnencodableObjectAnswer, respondObject } from '../encode';
import { respondValue } from '../respond';
import { ownershipOptions } from '../field-manager-options';
import { optionsObject, requestScope } from '../scope';
import { decodeWrittenObject } from './written-object';

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
  // A body of another kind (a Scale) is taken as decoded; the resource's own kind is cleaned and validated.
  const ownKind = storage.objectKind === undefined;
  const obj = await decodeWrittenObject(server, ctx, req, storage, format, mode, {
    dropNulls: ownKind,
    validate: ownKind,
  });
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
