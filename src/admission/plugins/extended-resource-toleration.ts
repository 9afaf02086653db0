/**
 * ExtendedResourceToleration: a pod that requests an extended resource
 * (a domain-qualified name outside the label domain, e.g. `example.com/gpu`)
 * tolerates the `NoSchedule` taint of that name, so operators can reserve
 * nodes with special hardware by tainting them with the resource's name.
 * Containers and init containers count; names are added in sorted order.
 */

import type { KubeObject } from '../../api/meta';
import type { AdmissionPluginFactory } from '../types';
import { clonePod, isNotPod, podSpecOf } from './support/pod-shape';
import { addOrUpdateToleration, type Toleration } from './support/tolerations';

const qualifiedName =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;

/** The real `IsExtendedResourceName`: qualified by a foreign domain and valid as a `requests.` quota name. */
export function isExtendedResourceName(name: string, labelDomain: string): boolean {
  const native = !name.includes('/') || name.includes(`${labelDomain}/`);
  if (native || name.startsWith('requests.')) return false;
  const forQuota = `requests.${name}`;
  const slash = forQuota.lastIndexOf('/');
  const prefix = forQuota.slice(0, slash);
  const local = forQuota.slice(slash + 1);
  return prefix.length <= 253 && local.length <= 63 && qualifiedName.test(forQuota);
}

export const extendedResourceToleration: AdmissionPluginFactory = (deps) => ({
  name: 'ExtendedResourceToleration',
  operations: ['CREATE', 'UPDATE'],
  admit(a): Promise<KubeObject | undefined> {
    if (isNotPod(a) || a.object === undefined) return Promise.resolve(undefined);
    const spec = podSpecOf(a.object);
    const names = new Set<string>();
    for (const list of [spec.containers, spec.initContainers]) {
      for (const c of Array.isArray(list) ? list : []) {
        const requests = c.resources?.requests;
        if (requests === undefined || requests === null || typeof requests !== 'object') continue;
        for (const name of Object.keys(requests))
          if (isExtendedResourceName(name, deps.profile.labelDomain)) names.add(name);
      }
    }
    if (names.size === 0) return Promise.resolve(undefined);
    let tolerations: Toleration[] = Array.isArray(spec.tolerations) ? [...spec.tolerations] : [];
    let changed = false;
    for (const name of [...names].sort()) {
      const next = addOrUpdateToleration(tolerations, {
        key: name,
        operator: 'Exists',
        effect: 'NoSchedule',
      });
      if (next !== undefined) {
        tolerations = next;
        changed = true;
      }
    }
    if (!changed) return Promise.resolve(undefined);
    const pod = clonePod(a.object);
    pod.spec.tolerations = tolerations;
    return Promise.resolve(pod);
  },
});
