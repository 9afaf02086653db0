/**
 * The `kubernetes` Service in `default` and its Endpoints and EndpointSlice,
 * as the real server's master controller and lease endpoint reconciler keep
 * them: the Service takes the first address of the service range (port 443
 * named `https` to the secure port), the Endpoints and EndpointSlice point
 * at the advertise address. Created at start and after a reset, and put
 * back when a user deletes or changes them (the real loop runs every 10 s;
 * here a deletion of one of them also triggers it at once). A loopback advertise
 * address is refused by Endpoints validation, as on the real server, so
 * the Endpoints and EndpointSlice are then not published.
 */

import type { UserInfo } from '../api/authn';
import type { KubeObject } from '../api/meta';
import { StatusError } from '../machinery/errors';
import type { NamingProfile } from '../machinery/naming';
import type { RestInstaller } from '../registry/installer';
import { internalScope } from '../registry/rest/scope';
import type { SharedInformerFactory } from '../registry/cache/factory';
import { deepEqual } from '../machinery/json';
import { parseIP } from '../machinery/service-ranges';

export const masterServiceName = 'kubernetes';
const namespace = 'default';
/** The address both hosts publish by default: the real server refuses loopback, so a fixed sandbox address. */
export const defaultAdvertiseAddress = '192.168.49.2';
/** The real server's `--secure-port` default, used until a host says where it listens. */
export const defaultSecurePort = 6443;

export interface MasterEndpoint {
  serviceIP: string;
  advertiseAddress: string;
  securePort: number;
}

/** The Service, Endpoints and EndpointSlice as the real reconcilers write them. */
export function masterObjects(
  profile: NamingProfile,
  endpoint: MasterEndpoint,
): { service: KubeObject; endpoints: KubeObject; slice: KubeObject } {
  const ipv6 = parseIP(endpoint.advertiseAddress)?.family === 'IPv6';
  return {
    service: {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: {
        name: masterServiceName,
        namespace,
        labels: { component: 'apiserver', provider: profile.word },
      },
      spec: {
        type: 'ClusterIP',
        clusterIP: endpoint.serviceIP,
        clusterIPs: [endpoint.serviceIP],
        ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: endpoint.securePort }],
        sessionAffinity: 'None',
      },
    },
    endpoints: {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: {
        name: masterServiceName,
        namespace,
        labels: { [profile.subPrefixed('endpointslice', 'skip-mirror')]: 'true' },
      },
      subsets: [
        {
          addresses: [{ ip: endpoint.advertiseAddress }],
          ports: [{ name: 'https', port: endpoint.securePort, protocol: 'TCP' }],
        },
      ],
    },
    slice: {
      apiVersion: `${profile.suffixed('discovery')}/v1`,
      kind: 'EndpointSlice',
      metadata: {
        name: masterServiceName,
        namespace,
        labels: { [profile.prefixed('service-name')]: masterServiceName },
      },
      addressType: ipv6 ? 'IPv6' : 'IPv4',
      endpoints: [{ addresses: [endpoint.advertiseAddress], conditions: { ready: true } }],
      ports: [{ name: 'https', port: endpoint.securePort, protocol: 'TCP' }],
    },
  };
}

type Store = NonNullable<ReturnType<RestInstaller['storeFor']>>;

function scopeFor(store: Store, verb: 'create' | 'update', user: UserInfo, now: Date) {
  const rt = store.rt;
  return internalScope(
    user,
    {
      verb,
      namespace,
      name: verb === 'create' ? '' : masterServiceName,
      subresource: '',
      requestResource: { group: rt.group, version: rt.version, resource: rt.resource },
      requestKind: { group: rt.group, version: rt.version, kind: rt.kind },
    },
    now,
  );
}

