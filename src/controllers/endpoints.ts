/**
 * The Endpoints controller: for every Service with a selector, an
 * Endpoints object of the same name listing the selected pods' IPs — the
 * ready ones under `addresses`, the others under `notReadyAddresses`
 * (all ready with `publishNotReadyAddresses`) — with the ports each
 * Service port reaches on them, grouped into subsets of pods offering the
 * same ports. Pods without an IP, finished or being deleted are left out.
 * The Endpoints carry the Service's labels (and the `headless` label for a
 * headless Service) and the time of the change that triggered them; a
 * Service without a selector keeps the Endpoints its owner writes, and a
 * deleted Service loses its Endpoints.
 */

import type { KubeObject } from '../api/meta';
import { deepEqual } from '../machinery/json';
import { isNotFound } from './api-errors';
import { objectKey } from './informer';
import type { SharedInformers } from './shared-informers';
import type { Controller, ControllerContext } from './types';
import { WorkQueue } from './work-queue';
import { timestamp } from './workload/conditions';
import { podsRef } from './workload/pod-control';
import {
  findPort,
  hasSelector,
  podIP,
  podReadyForService,
  servicePods,
  servicesRef,
  type Service,
} from './workload/service-pods';
import { mapSelectorMatcher } from './workload/selectors';
import type { Pod } from './workload/types';

const endpointsRef = { group: '', version: 'v1', resource: 'endpoints' } as const;

interface Address {
  ip: string;
  hostname?: string;
  nodeName?: string;
  targetRef: { kind: 'Pod'; namespace: string; name: string; uid: string };
}

interface Port {
  name?: string;
  port: number;
  protocol: string;
  appProtocol?: string;
}

interface Subset {
  addresses?: Address[];
  notReadyAddresses?: Address[];
  ports?: Port[];
}

const byIP = (a: Address, b: Address): number => (a.ip < b.ip ? -1 : a.ip > b.ip ? 1 : 0);

/** Pods grouped by the ports they offer (`RepackSubsets`), addresses sorted. */
export function subsetsFor(svc: Service, pods: Pod[]): Subset[] {
  const groups = new Map<string, { ports: Port[]; ready: Address[]; notReady: Address[] }>();
  const headless = svc.spec?.clusterIP === 'None';
  for (const pod of pods) {
    const ip = podIP(pod);
    if (ip === undefined) continue;
    const m = pod.metadata ?? {};
    const address: Address = {
      ip,
      ...(pod.spec?.hostname !== undefined &&
      pod.spec.subdomain === svc.metadata?.name &&
      pod.spec.hostname !== ''
        ? { hostname: pod.spec.hostname }
        : {}),
      ...(pod.spec?.nodeName !== undefined && pod.spec.nodeName !== ''
        ? { nodeName: pod.spec.nodeName }
        : {}),
      targetRef: { kind: 'Pod', namespace: m.namespace ?? '', name: m.name ?? '', uid: m.uid ?? '' },
    };
    const ports: Port[] = [];
    for (const sp of svc.spec?.ports ?? []) {
      const port = findPort(pod, sp);
      if (port === undefined) continue;
      ports.push({
        ...(sp.name !== undefined && sp.name !== '' ? { name: sp.name } : {}),
        port,
        protocol: sp.protocol ?? 'TCP',
        ...(sp.appProtocol !== undefined ? { appProtocol: sp.appProtocol } : {}),
      });
    }
    // A pod offering none of the Service's ports is left out, unless the Service is headless without ports.
    if (ports.length === 0 && !(headless && (svc.spec?.ports ?? []).length === 0)) continue;
    ports.sort((a, b) =>
      (a.name ?? '') < (b.name ?? '') ? -1 : (a.name ?? '') > (b.name ?? '') ? 1 : a.port - b.port,
    );
    const key = JSON.stringify(ports);
    let g = groups.get(key);
    if (g === undefined) groups.set(key, (g = { ports, ready: [], notReady: [] }));
    (podReadyForService(svc, pod) ? g.ready : g.notReady).push(address);
  }
  return [...groups.values()].map((g) => ({
    ...(g.ready.length > 0 ? { addresses: g.ready.sort(byIP) } : {}),
    ...(g.notReady.length > 0 ? { notReadyAddresses: g.notReady.sort(byIP) } : {}),
    ...(g.ports.length > 0 ? { ports: g.ports } : {}),
  }));
}

