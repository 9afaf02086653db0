/**
 * The ReplicaSet controller, and the ReplicationController manager that is
 * the same controller over the older kind (as upstream): it keeps
 * `spec.replicas` active pods matching the selector — adopting orphans it
 * matches, releasing pods it no longer matches, creating the missing ones
 * in slow-start batches (1, 2, 4, … so a refused template fails once, not
 * N times) and deleting the surplus in the real deletion order — and
 * reports `replicas`, `fullyLabeledReplicas`, `readyReplicas`,
 * `availableReplicas` (ready for `minReadySeconds`), `observedGeneration`
 * and a `ReplicaFailure` condition while creating or deleting fails.
 * Expectations keep it from acting twice on a cache that has not yet seen
 * its own writes.
 */

import type { KubeObject } from '../api/meta';
import type { ResourceRef } from '../client/paths';
import { eventRecorder, type InvolvedKind } from './events';
import { objectKey } from './informer';
import type { SharedInformers } from './shared-informers';
import type { Controller, ControllerContext } from './types';
import { WorkQueue } from './work-queue';
import { findCondition, removeCondition, setCondition, timestamp } from './workload/conditions';
import { Expectations } from './workload/expectations';
import { claim, controllerOf, newControllerRef } from './workload/owner';
import { message, PodControl, podFromTemplate, podsRef } from './workload/pod-control';
import { isPodActive, isPodAvailable, isPodReady, isTerminating, rankForDeletion } from './workload/pods';
import { labelSelectorMatcher, mapSelectorMatcher, type Matcher } from './workload/selectors';
import { omitZero, writeStatus } from './workload/status';
import type { Pod, PodTemplateSpec, ReplicaSet, ReplicaSetStatus } from './workload/types';

/** The most pods one sync creates or deletes (upstream's burstReplicas). */
const burstReplicas = 500;

interface ReplicaKind {
  controllerName: string;
  component: string;
  ref: ResourceRef;
  kind: InvolvedKind;
  matcher(obj: KubeObject): Matcher | Error;
}

const replicaSetKind: ReplicaKind = {
  controllerName: 'replicaset',
  component: 'replicaset-controller',
  ref: { group: 'apps', version: 'v1', resource: 'replicasets' },
  kind: { apiVersion: 'apps/v1', kind: 'ReplicaSet' },
  matcher: (rs) => labelSelectorMatcher((rs as ReplicaSet).spec?.selector),
};

const replicationControllerKind: ReplicaKind = {
  controllerName: 'replicationcontroller',
  component: 'replication-controller',
  ref: { group: '', version: 'v1', resource: 'replicationcontrollers' },
  kind: { apiVersion: 'v1', kind: 'ReplicationController' },
  matcher: (rc) =>
    mapSelectorMatcher((rc.spec as { selector?: Record<string, string> } | undefined)?.selector),
};

export function replicaSetController(ctx: ControllerContext, informers: SharedInformers): Controller {
  return replicaManager(ctx, informers, replicaSetKind);
}

export function replicationController(ctx: ControllerContext, informers: SharedInformers): Controller {
  return replicaManager(ctx, informers, replicationControllerKind);
}

/** Runs `fn` `count` times in batches doubling from one, stopping after a batch with a failure. */
async function slowStartBatch(
  count: number,
  fn: () => Promise<void>,
): Promise<{ ok: number; error?: unknown }> {
  let remaining = count;
  let ok = 0;
  for (let batch = Math.min(remaining, 1); batch > 0; batch = Math.min(2 * batch, remaining)) {
    const results = await Promise.allSettled(Array.from({ length: batch }, () => fn()));
    const failed = results.find((r) => r.status === 'rejected');
    ok += results.filter((r) => r.status === 'fulfilled').length;
    if (failed !== undefined) return { ok, error: (failed as PromiseRejectedResult).reason };
    remaining -= batch;
  }
  return { ok };
}

