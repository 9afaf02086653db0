/**
 * Reaching a pod's node agent, as the real server dials the kubelet: the
 * node's connection (`node/connection.ts`), then the agent the host
 * composed for that address — a simulated node's kubelet. A node no agent
 * serves (one created by hand) is answered by the stand-in
 * (`node-agent.ts`); an agent that is down (a stopped node) refuses the
 * connection, which the client sees as 503 with the dial error.
 */

import type { NodeAgent } from '../../../../api/node-agent';
import { StatusError } from '../../../../machinery/errors';
import type { RequestScope } from '../../../rest/scope';
import type { StoredKindContext } from '../../types';
import { joinHostPort, nodeConnection, type NodeConnection } from '../node/connection';

export interface DialedAgent {
  connection: NodeConnection;
  /** Undefined: no agent at that address. */
  agent: NodeAgent | undefined;
}

export async function dialAgent(
  ctx: StoredKindContext,
  scope: RequestScope,
  nodeName: string,
): Promise<DialedAgent> {
  const connection = await nodeConnection(ctx, scope, nodeName);
  const agent = ctx.services.nodeAgents?.({
    node: nodeName,
    hostname: connection.hostname,
    port: connection.port,
  });
  if (agent !== undefined && !agent.reachable) {
    const address = connection.node.status as
      { addresses?: { type?: string; address?: string }[] } | undefined;
    const ip = address?.addresses?.find((a) => a.type === 'InternalIP')?.address ?? connection.hostname;
    throw new StatusError(
      503,
      'ServiceUnavailable',
      `error dialing backend: dial tcp ${joinHostPort(ip, connection.port)}: connect: connection refused`,
    );
  }
  return { connection, agent };
}

/** The agent's error answer as the API server relays it: its status code, its text as the message. */
export async function agentError(response: Response): Promise<StatusError> {
  const text = (await response.text()).replace(/\n$/, '');
  const reason =
    response.status === 400 ? 'BadRequest' : response.status === 404 ? 'NotFound' : 'InternalError';
  return new StatusError(response.status, reason, text);
}
