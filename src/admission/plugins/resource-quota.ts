/**
 * ResourceQuota: charges every create (and the updates that can change
 * usage) against the ResourceQuota objects of the namespace, as the real
 * validating plugin does. A quota that tracks cpu or memory first makes
 * every container state them (403 `failed quota: <name>: must specify …`);
 * then the request's usage is added to what the namespace already uses and
 * anything over a hard limit refuses the write (403 `exceeded quota: <name>,
 * requested: …, used: …, limited: …`). An admitted write records the new
 * usage in the quota's `status` as the real plugin does, never on dry run.
 *
 * The real server leaves `status` to the quota controller (initial hard and
 * used, replenishment after deletions). Here usage is recounted from the
 * listers at every evaluation, which frees deleted objects' share at once,
 * and after a write that changes a quota or removes a charged object the
 * plugin refreshes the quotas' status once the write has landed in the
 * cache, standing in for the controller.
 */

import type { KubeObject } from '../../api/meta';
import { forbidden } from '../../machinery/errors';
import { quotaEvaluators } from '../quota/evaluators';
import { compare, prettyPrint, subtractLists, type ResourceList } from '../../machinery/quantity';
import { hardOf, mask, quotaMatches, recount, statusUpdate, type NamespaceListFunc } from '../quota/usage';
import type { AdmissionAttributes, AdmissionPluginFactory } from '../types';

/** How long after a write the status refresh looks for it in the cache (the write itself lands within milliseconds). */
const refreshDelaysMs = [5, 50, 250, 1000];

export const resourceQuota: AdmissionPluginFactory = (deps) => {
  const quotas = deps.lister('', 'resourcequotas');
  const evaluators = quotaEvaluators(deps.profile);
  const list: NamespaceListFunc = (group, resource, namespace) => {
    try {
      return deps.lister(group, resource).list(namespace);
    } catch {
      return undefined;
    }
  };

  /** Hands out the listers the quotas' recounts read, then waits for them: a new lister starts empty. */
  async function syncListersFor(inNamespace: readonly KubeObject[]): Promise<void> {
    for (const quota of inNamespace)
      for (const e of evaluators.evaluatorsForHard([...hardOf(quota).keys()])) list(e.group, e.resource, '');
    await deps.listersSynced();
  }

  async function writeStatus(quota: KubeObject, used: ResourceList): Promise<void> {
    const status = statusUpdate(quota, used);
    if (status === undefined) return;
    const next: KubeObject = { ...structuredClone(quota), status: { ...status } };
    try {
      await deps.client.update('', 'resourcequotas', next, 'status');
    } catch {
      // A concurrent write moved the quota on; the next evaluation or refresh writes the recount again.
    }
  }

  /** Brings every quota of the namespace up to date with the cache (the quota controller's sync). */
  async function refreshNamespace(namespace: string): Promise<void> {
    await syncListersFor(quotas.list(namespace));
    for (const quota of quotas.list(namespace))
      await writeStatus(quota, recount(evaluators, quota, namespace, list, deps.now()));
  }

  function refreshLater(namespace: string, always = false): void {
    // Without a quota in the namespace there is nothing to refresh (a quota being created is not listed yet).
    if (!always && quotas.list(namespace).length === 0) return;
    for (const ms of refreshDelaysMs)
      setTimeout(() => void refreshNamespace(namespace).catch(() => undefined), ms);
  }

  return {
    name: 'ResourceQuota',
    async validate(a: AdmissionAttributes): Promise<void> {
      if (a.subresource !== '' || a.namespace === '') return;
      await deps.listersSynced();
      const isQuota = a.group === '' && a.resource === 'resourcequotas';
      if (a.operation === 'DELETE' || (isQuota && a.operation === 'UPDATE')) {
        if (!a.dryRun) refreshLater(a.namespace);
        if (a.operation === 'DELETE') return;
      }
      const evaluator = evaluators.evaluatorFor(a.group, a.resource);
      if (!evaluator.handles(a.operation) || a.object === undefined) return;
      const object = a.object;
      const inNamespace = quotas.list(a.namespace);
      if (isQuota && a.operation === 'CREATE' && !a.dryRun) refreshLater(a.namespace, true);
      if (inNamespace.length === 0) return;
      await syncListersFor(inNamespace);
      const gr = { group: a.group, resource: a.resource };

      const charged: KubeObject[] = [];
      for (const quota of [...inNamespace].sort(byName)) {
        if (!quotaMatches(quota, evaluator, object)) continue;
        const required = evaluator.matchingResources([...hardOf(quota).keys()]);
        const failure = evaluator.constraints(required, object);
        if (failure !== undefined)
          throw forbidden(gr, a.name, `failed quota: ${quota.metadata?.name ?? ''}: ${failure}`);
        charged.push(quota);
      }
      if (charged.length === 0) return;

      const now = deps.now();
      let delta = evaluator.usage(object, now);
      if (a.operation === 'UPDATE' && a.oldObject !== undefined) {
        // Updates pay only for growth; shrinking frees nothing until the recount.
        const grown = subtractLists(delta, evaluator.usage(a.oldObject, now));
        delta = new Map([...grown].filter(([, v]) => v.nanos > 0n));
      }
      delta = new Map([...delta].filter(([, v]) => v.nanos !== 0n));
      if (delta.size === 0) return;

      const updates: { quota: KubeObject; used: ResourceList }[] = [];
      for (const quota of charged) {
        const hard = hardOf(quota);
        const used = recount(evaluators, quota, a.namespace, list, now);
        const requested = mask(delta, hard.keys());
        const exceeded: string[] = [];
        for (const [name, q] of requested) {
          const after = { nanos: (used.get(name)?.nanos ?? 0n) + q.nanos, format: q.format };
          const limit = hard.get(name);
          if (limit !== undefined && compare(after, limit) > 0) exceeded.push(name);
        }
        if (exceeded.length > 0) {
          throw forbidden(
            gr,
            a.name,
            `exceeded quota: ${quota.metadata?.name ?? ''}, requested: ${prettyPrint(mask(requested, exceeded))}, used: ${prettyPrint(mask(used, exceeded))}, limited: ${prettyPrint(mask(hard, exceeded))}`,
          );
        }
        const next: ResourceList = new Map(used);
        for (const [name, q] of requested) {
          const have = next.get(name);
          next.set(name, have === undefined ? q : { nanos: have.nanos + q.nanos, format: have.format });
        }
        updates.push({ quota, used: next });
      }
      if (a.dryRun) return;
      for (const u of updates) await writeStatus(u.quota, u.used);
      // The charge above is provisional until the write lands; the refresh settles it on the recount.
      refreshLater(a.namespace);
    },
  };
};

function byName(x: KubeObject, y: KubeObject): number {
  const a = x.metadata?.name ?? '';
  const b = y.metadata?.name ?? '';
  return a < b ? -1 : a > b ? 1 : 0;
}
