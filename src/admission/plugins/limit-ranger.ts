/**
 * LimitRanger: applies the LimitRange objects of the namespace, as the
 * real plugin does. On pod creation it fills the requests and limits a
 * container leaves out from the ranges' `Container` defaults (recording
 * what it set in the `<domain>/limit-ranger` annotation); then pods are
 * checked against every range's min, max and maxLimitRequestRatio (per
 * container and for the pod as a whole) and claims against the storage
 * bounds, refusing with 403 and the real wording. Pod updates are not
 * looked at (containers cannot change), nor subresources, nor objects
 * already being deleted. The server ships no LimitRange of its own.
 */

import type { KubeObject } from '../../api/meta';
import { forbidden } from '../../machinery/errors';
import { aggregate, applyDefaults, claimViolations, podViolations } from '../limitranger/limits';
import type { AdmissionAttributes, AdmissionPluginFactory } from '../types';

function supports(a: AdmissionAttributes): 'pod' | 'claim' | undefined {
  if (a.subresource !== '' || a.group !== '' || a.namespace === '') return undefined;
  if (a.operation !== 'CREATE' && a.operation !== 'UPDATE') return undefined;
  if (a.resource === 'pods') return a.operation === 'CREATE' ? 'pod' : undefined;
  if (a.resource === 'persistentvolumeclaims') return 'claim';
  return undefined;
}

function byName(x: KubeObject, y: KubeObject): number {
  const a = x.metadata?.name ?? '';
  const b = y.metadata?.name ?? '';
  return a < b ? -1 : a > b ? 1 : 0;
}

export const limitRanger: AdmissionPluginFactory = (deps) => {
  const ranges = deps.lister('', 'limitranges');
  const annotation = deps.profile.prefixed('limit-ranger');

  async function rangesFor(a: AdmissionAttributes): Promise<KubeObject[] | undefined> {
    const kind = supports(a);
    if (kind === undefined || a.object === undefined) return undefined;
    const old = a.oldObject?.metadata?.deletionTimestamp;
    if (old !== undefined && old !== null) return undefined;
    await deps.listersSynced();
    return [...ranges.list(a.namespace)].sort(byName);
  }

  return {
    name: 'LimitRanger',
    operations: ['CREATE', 'UPDATE'],
    async admit(a) {
      const items = await rangesFor(a);
      if (items === undefined || items.length === 0 || supports(a) !== 'pod' || a.object === undefined)
        return undefined;
      const pod = structuredClone(a.object);
      let changed = false;
      for (const range of items) {
        const note = applyDefaults(pod, range);
        if (note === undefined) continue;
        changed = true;
        const metadata = (pod.metadata ??= {});
        // Like the real plugin, each range that set something rewrites the note; the last one stands.
        metadata.annotations = { ...(metadata.annotations ?? {}), [annotation]: note };
      }
      return changed ? pod : undefined;
    },
    async validate(a) {
      const items = await rangesFor(a);
      if (items === undefined || a.object === undefined) return;
      const kind = supports(a);
      for (const range of items) {
        const messages = kind === 'pod' ? podViolations(a.object, range) : claimViolations(a.object, range);
        if (messages.length > 0)
          throw forbidden({ group: a.group, resource: a.resource }, a.name, aggregate(messages));
      }
    },
  };
};
