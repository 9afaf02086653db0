/**
 * connect: subresources that reach a node agent (pod log, exec, attach,
 * portforward, proxy; node and service proxy). The storage decides the
 * answer; this writes it with the request's headers — a stream when the
 * agent streams (a followed log). An exec stream needs the connection
 * switched to a stream protocol: the client's `Upgrade` (SPDY/3.1 or
 * websocket) and channel protocol (`X-Stream-Protocol-Version`, or the
 * WebSocket subprotocol) are negotiated as the real server does, and the
 * session is handed to the host, which answers 101 and carries it
 * (`ConnectionInfo.upgrade`; a host without sockets cannot: 400).
 */

import type { Connecter, ConnectResponse, RestStorage } from '../../registry/rest/capabilities';
import { badRequest, StatusError } from '../../machinery/errors';
import type { RequestContext } from '../context';
import type { ResolvedRequest } from '../dispatch';
import type { ServerContext } from '../server-context';
import { baseHeaders } from '../respond';
import { requestScope } from '../scope';

/** The channel protocols of exec streams a node agent speaks, most preferred first. */
const spdyProtocols = ['v4.channel.k8s.io', 'v3.channel.k8s.io', 'v2.channel.k8s.io', 'channel.k8s.io'];
const webSocketProtocols = ['v5.channel.k8s.io', ...spdyProtocols];

function headerList(value: string | null): string[] {
  return (value ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

/** The protocol both sides speak: the client's first choice the server supports. */
function negotiate(offered: string[], supported: string[]): string | undefined {
  return offered.find((p) => supported.includes(p));
}

function switchProtocols(ctx: RequestContext, upgrade: NonNullable<ConnectResponse['upgrade']>): Response {
  const headers = ctx.request.headers;
  const wanted = (headers.get('upgrade') ?? '').toLowerCase();
  const connection = headerList(headers.get('connection')).map((t) => t.toLowerCase());
  if (!connection.includes('upgrade') || wanted === '' || ctx.conn?.upgrade === undefined)
    throw badRequest('Upgrade request required');
  let protocol: 'SPDY/3.1' | 'websocket';
  let offered: string[];
  let supported: string[];
  if (wanted === 'spdy/3.1') {
    protocol = 'SPDY/3.1';
    offered = headerList(headers.get('x-stream-protocol-version'));
    supported = spdyProtocols;
  } else if (wanted === 'websocket') {
    protocol = 'websocket';
    // The bearer token may travel as a subprotocol; it is no channel protocol.
    offered = headerList(headers.get('sec-websocket-protocol')).filter(
      (p) => !p.startsWith('base64url.bearer.'),
    );
    supported = webSocketProtocols;
  } else
    throw badRequest(`unable to upgrade: unsupported protocol ${JSON.stringify(headers.get('upgrade'))}`);
  // A client that names no channel protocol speaks the first one.
  const subprotocol = offered.length === 0 ? 'channel.k8s.io' : negotiate(offered, supported);
  if (subprotocol === undefined)
    throw new StatusError(
      403,
      'Forbidden',
      `unable to upgrade: unable to negotiate protocol: client supports [${offered.join(' ')}], server supports [${supported.join(' ')}]`,
    );
  ctx.conn.upgrade({ protocol, subprotocol, streams: upgrade.streams, session: upgrade.session });
  // Not sent: the host answers 101 and carries the session on the connection.
  return new Response(null, { status: 200 });
}

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
  if (answer.upgrade !== undefined) return switchProtocols(ctx, answer.upgrade);
  const headers = baseHeaders(ctx, answer.contentType ?? 'text/plain');
  if (answer.body === undefined || answer.status === 204) headers.delete('Content-Type');
  return new Response(answer.status === 204 || method === 'HEAD' ? null : (answer.body ?? ''), {
    status: answer.status,
    headers,
  });
}
