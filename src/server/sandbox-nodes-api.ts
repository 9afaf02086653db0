/**
 * The simulated nodes, part of the sandbox API (the node count, capacity,
 * labels and speed are workshop settings: `/sandbox/v1/settings`):
 * - `GET /sandbox/v1/nodes`: each simulated node and whether its node
 *   agent runs;
 * - `POST /sandbox/v1/nodes/<name>/stop`: the node agent stops — no more
 *   status or lease renewals, so the node goes NotReady (Unknown) after
 *   the grace period on the server's clock, is tainted `unreachable`, and
 *   its pods are evicted once their toleration has run out;
 * - `POST /sandbox/v1/nodes/<name>/start`: it runs again and picks its pods
 *   up where they are.
 * Authorized like the rest of the sandbox API.
 */

import { methodNotAllowed, notFound, pathNotFound } from '../machinery/errors';
import type { RequestContext } from '../http/context';
import { respondValue } from '../http/respond';
import type { SimulatedNode } from '../simulation/index';

export const nodesPath = '/sandbox/v1/nodes';

export interface NodesControl {
  nodes(): SimulatedNode[];
  setRunning(name: string, running: boolean): Promise<boolean>;
}

export function isNodesApiPath(path: string): boolean {
  return path === nodesPath || path.startsWith(`${nodesPath}/`);
}

export async function handleNodesApi(control: NodesControl, ctx: RequestContext): Promise<Response> {
  const path = ctx.url.pathname.replace(/\/+$/, '');
  const method = ctx.request.method.toUpperCase();
  if (path === nodesPath) {
    if (method !== 'GET') throw methodNotAllowed();
    return respondValue(ctx, 200, { items: control.nodes() });
  }
  const m = /^\/sandbox\/v1\/nodes\/([^/]+)\/(stop|start)$/.exec(path);
  if (m === null) throw pathNotFound();
  if (method !== 'POST') throw methodNotAllowed();
  const name = decodeURIComponent(m[1] ?? '');
  if (!(await control.setRunning(name, m[2] === 'start')))
    throw notFound({ group: '', resource: 'nodes' }, name);
  return respondValue(
    ctx,
    200,
    control.nodes().find((n) => n.name === name),
  );
}
