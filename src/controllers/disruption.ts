/**
 * The disruption controller: keeps each PodDisruptionBudget's status — the
 * pods it selects that are healthy (ready, not being deleted, not just
 * evicted), how many must stay healthy (`minAvailable`, or the expected
 * count less `maxUnavailable`, percentages resolved against the scale of
 * the pods' controllers), how many may be disrupted now, and the
 * `DisruptionAllowed` condition — which the eviction subresource reads. A
 * pod an eviction recorded in `disruptedPods` counts as gone for two
 * minutes (or until it is deleted). A budget whose pods' controllers
 * cannot be found allows no disruption (`SyncFailed`).
 */

import type { KubeObject } from '../api/meta';
import { deepEqual } from '../machinery/json';
import { eventRecorder, type InvolvedKind } from './events';
import { objectKey } from './informer';
import type { SharedInformers } from './shared-informers';
import type { Controller, ControllerContext } from './types';
import { WorkQueue } from './work-queue';
import { setCondition, timestamp } from './workload/conditions';
import { scaledValue } from './workload/int-or-percent';
import { controllerOf } from './workload/owner';
import { podsRef } from './workload/pod-control';
import { isPodReady, isTerminating } from './workload/pods';
import { labelSelectorMatcher } from './workload/selectors';
import type { Condition, IntOrString, LabelSelector, Pod } from './workload/types';

