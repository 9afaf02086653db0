/**
 * `nodes/<name>/proxy[/<path>]`: HTTP to a node's agent, or to another
 * port of the node, for every method the real server proxies. The name may
 * be `node`, `node:port` or `scheme:node:port` (400 `invalid node request`
 * otherwise). The node must exist (404) and have an address (400, see
 * `connection.ts`); an address that is an IP the real server refuses to
 * proxy to is 400 `address not allowed`. A GET to the agent's port of a
 * node whose agent the host composed (a simulated node) is answered by that
 * agent (`/pods`, `/healthz`, `/containerLogs/…`); anything else, the sandbox
 * has no network to reach (503).
 */

import { badRequest } from '../../../../machinery/errors';
import type { Connecter } from '../../../rest/capabilities';
import type { StoredKindContext } from '../../types';
import {
  admitConnect,
  isIpLiteral,
  isProxyableAddress,
  splitSchemeNamePort,
  unreachable,
} from '../pod/connect';
import { proxyMethods } from '../lazy-subresources';
import { joinHostPort, nodeConnection } from './connection';

export function nodeProxyStorage(ctx: StoredKindContext): Connecter {
  return {
    connectMethods: proxyMethods,
    async connect(scope, id, method, query) {
      const options = { kind: 'NodeProxyOptions', apiVersion: 'v1', path: query.get('path') ?? '' };
      await admitConnect(ctx.deps, ctx.rt, scope, id, options);
      const target = splitSchemeNamePort(id);
      if (target === undefined) throw badRequest(`invalid node request ${JSON.stringify(id)}`);
      const connection = await nodeConnection(ctx, scope, target.name);
      if (isIpLiteral(connection.hostname) && !isProxyableAddress(connection.hostname))
        throw badRequest('address not allowed');
      const port = target.port === '' ? connection.port : target.port;
      const agent = ctx.services.nodeAgents?.({
        node: target.name,
        hostname: connection.hostname,
        port: connection.port,
      });
      if (
        agent !== undefined &&
        agent.reachable &&
        method === 'GET' &&
        String(port) === String(connection.port)
      ) {
        const url = new URL(
          `https://${joinHostPort(connection.hostname, port)}${options.path === '' ? '/' : options.path}`,
        );
        query.forEach((v, k) => {
          if (k !== 'path') url.searchParams.append(k, v);
        });
        const answer = await agent.fetch(new Request(url));
        return {
          status: answer.status,
          contentType: answer.headers.get('content-type') ?? 'text/plain',
          body: answer.body ?? '',
        };
      }
      throw unreachable(joinHostPort(connection.hostname, port));
    },
  };
}
