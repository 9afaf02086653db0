/**
 * How the server would reach a node's agent, as the real server's node
 * connection-info getter decides it: the Node must exist (404 otherwise),
 * its address is the first of `status.addresses` in the default preference
 * order (Hostname, InternalDNS, InternalIP, ExternalDNS, ExternalIP), its
 * port the advertised kubelet port or 10250. Pod log, exec, attach and
 * portforward and the node proxy all start here.
 */

import type { KubeObject } from '../../../../api/meta';
import { badRequest, StatusError } from '../../../../machinery/errors';
import type { RequestScope } from '../../../rest/scope';
import type { KindStorageContext } from '../../types';

export interface NodeConnection {
  node: KubeObject;
  hostname: string;
  port: number;
}

interface NodeAddress {
  type?: string;
  address?: string;
}

interface NodeStatus {
  addresses?: NodeAddress[];
  daemonEndpoints?: { kubeletEndpoint?: { Port?: number } };
}

const preferredAddressTypes = ['Hostname', 'InternalDNS', 'InternalIP', 'ExternalDNS', 'ExternalIP'];
const defaultKubeletPort = 10250;

/**
 * The connection to node `name`. A node without a usable address cannot be
 * dialled at all; the real server's lookup fails with a plain error, which
 * it answers as 500 with that text and no reason — and so does the sandbox.
 */
export async function nodeConnection(
  ctx: KindStorageContext,
  scope: RequestScope,
  name: string,
): Promise<NodeConnection> {
  const nodes = ctx.storeFor('', 'nodes');
  if (nodes === undefined) throw badRequest(`nodes are not served, so node ${name} cannot be reached`);
  const node = await nodes.get({ ...scope, namespace: '' }, name);
  const status = (node.status ?? {}) as NodeStatus;
  const addresses = status.addresses ?? [];
  let hostname: string | undefined;
  for (const type of preferredAddressTypes) {
    hostname = addresses.find((a) => a.type === type)?.address;
    if (hostname !== undefined) break;
  }
  if (hostname === undefined) {
    const known = addresses.map((a) => `{${a.type ?? ''} ${a.address ?? ''}}`).join(' ');
    throw new StatusError(500, undefined, `no preferred addresses found; known addresses: [${known}]`);
  }
  const advertised = status.daemonEndpoints?.kubeletEndpoint?.Port ?? 0;
  return { node, hostname, port: advertised > 0 ? advertised : defaultKubeletPort };
}

/** `host:port` as Go's `net.JoinHostPort` writes it (IPv6 literals in brackets). */
export function joinHostPort(host: string, port: string | number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}
