/**
 * get: one object by name, or a subresource's view of it (`status`,
 * `scale`). A resourceVersion other than 0 means "not older than": a
 * version the server has not reached yet is waited for, then answered 504.
 * A current read of an object the storage holds in memory is answered from
 * text kept beside it (get-from-memory.ts).
 */

import type { Getter, RestStorage } from '../../registry/rest/capabilities';
import type { RequestContext } from '../context';
import type { ResolvedRequest } from '../dispatch';
import type { ServerContext } from '../server-context';
import { respondObject } from '../encode';
import { parseResourceVersion } from '../options';
import { respondValue } from '../respond';
import { requestScope } from '../scope';
import { answerFromMemory } from './get-from-memory';

/** The kept answer as is (no turn of the microtask queue), or a promise of the stored object's. */
export function handleGet(
  server: ServerContext,
  ctx: RequestContext,
  req: ResolvedRequest,
  storage: RestStorage & Getter,
): Response | Promise<Response> {
  const rvText = ctx.query.get('resourceVersion') ?? '';
  if (rvText !== '' && rvText !== '0') parseResourceVersion(rvText);
  else {
    const kept = answerFromMemory(ctx, req, storage, server.keptAnswersAsBlobs === true);
    if (kept !== undefined) return kept;
  }
  return getStored(server, ctx, req, storage, rvText);
}

async function getStored(
  server: ServerContext,
  ctx: RequestContext,
  req: ResolvedRequest,
  storage: RestStorage & Getter,
  rvText: string,
): Promise<Response> {
  const object = await storage.get(requestScope(ctx, req, storage, 'get'), req.info.name, {
    resourceVersion: rvText,
  });
  if (storage.objectKind !== undefined) return respondValue(ctx, 200, object);
  return respondObject(server, ctx, 200, req.rt, object);
}
