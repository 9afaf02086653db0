/**
 * The API server's crd-autoregister: every group/version a
 * CustomResourceDefinition serves gets a local APIService labelled
 * `automanaged: true` (group priority 1000, version priority 100, as
 * upstream gives every custom group/version), kept while some CRD serves
 * it: created again if deleted, its spec put back if changed, removed once
 * no CRD serves it. Like the aggregator's availability controller for a
 * local service, it marks each one Available.
 */

import type { KubeObject } from '../api/meta';
import type { ResourceRef } from '../client/paths';
import { deepEqual } from '../machinery/json';
import {
  apiServiceName,
  apiServiceObject,
  automanagedLabel,
  localAvailableCondition,
} from '../machinery/startup/api-services';
import { isAlreadyExists, isConflict, isNotFound } from './api-errors';
import { Informer } from './informer';
import type { Controller, ControllerContext } from './types';
import { WorkQueue } from './work-queue';

interface CrdSpec {
  group?: string;
  versions?: { name?: string; served?: boolean }[];
}

/** The served group/versions of a CRD, by APIService name. */
function servedBy(crd: KubeObject): Map<string, { group: string; version: string }> {
  const spec = (crd['spec'] ?? {}) as CrdSpec;
  const out = new Map<string, { group: string; version: string }>();
  const group = spec.group ?? '';
  for (const v of spec.versions ?? [])
    if (v.served === true && v.name !== undefined)
      out.set(apiServiceName(group, v.name), { group, version: v.name });
  return out;
}

export function crdAutoregisterController(ctx: ControllerContext): Controller {
  const { profile } = ctx;
  const crdsRef: ResourceRef = {
    group: profile.suffixed('apiextensions'),
    version: 'v1',
    resource: 'customresourcedefinitions',
  };
  const ref: ResourceRef = {
    group: profile.suffixed('apiregistration'),
    version: 'v1',
    resource: 'apiservices',
  };
  const label = automanagedLabel(profile);

  const wanted = (name: string): { group: string; version: string } | undefined => {
    for (const crd of crds.cache.values()) {
      const gv = servedBy(crd).get(name);
      if (gv !== undefined) return gv;
    }
    return undefined;
  };

  const reconcile = async (name: string): Promise<void> => {
    await Promise.all([crds.synced, apiServices.synced]);
    const gv = wanted(name);
    const have = apiServices.cache.get(name);
    try {
      if (gv === undefined) {
        if (have !== undefined && have.metadata?.labels?.[label] === 'true')
          await ctx.client.delete({ ...ref, name }, { preconditions: { uid: have.metadata.uid ?? '' } });
        return;
      }
      const want = apiServiceObject(profile, gv.group, gv.version, { group: 1000, version: 100 }, 'true');
      let current = have;
      if (current === undefined) current = await ctx.client.create(ref, want);
      else if (current.metadata?.labels?.[label] !== 'true')
        return; // someone else's APIService
      else if (!deepEqual(current['spec'], want['spec'])) {
        current = await ctx.client.update({ ...ref, name }, { ...current, spec: want['spec'] });
      }
      const conditions =
        (current['status'] as { conditions?: Record<string, string>[] } | undefined)?.conditions ?? [];
      if (conditions.some((c) => c['type'] === 'Available' && c['status'] === 'True')) return;
      await ctx.client.update(
        { ...ref, name, subresource: 'status' },
        { ...current, status: { conditions: [localAvailableCondition(ctx.now())] } },
      );
    } catch (e) {
      // The informers bring the newer state, which queues the name again.
      if (isConflict(e) || isNotFound(e) || isAlreadyExists(e)) return;
      throw e;
    }
  };

  const queue = new WorkQueue(reconcile);
  const enqueueCrd = (crd: KubeObject): void => {
    for (const name of servedBy(crd).keys()) queue.add(name);
  };
  const crds = new Informer(ctx.client, crdsRef, {
    add: enqueueCrd,
    update: (old, crd) => {
      enqueueCrd(old);
      enqueueCrd(crd);
    },
    delete: enqueueCrd,
  });
  const enqueueApiService = (o: KubeObject): void => {
    if (o.metadata?.labels?.[label] === 'true') queue.add(o.metadata.name ?? '');
  };
  const apiServices = new Informer(ctx.client, ref, {
    add: enqueueApiService,
    update: (_old, o) => enqueueApiService(o),
    delete: enqueueApiService,
  });
  return {
    name: 'crd-autoregister',
    start: () => {
      apiServices.start();
      crds.start();
    },
    stop: () => {
      crds.stop();
      apiServices.stop();
      queue.stop();
    },
    idle: () => queue.idle(),
  };
}
