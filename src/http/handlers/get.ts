/**
 * get: one object by name (and its `status` or `scale` view). A
 * resourceVersion other than 0 means "not older than": a version the server
 * has not reached yet is waited for, then answered 504.
 */

import type { RequestContext } from '../context';
import type { ResolvedRequest } from '../dispatch';
import type { ServerContext } from '../server-context';
import { respondObject } from '../encode';
import { parseResourceVersion, waitForRevision } from '../options';
import { scaleOf } from '../subresources/scale';
import { respondValue } from '../respond';

export async function handleGet(
  server: ServerContext,
  ctx: RequestContext,
  req: ResolvedRequest,
): Promise<Response> {
  const rvText = ctx.query.get('resourceVersion') ?? '';
  if (rvText !== '' && rvText !== '0') {
    await waitForRevision(
      server.storage,
      parseResourceVersion(rvText),
      server.tooLargeResourceVersionWaitMs,
      ctx.signal,
    );
  }
  const stored = await server.store.mustGet(req.rt, req.namespace, req.info.name);
  if (req.info.subresource === 'scale') return respondValue(ctx, 200, scaleOf(server, req.rt, stored.object));
  return respondObject(server, ctx, 200, req.rt, stored.object);
}
