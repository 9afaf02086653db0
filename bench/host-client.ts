/**
 * How benches talk to a Node host they started: one kept-alive connection
 * pool that trusts the host's CA, and a request as the host's administrator
 * with a JSON body.
 */

import { Agent } from 'undici';
import type { NodeHost } from '../src/hosts/node/host';

export type Dispatcher = RequestInit['dispatcher'];

export function pool(host: NodeHost): Dispatcher {
  const a = new Agent({ connect: host.caPEM !== undefined ? { ca: host.caPEM } : {} });
  // Node's fetch takes an undici dispatcher; its typings name undici-types' class, the same shape.
  return a as unknown as Dispatcher;
}

/** One request as the host's administrator; the caller reads the answer. */
export function send(
  host: NodeHost,
  dispatcher: Dispatcher,
  method: string,
  path: string,
  body?: unknown,
): Promise<Response> {
  return fetch(`${host.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${host.token}`, 'content-type': 'application/json' },
    dispatcher,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
}
