/**
 * delete (DELETE to a named object): preconditions, admission, then either
 * removal or — for an object with finalizers — the terminating state with
 * deletionTimestamp set. Answers with the object (kinds whose real storage
 * returns it, and terminating objects) or with a Success Status naming it.
 */

import type { GracefulDeleter, RestStorage } from '../../registry/rest/capabilities';
import type { RequestContext } from '../context';
import type { ResolvedRequest } from '../dispatch';
import type { ServerContext } from '../server-context';
import { parseDeleteOptions } from '../delete-options';
import { refuseUnencodableObjectAnswer, respondObject } from '../encode';
import { respondValue } from '../respond';
import { optionsObject, requestScope } from '../scope';

export async function handleDelete(
  server: ServerContext,
  ctx: RequestContext,
  req: ResolvedRequest,
  storage: RestStorage & GracefulDeleter,
): Promise<Response> {
  const { options, dryRun } = await parseDeleteOptions(ctx.request, ctx.query);
  // A storage that answers with the deleted object always answers an object; the others may answer a Status.
  if (storage.returnsDeletedObject) refuseUnencodableObjectAnswer(ctx, req.rt);
  const scope = requestScope(ctx, req, storage, 'delete', {
    dryRun,
    options: optionsObject(server.profile, 'DeleteOptions', ctx.query),
  });
  const outcome = await storage.delete(scope, req.info.name, options);
  const status = !outcome.deleted && options.orphanDependents === false ? 202 : 200;
  if (!outcome.deleted || storage.returnsDeletedObject)
    return respondObject(server, ctx, status, req.rt, outcome.object);
  const m = outcome.object.metadata ?? {};
  return respondValue(ctx, status, {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    details: {
      name: m.name,
      ...(req.rt.group !== '' ? { group: req.rt.group } : {}),
      kind: req.rt.resource,
      uid: m.uid,
    },
  });
}
