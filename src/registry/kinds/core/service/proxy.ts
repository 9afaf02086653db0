/**
 * `services/<name>/proxy[/<path>]`: HTTP to one of the service's endpoints,
 * chosen as the real server chooses: the name may be `svc`, `svc:port` or
 * `scheme:svc:port` (400 `invalid service request`); a numeric port must be
 * one the Service declares (503 `no service port <n> found for service
 * "<svc>"`) and names the endpoint port to use; the Endpoints object of the
 * same name must exist (404) and have a ready address on that port whose
 * target pod has that IP, else 503 `no endpoints available for service
 * "<svc>"`. The sandbox runs no endpoints controller, so a Service with a
 * selector and no Endpoints object is treated as the controller would have
 * left it — with no endpoints (503); a Service without a selector has none
 * unless someone writes them (404, as in a real cluster). An endpoint found
 * cannot be reached: the sandbox has no network (503).
 */

import type { KubeObject } from '../../../../api/meta';
import { badRequest, StatusError } from '../../../../machinery/errors';
import type { Connecter } from '../../../rest/capabilities';
import type { RequestScope } from '../../../rest/scope';
import type { StoredKindContext } from '../../types';
import { joinHostPort } from '../node/connection';
import { admitConnect, splitSchemeNamePort, unreachable } from '../pod/connect';
import { proxyMethods } from '../lazy-subresources';

interface EndpointAddress {
  ip?: string;
  targetRef?: { kind?: string; namespace?: string; name?: string };
}

interface EndpointSubset {
  addresses?: EndpointAddress[];
  ports?: { name?: string; port?: number }[];
}

interface ServiceSpec {
  selector?: Record<string, string>;
  ports?: { name?: string; port?: number }[];
}

function unavailable(message: string): StatusError {
  return new StatusError(503, 'ServiceUnavailable', message);
}

export function serviceProxyStorage(ctx: StoredKindContext): Connecter {
  /** The real check of an endpoint address: it names a pod of this namespace that has that IP. */
  async function validAddress(scope: RequestScope, address: EndpointAddress): Promise<boolean> {
    const ref = address.targetRef;
    if (ref === undefined || ref.namespace !== scope.namespace || ref.name === undefined) return false;
    const pods = ctx.storeFor('', 'pods');
    if (pods === undefined) return false;
    try {
      const pod = await pods.get(scope, ref.name);
      const ips = ((pod.status as { podIPs?: { ip?: string }[] } | undefined)?.podIPs ?? []).map((p) => p.ip);
      return ips.includes(address.ip);
    } catch (e) {
      if (e instanceof StatusError && e.code === 404) return false;
      throw e;
    }
  }

  async function endpointsOf(scope: RequestScope, service: string): Promise<KubeObject> {
    const endpoints = ctx.storeFor('', 'endpoints');
    if (endpoints === undefined)
      throw unavailable(`no endpoints available for service ${JSON.stringify(service)}`);
    try {
      return await endpoints.get(scope, service);
    } catch (e) {
      if (!(e instanceof StatusError && e.code === 404)) throw e;
      // Standing in for the endpoints controller: a selecting Service would have an empty Endpoints object.
      const svc = await ctx.store.get(scope, service).catch(() => undefined);
      const selector = (svc?.spec as ServiceSpec | undefined)?.selector;
      if (selector !== undefined && Object.keys(selector).length > 0) return { subsets: [] };
      throw e;
    }
  }

  return {
    connectMethods: proxyMethods,
    async connect(scope, id, _method, query) {
      const options = { kind: 'ServiceProxyOptions', apiVersion: 'v1', path: query.get('path') ?? '' };
      await admitConnect(ctx.deps, ctx.rt, scope, id, options);
      const target = splitSchemeNamePort(id);
      if (target === undefined) throw badRequest(`invalid service request ${JSON.stringify(id)}`);
      let portName = target.port;
      if (/^[+-]?[0-9]+$/.test(portName)) {
        const number = Number(portName);
        const svc = await ctx.store.get(scope, target.name);
        const declared = ((svc.spec as ServiceSpec | undefined)?.ports ?? []).find((p) => p.port === number);
        if (declared === undefined)
          throw unavailable(`no service port ${number} found for service ${JSON.stringify(target.name)}`);
        portName = declared.name ?? '';
      }
      const eps = await endpointsOf(scope, target.name);
      const subsets = (eps.subsets ?? []) as EndpointSubset[];
      if (subsets.length === 0)
        throw unavailable(`no endpoints available for service ${JSON.stringify(target.name)}`);
      for (const subset of subsets) {
        if ((subset.addresses ?? []).length === 0) continue;
        for (const port of subset.ports ?? []) {
          if ((port.name ?? '') !== portName) continue;
          for (const address of subset.addresses ?? [])
            if (await validAddress(scope, address))
              throw unreachable(joinHostPort(address.ip ?? '', port.port ?? 0));
        }
      }
      // The real server names the request here, port and scheme included.
      throw unavailable(`no endpoints available for service ${JSON.stringify(id)}`);
    },
  };
}
