/**
 * What the Endpoints and EndpointSlice controllers share: which pods back
 * a Service (its selector matches them, they have an IP, and — unless the
 * Service publishes not-ready addresses — they are neither finished nor
 * being deleted), whether each is ready, and the port a Service port
 * reaches on a pod (`targetPort` as a number, or a container port's name).
 */

import type { KubeObject } from '../../api/meta';
import { isPodReady, isTerminating } from './pods';
import { mapSelectorMatcher } from './selectors';
import type { Pod } from './types';

export interface ServicePort {
  name?: string;
  protocol?: string;
  port: number;
  targetPort?: number | string;
  appProtocol?: string;
}

export interface Service extends KubeObject {
  spec?: {
    selector?: Record<string, string>;
    ports?: ServicePort[];
    clusterIP?: string;
    publishNotReadyAddresses?: boolean;
    ipFamilies?: string[];
  };
}

export const servicesRef = { group: '', version: 'v1', resource: 'services' } as const;

export function hasSelector(svc: Service): boolean {
  return Object.keys(svc.spec?.selector ?? {}).length > 0;
}

export function podIP(pod: Pod): string | undefined {
  const ip = pod.status?.podIP ?? pod.status?.podIPs?.[0]?.ip;
  return ip !== undefined && ip !== '' ? ip : undefined;
}

/** `ShouldPodBeInEndpoints`. */
export function shouldBeInEndpoints(pod: Pod, includeTerminating: boolean): boolean {
  if (podIP(pod) === undefined) return false;
  if (!includeTerminating && isTerminating(pod)) return false;
  const phase = pod.status?.phase;
  const restart = pod.spec?.restartPolicy ?? 'Always';
  if (phase === 'Failed' || (phase === 'Succeeded' && restart !== 'Always')) return false;
  return true;
}

/** The Service's pods, for the Endpoints (`includeTerminating`: publishNotReadyAddresses) or the slices (always). */
export function servicePods(svc: Service, pods: Pod[], includeTerminating: boolean): Pod[] {
  const match = mapSelectorMatcher(svc.spec?.selector);
  return pods.filter((p) => match(p.metadata?.labels) && shouldBeInEndpoints(p, includeTerminating));
}

export function podReadyForService(svc: Service, pod: Pod): boolean {
  return svc.spec?.publishNotReadyAddresses === true || (isPodReady(pod) && !isTerminating(pod));
}

/** The pod's port a Service port targets (`podutil.FindPort`), or undefined when the pod has no such port. */
export function findPort(pod: Pod, port: ServicePort): number | undefined {
  const target = port.targetPort ?? port.port;
  if (typeof target === 'number') return target;
  if (/^\d+$/.test(target)) return Number(target);
  for (const c of pod.spec?.containers ?? [])
    for (const p of c.ports ?? [])
      if (p.name === target && (p.protocol ?? 'TCP') === (port.protocol ?? 'TCP')) return p.containerPort;
  return undefined;
}
