/**
 * connect: subresources that reach a node agent (pod log, exec, attach,
 * portforward, proxy; node and service proxy). The storage decides the
 * answer; this writes it with the request's headers.
 */

import type { Connecter, RestStorage } from '../../registry/rest/capabilities';
import type { RequestContext } from '../context';
import type { ResolvedRequest } from '../dispatch';
import type { ServerContext } from '../server-context';
import { baseHeaders } from '../respond';
import { requestScope } from '../scope';

export async function handleConnect(
  _server: ServerContext,
  ctx: RequestContext,
  req: ResolvedRequest,
  storage: RestStorage & Connecter,
): Promise<Response> {
  const query = new URLSearchParams(ctx.query);
  // A proxy's path after the subresource (`pods/p/proxy/some/path/`) is its `path` option, as the real server sets it.
  if (req.info.subresource === 'proxy') {
    const rest = req.info.parts.slice(3).join('/');
    query.set('path', rest === '' ? '' : `/${rest}${ctx.url.pathname.endsWith('/') ? '/' : ''}`);
  }
  const method = ctx.request.method.toUpperCase();
  const answer = await storage.connect(
    requestScope(ctx, req, storage, 'connect'),
    req.info.name,
    method,
    query,
  );
  const headers = baseHeaders(ctx, answer.contentType ?? 'text/plain');
  if (answer.body === undefined || answer.status === 204) headers.delete('Content-Type');
  return new Response(answer.status === 204 || method === 'HEAD' ? null : (answer.body ?? ''), {
    status: answer.status,
    headers,
  });
}
