/**
 * The Deployment controller: each Deployment, and each of its ReplicaSets
 * and (for a Recreate rollout) pods as they change, queues the Deployment
 * for a sync (`sync.ts`). ReplicaSets are claimed as pods are by the
 * ReplicaSet controller: the Deployment adopts orphans its selector
 * matches and releases sets it no longer matches. A sync that fails is
 * retried with the queue's per-key back-off; a rollout waiting for its
 * progress deadline is looked at again when the deadline passes on the
 * server's clock.
 */

import type { KubeObject } from '../../api/meta';
import { eventRecorder } from '../events';
import { objectKey } from '../informer';
import type { SharedInformers } from '../shared-informers';
import type { Controller, ControllerContext } from '../types';
import { WorkQueue } from '../work-queue';
import { claim, controllerOf } from '../workload/owner';
import { podsRef } from '../workload/pod-control';
import { labelSelectorMatcher } from '../workload/selectors';
import type { Deployment, Pod, ReplicaSet } from '../workload/types';
import { DeploymentSync, deploymentKind, deploymentsRef, replicaSetsRef } from './sync';
import { deploymentAnnotations } from './util';

export function deploymentController(ctx: ControllerContext, informers: SharedInformers): Controller {
  const deployments = informers.informer(deploymentsRef);
  const replicaSets = informers.informer(replicaSetsRef);
  const pods = informers.informer(podsRef);
  const recorder = eventRecorder(ctx.client, 'deployment-controller', ctx.now);
  const keys = deploymentAnnotations(ctx.profile);

  const reconcile = async (key: string): Promise<{ requeueAfterMs?: number } | void> => {
    await Promise.all([deployments.synced, replicaSets.synced, pods.synced]);
    const [namespace = '', name = ''] = key.split('/');
    const d = deployments.get(namespace, name) as Deployment | undefined;
    if (d === undefined) return;
    const match = labelSelectorMatcher(d.spec?.selector);
    if (match instanceof Error) return;
    const sets = await claim({
      client: ctx.client,
      owner: d,
      ownerKind: deploymentKind,
      ownerRef: deploymentsRef,
      ref: replicaSetsRef,
      candidates: replicaSets.inNamespace(namespace) as ReplicaSet[],
      match: (rs) => match(rs.metadata?.labels),
    });
    const setUids = new Set(sets.map((rs) => rs.metadata?.uid));
    const ownPods = (pods.inNamespace(namespace) as Pod[]).filter((p) => setUids.has(controllerOf(p)?.uid));
    return new DeploymentSync({ client: ctx.client, recorder, now: ctx.now, keys }, d, sets, ownPods).run();
  };
  const queue = new WorkQueue(reconcile, { clock: ctx.clock });

  /** The Deployment controlling `obj` (a ReplicaSet), when it is in the cache. */
  const ownerKey = (obj: KubeObject): string | undefined => {
    const ref = controllerOf(obj);
    if (ref === undefined || ref.kind !== 'Deployment') return undefined;
    const d = deployments.get(obj.metadata?.namespace ?? '', ref.name);
    return d?.metadata?.uid === ref.uid ? objectKey(d) : undefined;
  };
  const matching = (rs: KubeObject): string[] =>
    deployments
      .inNamespace(rs.metadata?.namespace ?? '')
      .filter((d) => {
        const m = labelSelectorMatcher((d as Deployment).spec?.selector);
        return !(m instanceof Error) && m(rs.metadata?.labels);
      })
      .map(objectKey);
  const onReplicaSet = (rs: KubeObject, old?: KubeObject): void => {
    const owner = ownerKey(rs);
    const before = old !== undefined ? ownerKey(old) : undefined;
    if (before !== undefined && before !== owner) queue.add(before);
    if (owner !== undefined) return queue.add(owner);
    if (controllerOf(rs) === undefined) for (const k of matching(rs)) queue.add(k);
  };

  deployments.addHandlers({
    add: (d) => queue.add(objectKey(d)),
    update: (_old, d) => queue.add(objectKey(d)),
    delete: (d) => queue.add(objectKey(d)),
  });
  replicaSets.addHandlers({
    add: (rs) => onReplicaSet(rs),
    update: (old, rs) => onReplicaSet(rs, old),
    delete: (rs) => {
      const owner = ownerKey(rs);
      if (owner !== undefined) queue.add(owner);
    },
  });
  // A Recreate rollout waits for the old pods to be gone.
  pods.addHandlers({
    delete: (pod) => {
      const rsRef = controllerOf(pod);
      if (rsRef?.kind !== 'ReplicaSet') return;
      const rs = replicaSets.get(pod.metadata?.namespace ?? '', rsRef.name);
      const owner = rs !== undefined ? ownerKey(rs) : undefined;
      if (owner === undefined) return;
      const d = deployments.get(pod.metadata?.namespace ?? '', owner.split('/')[1] ?? '') as
        Deployment | undefined;
      if (d?.spec?.strategy?.type === 'Recreate') queue.add(owner);
    },
  });

  return {
    name: 'deployment',
    start: () => undefined,
    stop: () => queue.stop(),
    idle: async () => {
      await queue.idle();
      await recorder.flush();
    },
  };
}
