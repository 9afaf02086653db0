/**
 * deletecollection (DELETE to a collection): lists what the selectors
 * match, deletes each object through the write pipeline (so admission and
 * finalizers apply to each), and answers with the list as it was.
 */

import { StatusError } from '../../machinery/errors';
import type { RequestContext } from '../context';
import type { ResolvedRequest } from '../dispatch';
import type { ServerContext } from '../server-context';
import { parseDeleteOptions } from '../delete-options';
import { respondList } from '../encode';
import { selectionFromQuery } from '../selectors';
import { writeFor } from './write-request';

export async function handleDeleteCollection(
  server: ServerContext,
  ctx: RequestContext,
  req: ResolvedRequest,
): Promise<Response> {
  const { options, dryRun } = await parseDeleteOptions(ctx.request, ctx.query);
  const selection = selectionFromQuery(server.profile, req.rt, ctx.query);
  const listed = await server.store.list(
    req.rt,
    req.namespace,
    selection.predicate !== undefined ? { predicate: selection.predicate } : {},
  );
  for (const item of listed.items) {
    try {
      await server.runWrite({
        ...writeFor(ctx, req, 'delete', dryRun, {
          subresource: '',
          namespace: item.object.metadata?.namespace ?? '',
          name: item.object.metadata?.name ?? '',
        }),
        deleteOptions: options,
      });
    } catch (e) {
      // Deleted meanwhile by someone else: that is the outcome we wanted.
      if (!(e instanceof StatusError && e.code === 404)) throw e;
    }
  }
  return respondList(
    server,
    ctx,
    req.rt,
    listed.items.map((s) => s.object),
    { resourceVersion: String(listed.revision) },
  );
}
