/**
 * `pods/<name>/proxy[/<path>]`: HTTP to the pod's IP, for every method the
 * real server proxies. The name may be `pod`, `pod:port` or
 * `scheme:pod:port` (400 `invalid pod request` otherwise); without a port
 * the first declared container port is used. A pod without a routable IP
 * (none yet, loopback, link-local, …) answers 400 `address not allowed`;
 * with one, the sandbox has no network to reach it (503).
 */

import { badRequest } from '../../../../machinery/errors';
import type { Connecter } from '../../../rest/capabilities';
import type { StoredKindContext } from '../../types';
import { joinHostPort } from '../node/connection';
import { proxyMethods } from '../lazy-subresources';
import { admitConnect, isIpLiteral, isProxyableAddress, splitSchemeNamePort, unreachable } from './connect';

interface PodNetwork {
  spec?: { containers?: { ports?: { containerPort?: number }[] }[] };
  status?: { podIP?: string; podIPs?: { ip?: string }[] };
}

export function podProxyStorage(ctx: StoredKindContext): Connecter {
  return {
    connectMethods: proxyMethods,
    async connect(scope, id, _method, query) {
      const options = { kind: 'PodProxyOptions', apiVersion: 'v1', path: query.get('path') ?? '' };
      await admitConnect(ctx.deps, ctx.rt, scope, id, options);
      const target = splitSchemeNamePort(id);
      if (target === undefined) throw badRequest(`invalid pod request ${JSON.stringify(id)}`);
      const pod = (await ctx.store.get(scope, target.name)) as PodNetwork;
      let port = target.port;
      if (port === '') {
        const declared = (pod.spec?.containers ?? []).find((c) => (c.ports ?? []).length > 0);
        const first = declared?.ports?.[0]?.containerPort;
        if (first !== undefined) port = String(first);
      }
      const ip = pod.status?.podIPs?.[0]?.ip ?? pod.status?.podIP ?? '';
      if (!isIpLiteral(ip) || !isProxyableAddress(ip)) throw badRequest('address not allowed');
      throw unreachable(port === '' ? ip : joinHostPort(ip, port));
    },
  };
}