function replicaManager(ctx: ControllerContext, informers: SharedInformers, rk: ReplicaKind): Controller {
  const owners = informers.informer(rk.ref);
  const pods = informers.informer(podsRef);
  const recorder = eventRecorder(ctx.client, rk.component, ctx.now);
  const podControl = new PodControl(ctx.client, recorder);
  const expectations = new Expectations(() => ctx.now().getTime());

  const ownedBy = (pod: KubeObject): string | undefined => {
    const ref = controllerOf(pod);
    if (
      ref === undefined ||
      ref.kind !== rk.kind.kind ||
      ref.apiVersion.split('/')[0] !== rk.kind.apiVersion.split('/')[0]
    )
      return undefined;
    const owner = owners.get(pod.metadata?.namespace ?? '', ref.name);
    return owner?.metadata?.uid === ref.uid ? objectKey(owner) : undefined;
  };

  /** The controllers of the pod's namespace whose selector matches it (for an orphan). */
  const matchingOwners = (pod: KubeObject): string[] =>
    owners
      .inNamespace(pod.metadata?.namespace ?? '')
      .filter((o) => {
        const m = rk.matcher(o);
        return !(m instanceof Error) && m(pod.metadata?.labels);
      })
      .map(objectKey);

  const replicasOf = (o: KubeObject): number => (o.spec as { replicas?: number } | undefined)?.replicas ?? 1;
  const minReadyOf = (o: KubeObject): number =>
    (o.spec as { minReadySeconds?: number } | undefined)?.minReadySeconds ?? 0;
  const templateOf = (o: KubeObject): PodTemplateSpec | undefined =>
    (o.spec as { template?: PodTemplateSpec } | undefined)?.template;

  const manageReplicas = async (key: string, owner: KubeObject, active: Pod[]): Promise<void> => {
    const diff = active.length - replicasOf(owner);
    const namespace = owner.metadata?.namespace ?? '';
    if (diff < 0) {
      const want = Math.min(-diff, burstReplicas);
      expectations.expectCreations(key, want);
      const ref = newControllerRef(owner, rk.kind);
      const { ok, error } = await slowStartBatch(want, async () => {
        await podControl.create(namespace, podFromTemplate(templateOf(owner), owner, ref), owner, rk.kind);
      });
      // The creates never attempted or refused will never be observed.
      for (let i = ok; i < want; i++) expectations.creationFailed(key);
      if (error !== undefined) throw error;
      return;
    }
    if (diff > 0) {
      const count = Math.min(diff, burstReplicas);
      const doomed = rankForDeletion(active, active, ctx.profile).slice(0, count);
      expectations.expectDeletions(
        key,
        doomed.map((p) => p.metadata?.uid ?? ''),
      );
      const results = await Promise.allSettled(
        doomed.map(async (p) => {
          try {
            await podControl.delete(p, owner, rk.kind);
          } catch (e) {
            expectations.deletionObserved(key, p.metadata?.uid ?? '');
            throw e;
          }
        }),
      );
      const failed = results.find((r) => r.status === 'rejected');
      if (failed !== undefined) throw (failed as PromiseRejectedResult).reason;
    }
  };

  const calculateStatus = (owner: KubeObject, active: Pod[], manageError: unknown): ReplicaSetStatus => {
    const now = ctx.now();
    const templateLabels = Object.entries(templateOf(owner)?.metadata?.labels ?? {});
    let fullyLabeled = 0;
    let ready = 0;
    let available = 0;
    for (const p of active) {
      if (templateLabels.every(([k, v]) => p.metadata?.labels?.[k] === v)) fullyLabeled++;
      if (isPodReady(p)) {
        ready++;
        if (isPodAvailable(p, minReadyOf(owner), now)) available++;
      }
    }
    const current = (owner.status ?? {}) as ReplicaSetStatus;
    let conditions = current.conditions;
    const failure = findCondition(conditions, 'ReplicaFailure');
    if (manageError !== undefined && failure === undefined) {
      const diff = active.length - replicasOf(owner);
      conditions = setCondition(conditions, {
        type: 'ReplicaFailure',
        status: 'True',
        lastTransitionTime: timestamp(now),
        reason: diff < 0 ? 'FailedCreate' : diff > 0 ? 'FailedDelete' : '',
        message: message(manageError),
      });
    } else if (manageError === undefined && failure !== undefined)
      conditions = removeCondition(conditions, 'ReplicaFailure');
    return omitZero(
      {
        replicas: active.length,
        fullyLabeledReplicas: fullyLabeled,
        readyReplicas: ready,
        availableReplicas: available,
        observedGeneration: owner.metadata?.generation,
        ...(conditions !== undefined && conditions.length > 0 ? { conditions } : {}),
      },
      ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration'],
    );
  };

  const reconcile = async (key: string): Promise<{ requeueAfterMs?: number } | void> => {
    await Promise.all([owners.synced, pods.synced]);
    const [namespace = '', name = ''] = key.split('/');
    const owner = owners.get(namespace, name);
    if (owner === undefined) {
      expectations.delete(key);
      return;
    }
    const match = rk.matcher(owner);
    // Validation refuses such selectors; one stored anyway is skipped, not retried in a loop.
    if (match instanceof Error) return;
    const needsSync = expectations.satisfied(key);
    const candidates = pods.inNamespace(namespace).filter(isPodActive) as Pod[];
    const active = await claim({
      client: ctx.client,
      owner,
      ownerKind: rk.kind,
      ownerRef: rk.ref,
      ref: podsRef,
      candidates,
      match: (p) => match(p.metadata?.labels),
    });
    let manageError: unknown;
    if (needsSync && !isTerminating(owner)) {
      try {
        await manageReplicas(key, owner, active);
      } catch (e) {
        manageError = e;
      }
    }
    const updated = await writeStatus(ctx.client, rk.ref, owner, calculateStatus(owner, active, manageError));
    if (manageError !== undefined) throw manageError;
    const status = (updated.status ?? {}) as ReplicaSetStatus;
    const minReady = minReadyOf(owner);
    if (
      minReady > 0 &&
      (status.readyReplicas ?? 0) === replicasOf(owner) &&
      (status.availableReplicas ?? 0) !== replicasOf(owner)
    )
      return { requeueAfterMs: minReady * 1000 };
  };

  const queue = new WorkQueue(reconcile, { clock: ctx.clock });

  owners.addHandlers({
    add: (o) => queue.add(objectKey(o)),
    update: (_old, o) => queue.add(objectKey(o)),
    delete: (o) => {
      expectations.delete(objectKey(o));
      queue.add(objectKey(o));
    },
  });
  pods.addHandlers({
    add: (p) => {
      const owner = ownedBy(p);
      if (owner !== undefined) {
        if (isTerminating(p)) expectations.deletionObserved(owner, p.metadata?.uid ?? '');
        else expectations.creationObserved(owner);
        queue.add(owner);
        return;
      }
      if (controllerOf(p) === undefined) for (const k of matchingOwners(p)) queue.add(k);
    },
    update: (old, p) => {
      const before = ownedBy(old);
      const after = ownedBy(p);
      if (isTerminating(p) && !isTerminating(old) && after !== undefined)
        expectations.deletionObserved(after, p.metadata?.uid ?? '');
      if (before !== undefined && before !== after) queue.add(before);
      if (after !== undefined) {
        queue.add(after);
        // A pod that just became ready becomes available `minReadySeconds` later.
        const owner = owners.get(p.metadata?.namespace ?? '', after.split('/')[1] ?? '');
        const minReady = owner !== undefined ? minReadyOf(owner) : 0;
        if (minReady > 0 && isPodReady(p as Pod) && !isPodReady(old as Pod))
          queue.addAfter(after, minReady * 1000 + 1000);
        return;
      }
      if (controllerOf(p) === undefined) {
        const keys = new Set([...matchingOwners(p), ...matchingOwners(old)]);
        for (const k of keys) queue.add(k);
      }
    },
    delete: (p) => {
      const owner = ownedBy(p);
      if (owner === undefined) return;
      expectations.deletionObserved(owner, p.metadata?.uid ?? '');
      queue.add(owner);
    },
  });

  return {
    name: rk.controllerName,
    start: () => undefined,
    stop: () => queue.stop(),
    idle: async () => {
      await queue.idle();
      await recorder.flush();
    },
  };
}