/** Creates the object when missing, or brings the listed fields back to `wanted`'s when they drifted. */
async function ensure(
  store: Store,
  wanted: KubeObject,
  fields: readonly string[],
  user: UserInfo,
  now: Date,
): Promise<void> {
  const existing = await store.objects.get(store.rt, namespace, masterServiceName);
  if (existing === undefined) {
    try {
      await store.create(scopeFor(store, 'create', user, now), wanted, {});
    } catch (e) {
      // Another replica (or a racing reconcile) created it first. Its create may also have
      // taken the fixed ClusterIP before ours reached the name check, so the refusal is an
      // allocation error rather than AlreadyExists: the object exists all the same.
      if (e instanceof StatusError && e.reason === 'AlreadyExists') return;
      if ((await store.objects.get(store.rt, namespace, masterServiceName)) === undefined) throw e;
    }
    return;
  }
  const drifted = (o: KubeObject) =>
    fields.some((f) => {
      const [top, sub] = f.split('.') as [string, string | undefined];
      const a = sub === undefined ? o[top] : (o[top] as Record<string, unknown> | undefined)?.[sub];
      const b = sub === undefined ? wanted[top] : (wanted[top] as Record<string, unknown>)[sub];
      return !deepEqual(a, b);
    });
  if (!drifted(existing.object)) return;
  try {
    await store.update(
      scopeFor(store, 'update', user, now),
      masterServiceName,
      (current) => {
        if (current === undefined) return structuredClone(wanted);
        const next = structuredClone(current);
        for (const f of fields) {
          const [top, sub] = f.split('.') as [string, string | undefined];
          if (sub === undefined) next[top] = structuredClone(wanted[top]);
          else
            (next[top] as Record<string, unknown>)[sub] = structuredClone(
              (wanted[top] as Record<string, unknown>)[sub],
            );
        }
        return next;
      },
      { createWhenMissing: true },
    );
  } catch (e) {
    if (!(e instanceof StatusError && (e.code === 409 || e.code === 404))) throw e;
  }
}

/**
 * One pass of the reconcilers: the Service (its ports and type, as `getMasterServiceUpdateIfNeeded` restores
 * them), then the Endpoints and the EndpointSlice (their addresses and ports). Refusals of the Endpoints for a
 * loopback address are logged once per message, as the real server logs them, and do not stop the start.
 */
export async function reconcileMasterService(
  rest: RestInstaller,
  profile: NamingProfile,
  endpoint: MasterEndpoint,
  user: UserInfo,
  now: Date,
  log: (message: string) => void,
): Promise<void> {
  const objects = masterObjects(profile, endpoint);
  const services = rest.storeFor('', 'services');
  try {
    if (services !== undefined)
      await ensure(services, objects.service, ['spec.ports', 'spec.type'], user, now);
  } catch (e) {
    // A replica starting beside this one may hold the fixed ClusterIP for a create not yet stored;
    // the next pass finds its Service. Any other refusal is logged as the real reconciler logs it.
    if (!(e instanceof StatusError && e.code === 422)) throw e;
    log(`Unable to reconcile the ${masterServiceName} service: ${e.message}`);
  }
  const endpoints = rest.storeFor('', 'endpoints');
  const slices = rest.storeFor(profile.suffixed('discovery'), 'endpointslices');
  try {
    if (endpoints !== undefined) await ensure(endpoints, objects.endpoints, ['subsets'], user, now);
    if (slices !== undefined)
      await ensure(slices, objects.slice, ['addressType', 'endpoints', 'ports'], user, now);
  } catch (e) {
    if (!(e instanceof StatusError && e.code === 422)) throw e;
    log(`Unable to reconcile the ${masterServiceName} endpoints: ${e.message}`);
  }
}

/**
 * Runs the reconcile pass every `intervalMs` (the real loop's 10 s) and at once when one of the three objects is
 * deleted, one pass at a time. Returns a stop function.
 */
export function watchMasterService(
  informers: SharedInformerFactory,
  profile: NamingProfile,
  reconcile: () => Promise<void>,
  intervalMs = 10_000,
): () => void {
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  const kick = () => {
    if (stopped) return;
    if (running !== undefined) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await reconcile();
        } catch (e) {
          // `default` is gone (a reset in progress): the bootstrap that follows creates them again.
          if (!(e instanceof StatusError && e.code === 404))
            console.warn(`${masterServiceName} service reconcile failed`, e);
        }
      } while (again && !stopped);
      running = undefined;
    })();
  };
  const ours = (o: KubeObject) =>
    o.metadata?.namespace === namespace && o.metadata.name === masterServiceName;
  // Deletes only: replicas on one store listening on different ports would otherwise rewrite each other's Endpoints
  // port on every change; drift by an edit is put right on the next tick, as the real loop does.
  const handler = {
    delete: (o: KubeObject) => {
      if (ours(o)) kick();
    },
  };
  const stops = [
    informers.informerFor({ group: '', resource: 'services' }).addEventHandler(handler),
    informers.informerFor({ group: '', resource: 'endpoints' }).addEventHandler(handler),
    informers
      .informerFor({ group: profile.suffixed('discovery'), resource: 'endpointslices' })
      .addEventHandler(handler),
  ];
  const timer = setInterval(kick, intervalMs);
  return () => {
    stopped = true;
    clearInterval(timer);
    for (const stop of stops) stop();
  };
}
