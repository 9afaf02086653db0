/**
 * A new Pod's `status.qosClass`, as the real strategy computes it at create
 * (`GetPodQOS`): BestEffort with no CPU or memory requests or limits,
 * Guaranteed when every container limits both and requests equal limits,
 * Burstable otherwise.
 */

import type { KubeObject } from '../../../../api/meta';
import { milliValue, parseQuantity } from '../../../../machinery/quantity';

/** A quantity in milli-units (exact, so sums compare); 0 for text that is not one (validation reports it). */
function quantity(value: unknown): bigint {
  const q = parseQuantity(value);
  return q === undefined ? 0n : milliValue(q);
}

const tracked = ['cpu', 'memory'] as const;

function containersOf(spec: Record<string, unknown>): Record<string, unknown>[] {
  const list = (v: unknown) =>
    Array.isArray(v)
      ? v.filter((c): c is Record<string, unknown> => typeof c === 'object' && c !== null)
      : [];
  return [...list(spec.containers), ...list(spec.initContainers)];
}

function resourceMap(
  container: Record<string, unknown>,
  key: 'requests' | 'limits',
): Record<string, unknown> {
  const r = container.resources;
  if (typeof r !== 'object' || r === null) return {};
  const m = (r as Record<string, unknown>)[key];
  return typeof m === 'object' && m !== null ? (m as Record<string, unknown>) : {};
}

export function podQOSClass(pod: KubeObject): 'BestEffort' | 'Burstable' | 'Guaranteed' {
  const spec = typeof pod.spec === 'object' && pod.spec !== null ? (pod.spec as Record<string, unknown>) : {};
  const requests = new Map<string, bigint>();
  const limits = new Map<string, bigint>();
  let guaranteed = true;
  for (const c of containersOf(spec)) {
    const req = resourceMap(c, 'requests');
    const lim = resourceMap(c, 'limits');
    for (const name of tracked) {
      const r = quantity(req[name]);
      if (r > 0n) requests.set(name, (requests.get(name) ?? 0n) + r);
    }
    const limited = new Set<string>();
    for (const name of tracked) {
      const l = quantity(lim[name]);
      if (l > 0n) {
        limited.add(name);
        limits.set(name, (limits.get(name) ?? 0n) + l);
      }
    }
    if (!tracked.every((n) => limited.has(n))) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed && requests.size === limits.size && [...limits].every(([k, v]) => requests.get(k) === v))
    return 'Guaranteed';
  return 'Burstable';
}