export function endpointsController(ctx: ControllerContext, informers: SharedInformers): Controller {
  const services = informers.informer(servicesRef);
  const pods = informers.informer(podsRef);
  const endpoints = informers.informer(endpointsRef);
  const headlessLabel = ctx.profile.subPrefixed('service', 'headless');
  const triggerAnnotation = ctx.profile.subPrefixed('endpoints', 'last-change-trigger-time');

  const reconcile = async (key: string): Promise<void> => {
    await Promise.all([services.synced, pods.synced, endpoints.synced]);
    const [namespace = '', name = ''] = key.split('/');
    const svc = services.get(namespace, name) as Service | undefined;
    const ref = { ...endpointsRef, namespace, name };
    if (svc === undefined) {
      if (endpoints.get(namespace, name) === undefined) return;
      try {
        await ctx.client.delete(ref);
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
      return;
    }
    if (!hasSelector(svc)) return;
    const selected = servicePods(
      svc,
      pods.inNamespace(namespace) as Pod[],
      svc.spec?.publishNotReadyAddresses === true,
    );
    const subsets = subsetsFor(svc, selected);
    const labels: Record<string, string> = { ...(svc.metadata?.labels ?? {}) };
    if (svc.spec?.clusterIP === 'None') labels[headlessLabel] = '';
    else delete labels[headlessLabel];
    const current = endpoints.get(namespace, name);
    const currentSubsets = (current?.['subsets'] as Subset[] | undefined) ?? [];
    if (
      current !== undefined &&
      deepEqual(currentSubsets, subsets) &&
      deepEqual(current.metadata?.labels ?? {}, labels)
    )
      return;
    const annotations = {
      ...(current?.metadata?.annotations ?? {}),
      [triggerAnnotation]: timestamp(ctx.now()),
    };
    const next: KubeObject = {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: {
        ...(current?.metadata ?? {}),
        name,
        namespace,
        labels,
        annotations,
      },
      ...(subsets.length > 0 ? { subsets } : {}),
    };
    // Created meanwhile (AlreadyExists): the queue retries once the cache has it.
    if (current === undefined) {
      await ctx.client.create({ ...endpointsRef, namespace }, next);
      return;
    }
    await ctx.client.update(ref, next);
  };
  const queue = new WorkQueue(reconcile, { clock: ctx.clock });

  /** The Services of the pod's namespace whose selector matches the pod (now or before). */
  const onPod = (pod: KubeObject, old?: KubeObject): void => {
    for (const svc of services.inNamespace(pod.metadata?.namespace ?? '')) {
      const match = mapSelectorMatcher((svc as Service).spec?.selector);
      if (match(pod.metadata?.labels) || (old !== undefined && match(old.metadata?.labels)))
        queue.add(objectKey(svc));
    }
  };
  services.addHandlers({
    add: (s) => queue.add(objectKey(s)),
    update: (_old, s) => queue.add(objectKey(s)),
    delete: (s) => queue.add(objectKey(s)),
  });
  pods.addHandlers({
    add: (p) => onPod(p),
    update: (old, p) => {
      if (endpointRelevantChange(old as Pod, p as Pod)) onPod(p, old);
    },
    delete: (p) => onPod(p),
  });
  endpoints.addHandlers({
    // Someone else changed or deleted managed Endpoints: put them back.
    update: (_old, e) => {
      if (services.get(e.metadata?.namespace ?? '', e.metadata?.name ?? '') !== undefined)
        queue.add(objectKey(e));
    },
    delete: (e) => {
      if (services.get(e.metadata?.namespace ?? '', e.metadata?.name ?? '') !== undefined)
        queue.add(objectKey(e));
    },
  });

  return {
    name: 'endpoint',
    start: () => undefined,
    stop: () => queue.stop(),
    idle: () => queue.idle(),
  };
}

/** Whether a pod update can change Endpoints: labels, IP, readiness, node, hostname, deletion, phase. */
export function endpointRelevantChange(old: Pod, pod: Pod): boolean {
  const view = (p: Pod) => ({
    labels: p.metadata?.labels,
    ip: podIP(p),
    ready: p.status?.conditions?.find((c) => c.type === 'Ready')?.status,
    phase: p.status?.phase,
    node: p.spec?.nodeName,
    hostname: p.spec?.hostname,
    subdomain: p.spec?.subdomain,
    deleting: p.metadata?.deletionTimestamp,
  });
  return !deepEqual(view(old), view(pod));
}
