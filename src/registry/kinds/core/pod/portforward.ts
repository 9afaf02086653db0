/**
 * `pods/<name>/portforward`: forwards ports of the pod through the node
 * agent (GET or POST). The query is a PodPortForwardOptions whose `ports`
 * (repeated or comma-separated) must be port numbers, else 400 as the real
 * parameter codec words it; no container is involved.
 */

import { badRequest } from '../../../../machinery/errors';
import { goQuote } from '../../../../machinery/go-format';
import type { Connecter } from '../../../rest/capabilities';
import type { StoredKindContext } from '../../types';
import { agentPortForward } from './node-agent';
import { scheduledPod } from './stream';
import { streamMethods } from '../lazy-subresources';

/** The real conversion of `ports`: each comma-separated value an unsigned 16-bit number. */
export function parsePorts(query: URLSearchParams): number[] {
  const ports: number[] = [];
  for (const value of query.getAll('ports'))
    for (const v of value.split(',')) {
      if (!/^[0-9]+$/.test(v))
        throw badRequest(
          `cannot convert to []int32: strconv.ParseUint: parsing ${goQuote(v)}: invalid syntax`,
        );
      const n = Number(v);
      if (n > 65535)
        throw badRequest(
          `cannot convert to []int32: strconv.ParseUint: parsing ${goQuote(v)}: value out of range`,
        );
      ports.push(n);
    }
  return ports;
}

export function portForwardStorage(ctx: StoredKindContext): Connecter {
  return {
    connectMethods: streamMethods,
    async connect(scope, name, _method, query) {
      const options = { kind: 'PodPortForwardOptions', apiVersion: 'v1', ports: parsePorts(query) };
      const { pod } = await scheduledPod(ctx, scope, name, options, undefined);
      return agentPortForward(pod);
    },
  };
}
