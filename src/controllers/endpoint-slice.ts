/**
 * The EndpointSlice controller: for every Service with a selector,
 * EndpointSlices (`discovery.<suffix>/v1`, named `<service>-` and a
 * suffix, owned by the Service, labelled with `<prefix>service-name` and
 * `endpointslice.<domain>/managed-by`) holding one endpoint per selected
 * pod with an IP — ready, serving and terminating conditions as v1.27
 * reports them (terminating pods stay, not ready), its node, its hostname
 * under a headless Service — one slice per set of ports, at most 100
 * endpoints each. A Service with no pods keeps one empty placeholder
 * slice. Slices of deleted Services go with them (their owner reference).
 */

import type { KubeObject } from '../api/meta';
import { deepEqual } from '../machinery/json';
import { isNotFound } from './api-errors';
import { objectKey } from './informer';
import type { SharedInformers } from './shared-informers';
import type { Controller, ControllerContext } from './types';
import { WorkQueue } from './work-queue';
import { endpointRelevantChange } from './endpoints';
import { newControllerRef } from './workload/owner';
import { podsRef } from './workload/pod-control';
import { isPodReady, isTerminating } from './workload/pods';
import {
  findPort,
  hasSelector,
  podIP,
  servicePods,
  servicesRef,
  type Service,
} from './workload/service-pods';
import { mapSelectorMatcher } from './workload/selectors';
import type { Pod } from './workload/types';

const maxEndpointsPerSlice = 100;

interface SlicePort {
  name: string;
  port: number;
  protocol: string;
  appProtocol?: string;
}

interface Endpoint {
  addresses: string[];
  conditions: { ready: boolean; serving: boolean; terminating: boolean };
  hostname?: string;
  targetRef: { kind: 'Pod'; namespace: string; name: string; uid: string };
  nodeName?: string;
}

interface EndpointSlice extends KubeObject {
  addressType?: string;
  endpoints?: Endpoint[] | null;
  ports?: SlicePort[] | null;
}

