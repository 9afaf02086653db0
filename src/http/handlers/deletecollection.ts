/**
 * deletecollection (DELETE to a collection): the storage deletes what the
 * selectors match, each object through its delete (so admission and
 * finalizers apply to each), and the answer is the list as it was.
 */

import type { CollectionDeleter, RestStorage } from '../../registry/rest/capabilities';
import type { RequestContext } from '../context';
import type { ResolvedRequest } from '../dispatch';
import type { ServerContext } from '../server-context';
import { parseDeleteOptions } from '../delete-options';
import { respondList } from '../encode';
import { selectionFromQuery } from '../selectors';
import { optionsObject, requestScope } from '../scope';

export async function handleDeleteCollection(
  server: ServerContext,
  ctx: RequestContext,
  req: ResolvedRequest,
  storage: RestStorage & CollectionDeleter,
): Promise<Response> {
  const { options, dryRun } = await parseDeleteOptions(ctx.request, ctx.query);
  const selection = selectionFromQuery(server.profile, req.rt, ctx.query);
  const scope = requestScope(ctx, req, storage, 'deletecollection', {
    dryRun,
    options: optionsObject(server.profile, 'DeleteOptions', ctx.query),
  });
  const listed = await storage.deleteCollection(scope, options, selection.predicate);
  return respondList(server, ctx, req.rt, listed.items, { resourceVersion: String(listed.revision) });
}