const pdbKind: InvolvedKind = { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget' };
const deletionTimeoutMs = 2 * 60_000;

interface Budget extends KubeObject {
  spec?: { selector?: LabelSelector | null; minAvailable?: IntOrString; maxUnavailable?: IntOrString };
  status?: {
    disruptedPods?: Record<string, string>;
    conditions?: Condition[];
  };
}

const owners: Record<string, { group: string; resource: string }> = {
  ReplicaSet: { group: 'apps', resource: 'replicasets' },
  Deployment: { group: 'apps', resource: 'deployments' },
  StatefulSet: { group: 'apps', resource: 'statefulsets' },
  ReplicationController: { group: '', resource: 'replicationcontrollers' },
};

export function disruptionController(ctx: ControllerContext, informers: SharedInformers): Controller {
  const pdbsRef = { group: 'policy', version: 'v1', resource: 'poddisruptionbudgets' };
  const budgets = informers.informer(pdbsRef);
  const pods = informers.informer(podsRef);
  const replicaSets = informers.informer({ group: 'apps', version: 'v1', resource: 'replicasets' });
  const recorder = eventRecorder(ctx.client, 'controllermanager', ctx.now);

  /** The replicas the pods' controllers ask for (a ReplicaSet of a Deployment counts as its Deployment). */
  const expectedScale = async (list: Pod[]): Promise<number> => {
    const seen = new Map<string, number>();
    for (const pod of list) {
      let ref = controllerOf(pod);
      if (ref === undefined) throw new Error(`found no controller ref for pod "${pod.metadata?.name ?? ''}"`);
      const namespace = pod.metadata?.namespace ?? '';
      if (ref.kind === 'ReplicaSet') {
        const rs = replicaSets.get(namespace, ref.name);
        const up = rs !== undefined ? controllerOf(rs) : undefined;
        if (up?.kind === 'Deployment') ref = up;
      }
      if (seen.has(ref.uid)) continue;
      const kind = owners[ref.kind];
      if (kind === undefined) throw new Error(`found no controllers for pod "${pod.metadata?.name ?? ''}"`);
      const scale = await ctx.client.get({
        group: kind.group,
        version: 'v1',
        resource: kind.resource,
        namespace,
        name: ref.name,
        subresource: 'scale',
      });
      seen.set(ref.uid, (scale.spec as { replicas?: number } | undefined)?.replicas ?? 0);
    }
    return [...seen.values()].reduce((a, b) => a + b, 0);
  };

  const reconcile = async (key: string): Promise<{ requeueAfterMs?: number } | void> => {
    await Promise.all([budgets.synced, pods.synced, replicaSets.synced]);
    const [namespace = '', name = ''] = key.split('/');
    const pdb = budgets.get(namespace, name) as Budget | undefined;
    if (pdb === undefined) return;
    const match = labelSelectorMatcher(pdb.spec?.selector ?? undefined);
    const selected =
      match instanceof Error
        ? []
        : (pods.inNamespace(namespace) as Pod[]).filter((p) => match(p.metadata?.labels));
    if (selected.length === 0) recorder.event(pdbKind, pdb, 'Normal', 'NoPods', 'No matching pods found');
    const now = ctx.now().getTime();
    const stamp = timestamp(ctx.now());
    const old = pdb.status ?? {};
    let expected = 0;
    let desired = 0;
    let failure: string | undefined;
    try {
      const { minAvailable, maxUnavailable } = pdb.spec ?? {};
      if (maxUnavailable !== undefined) {
        expected = await expectedScale(selected);
        desired = Math.max(0, expected - scaledValue(maxUnavailable, expected, true));
      } else if (typeof minAvailable === 'number') {
        expected = selected.length;
        desired = minAvailable;
      } else if (typeof minAvailable === 'string') {
        expected = await expectedScale(selected);
        desired = scaledValue(minAvailable, expected, true);
      }
    } catch (e) {
      failure = e instanceof Error ? e.message : String(e);
      recorder.event(
        pdbKind,
        pdb,
        'Warning',
        'CalculateExpectedPodCountFailed',
        `Failed to calculate the number of expected pods: ${failure}`,
      );
    }
    // Evicted pods count as gone until they are deleted, for two minutes at most.
    const disrupted: Record<string, string> = {};
    let recheckAt: number | undefined;
    for (const [pod, at] of Object.entries(old.disruptedPods ?? {})) {
      const p = selected.find((x) => x.metadata?.name === pod);
      if (p === undefined || isTerminating(p)) continue;
      const expires = Date.parse(at) + deletionTimeoutMs;
      if (expires <= now) continue;
      disrupted[pod] = at;
      recheckAt = Math.min(recheckAt ?? expires, expires);
    }
    const healthy = selected.filter(
      (p) => !isTerminating(p) && disrupted[p.metadata?.name ?? ''] === undefined && isPodReady(p),
    ).length;
    const allowed = failure !== undefined || expected <= 0 ? 0 : Math.max(0, healthy - desired);
    const condition: Condition =
      failure !== undefined
        ? {
            type: 'DisruptionAllowed',
            status: 'False',
            reason: 'SyncFailed',
            message: failure,
            lastTransitionTime: stamp,
          }
        : allowed > 0
          ? {
              type: 'DisruptionAllowed',
              status: 'True',
              reason: 'SufficientPods',
              message: '',
              lastTransitionTime: stamp,
            }
          : {
              type: 'DisruptionAllowed',
              status: 'False',
              reason: 'InsufficientPods',
              message: '',
              lastTransitionTime: stamp,
            };
    const status = {
      ...(Object.keys(disrupted).length > 0 ? { disruptedPods: disrupted } : {}),
      disruptionsAllowed: allowed,
      currentHealthy: failure !== undefined ? 0 : healthy,
      desiredHealthy: desired,
      expectedPods: expected,
      observedGeneration: pdb.metadata?.generation,
      conditions: setCondition(old.conditions, condition),
    };
    if (!deepEqual(status, old))
      await ctx.client.update({ ...pdbsRef, namespace, name, subresource: 'status' }, { ...pdb, status });
    if (recheckAt !== undefined) return { requeueAfterMs: recheckAt - now };
  };
  const queue = new WorkQueue(reconcile, { clock: ctx.clock });

  const onPod = (pod: KubeObject): void => {
    for (const b of budgets.inNamespace(pod.metadata?.namespace ?? '')) {
      const m = labelSelectorMatcher((b as Budget).spec?.selector ?? undefined);
      if (!(m instanceof Error) && m(pod.metadata?.labels)) queue.add(objectKey(b));
    }
  };
  budgets.addHandlers({ add: (b) => queue.add(objectKey(b)), update: (_o, b) => queue.add(objectKey(b)) });
  pods.addHandlers({
    add: onPod,
    update: (old, p) => {
      onPod(p);
      if (!deepEqual(old.metadata?.labels, p.metadata?.labels)) onPod(old);
    },
    delete: onPod,
  });

  return {
    name: 'disruption',
    start: () => undefined,
    stop: () => queue.stop(),
    idle: async () => {
      await queue.idle();
      await recorder.flush();
    },
  };
}