export function endpointSliceController(ctx: ControllerContext, informers: SharedInformers): Controller {
  const slicesRef = { group: ctx.profile.suffixed('discovery'), version: 'v1', resource: 'endpointslices' };
  const services = informers.informer(servicesRef);
  const pods = informers.informer(podsRef);
  const slices = informers.informer(slicesRef);
  const serviceNameLabel = ctx.profile.prefixed('service-name');
  const managedByLabel = ctx.profile.subPrefixed('endpointslice', 'managed-by');
  const managedBy = `endpointslice-controller.${ctx.profile.groupSuffix}`;
  const headlessLabel = ctx.profile.subPrefixed('service', 'headless');

  const owned = (svc: Service): EndpointSlice[] =>
    slices
      .inNamespace(svc.metadata?.namespace ?? '')
      .filter(
        (s) =>
          s.metadata?.labels?.[serviceNameLabel] === svc.metadata?.name &&
          s.metadata?.labels?.[managedByLabel] === managedBy,
      ) as EndpointSlice[];

  /** Endpoints grouped by the ports their pods offer. */
  const desired = (svc: Service): Map<string, { ports: SlicePort[]; endpoints: Endpoint[] }> => {
    const groups = new Map<string, { ports: SlicePort[]; endpoints: Endpoint[] }>();
    const selected = servicePods(svc, pods.inNamespace(svc.metadata?.namespace ?? '') as Pod[], true);
    selected.sort((a, b) => ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1));
    for (const pod of selected) {
      const ip = podIP(pod);
      if (ip === undefined) continue;
      const ports: SlicePort[] = [];
      for (const sp of svc.spec?.ports ?? []) {
        const port = findPort(pod, sp);
        if (port === undefined) continue;
        ports.push({
          name: sp.name ?? '',
          port,
          protocol: sp.protocol ?? 'TCP',
          ...(sp.appProtocol !== undefined ? { appProtocol: sp.appProtocol } : {}),
        });
      }
      const m = pod.metadata ?? {};
      const terminating = isTerminating(pod);
      const ready = isPodReady(pod);
      const endpoint: Endpoint = {
        addresses: [ip],
        conditions: {
          ready: svc.spec?.publishNotReadyAddresses === true || (ready && !terminating),
          serving: ready,
          terminating,
        },
        ...(pod.spec?.hostname !== undefined &&
        pod.spec.hostname !== '' &&
        pod.spec.subdomain === svc.metadata?.name
          ? { hostname: pod.spec.hostname }
          : {}),
        targetRef: { kind: 'Pod', namespace: m.namespace ?? '', name: m.name ?? '', uid: m.uid ?? '' },
        ...(pod.spec?.nodeName !== undefined && pod.spec.nodeName !== ''
          ? { nodeName: pod.spec.nodeName }
          : {}),
      };
      const key = JSON.stringify(ports);
      let g = groups.get(key);
      if (g === undefined) groups.set(key, (g = { ports, endpoints: [] }));
      g.endpoints.push(endpoint);
    }
    return groups;
  };

  const reconcile = async (key: string): Promise<void> => {
    await Promise.all([services.synced, pods.synced, slices.synced]);
    const [namespace = '', name = ''] = key.split('/');
    const svc = services.get(namespace, name) as Service | undefined;
    // Slices of a deleted Service go with it (owner reference); a Service without a selector has none of ours.
    if (svc === undefined || !hasSelector(svc)) return;
    const labels: Record<string, string> = {
      ...(svc.metadata?.labels ?? {}),
      [serviceNameLabel]: name,
      [managedByLabel]: managedBy,
    };
    if (svc.spec?.clusterIP === 'None') labels[headlessLabel] = '';
    const addressType = svc.spec?.ipFamilies?.[0] === 'IPv6' ? 'IPv6' : 'IPv4';
    // The wanted slices: per port set, chunks of at most 100 endpoints; a placeholder when there is none.
    const wanted: { ports: SlicePort[] | null; endpoints: Endpoint[] | null }[] = [];
    for (const g of desired(svc).values())
      for (let i = 0; i < g.endpoints.length; i += maxEndpointsPerSlice)
        wanted.push({ ports: g.ports, endpoints: g.endpoints.slice(i, i + maxEndpointsPerSlice) });
    if (wanted.length === 0) wanted.push({ ports: null, endpoints: null });
    const existing = owned(svc);
    const unused = [...existing];
    // Reuse a slice with the same ports first, then any other.
    const pick = (ports: SlicePort[] | null): EndpointSlice | undefined => {
      const i = unused.findIndex((s) => deepEqual(s.ports ?? null, ports));
      const j = i >= 0 ? i : unused.length > 0 ? 0 : -1;
      return j >= 0 ? unused.splice(j, 1)[0] : undefined;
    };
    for (const w of wanted) {
      const slice = pick(w.ports);
      const body: EndpointSlice = {
        apiVersion: `${slicesRef.group}/v1`,
        kind: 'EndpointSlice',
        metadata: {
          ...(slice?.metadata ?? { generateName: `${name}-`, namespace }),
          labels,
          ownerReferences: [newControllerRef(svc, { apiVersion: 'v1', kind: 'Service' })],
        },
        addressType: slice?.addressType ?? addressType,
        endpoints: w.endpoints,
        ports: w.ports,
      };
      if (slice === undefined) {
        await ctx.client.create({ ...slicesRef, namespace }, body);
        continue;
      }
      if (
        deepEqual(slice.endpoints ?? null, w.endpoints) &&
        deepEqual(slice.ports ?? null, w.ports) &&
        deepEqual(slice.metadata?.labels ?? {}, labels)
      )
        continue;
      await ctx.client.update({ ...slicesRef, namespace, name: slice.metadata?.name ?? '' }, body);
    }
    for (const s of unused) {
      try {
        await ctx.client.delete({ ...slicesRef, namespace, name: s.metadata?.name ?? '' });
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
    }
  };
  const queue = new WorkQueue(reconcile, { clock: ctx.clock });

  const onPod = (pod: KubeObject, old?: KubeObject): void => {
    for (const svc of services.inNamespace(pod.metadata?.namespace ?? '')) {
      const match = mapSelectorMatcher((svc as Service).spec?.selector);
      if (match(pod.metadata?.labels) || (old !== undefined && match(old.metadata?.labels)))
        queue.add(objectKey(svc));
    }
  };
  const onSlice = (s: KubeObject): void => {
    if (s.metadata?.labels?.[managedByLabel] !== managedBy) return;
    const svcName = s.metadata.labels[serviceNameLabel];
    if (svcName !== undefined) queue.add(`${s.metadata.namespace ?? ''}/${svcName}`);
  };
  services.addHandlers({
    add: (s) => queue.add(objectKey(s)),
    update: (_old, s) => queue.add(objectKey(s)),
  });
  pods.addHandlers({
    add: (p) => onPod(p),
    update: (old, p) => {
      if (endpointRelevantChange(old as Pod, p as Pod)) onPod(p, old);
    },
    delete: (p) => onPod(p),
  });
  slices.addHandlers({ update: (_old, s) => onSlice(s), delete: onSlice });

  return {
    name: 'endpointslice',
    start: () => undefined,
    stop: () => queue.stop(),
    idle: () => queue.idle(),
  };
}
