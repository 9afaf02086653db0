/**
 * The StatefulSet controller: pods with stable names (`<set>-<ordinal>`),
 * stable hostnames under the governing Service, and claims made from
 * `volumeClaimTemplates` (`<template>-<set>-<ordinal>`) before their pod.
 * With `OrderedReady` it creates one pod at a time and waits for each to
 * be Running and Ready (and available for `minReadySeconds`) before the
 * next, removes from the highest ordinal down, and stops at a pod that is
 * terminating or not ready; with `Parallel` it does not wait. Every
 * template is recorded as a ControllerRevision; pods carry their
 * revision's name in `controller-revision-hash`; a RollingUpdate replaces
 * pods from the highest ordinal down to `partition`, one at a time; OnDelete
 * leaves them until deleted. Status counts replicas, ready, available,
 * current and updated ones and names the current and update revisions.
 */

import type { KubeObject } from '../api/meta';
import { isAlreadyExists, isNotFound } from './api-errors';
import { eventRecorder, type InvolvedKind } from './events';
import { objectKey } from './informer';
import type { SharedInformers } from './shared-informers';
import type { Controller, ControllerContext } from './types';
import { WorkQueue } from './work-queue';
import {
  applyRevision,
  newRevision,
  nextRevision,
  revisionHashLabel,
  revisionMatches,
  revisionsRef,
  sortRevisions,
} from './workload/history';
import { claim, controllerOf, newControllerRef } from './workload/owner';
import { message, podFromTemplate, podsRef } from './workload/pod-control';
import { isPodAvailable, isPodReady, isTerminating } from './workload/pods';
import { labelSelectorMatcher } from './workload/selectors';
import { omitZero, writeStatus } from './workload/status';
import type { ControllerRevision, LabelSelector, Pod, PodTemplateSpec } from './workload/types';

const setsRef = { group: 'apps', version: 'v1', resource: 'statefulsets' } as const;
const claimsRef = { group: '', version: 'v1', resource: 'persistentvolumeclaims' } as const;
const setKind: InvolvedKind = { apiVersion: 'apps/v1', kind: 'StatefulSet' };

interface StatefulSet extends KubeObject {
  spec?: {
    replicas?: number;
    selector?: LabelSelector;
    template?: PodTemplateSpec;
    serviceName?: string;
    podManagementPolicy?: string;
    updateStrategy?: { type?: string; rollingUpdate?: { partition?: number } };
    revisionHistoryLimit?: number;
    minReadySeconds?: number;
    volumeClaimTemplates?: KubeObject[];
    persistentVolumeClaimRetentionPolicy?: { whenDeleted?: string; whenScaled?: string };
  };
  status?: Record<string, unknown> & {
    currentRevision?: string;
    updateRevision?: string;
    currentReplicas?: number;
    collisionCount?: number;
  };
}

interface SetStatus {
  observedGeneration?: number;
  replicas: number;
  readyReplicas: number;
  currentReplicas: number;
  updatedReplicas: number;
  availableReplicas: number;
  currentRevision: string;
  updateRevision: string;
  collisionCount: number;
}

const ordinalPattern = /^(.*)-(\d+)$/;

/** The ordinal of a pod named `<set>-<n>` belonging to `set`, or -1. */
function ordinalOf(set: StatefulSet, pod: KubeObject): number {
  const m = ordinalPattern.exec(pod.metadata?.name ?? '');
  if (m === null || m[1] !== set.metadata?.name) return -1;
  return Number(m[2]);
}

const isRunningAndReady = (p: Pod): boolean => p.status?.phase === 'Running' && isPodReady(p);
const isHealthy = (p: Pod): boolean => isRunningAndReady(p) && !isTerminating(p);
const podRevision = (p: Pod): string => p.metadata?.labels?.[revisionHashLabel] ?? '';

export function statefulSetController(ctx: ControllerContext, informers: SharedInformers): Controller {
  const sets = informers.informer(setsRef);
  const pods = informers.informer(podsRef);
  const revisions = informers.informer(revisionsRef);
  const claims = informers.informer(claimsRef);
  const recorder = eventRecorder(ctx.client, 'statefulset-controller', ctx.now);
  const podNameLabel = ctx.profile.subPrefixed('statefulset', 'pod-name');

  const event = (set: StatefulSet, type: 'Normal' | 'Warning', reason: string, msg: string): void =>
    recorder.event(setKind, set, type, reason, msg);

  const claimName = (template: KubeObject, set: StatefulSet, ordinal: number): string =>
    `${template.metadata?.name ?? ''}-${set.metadata?.name ?? ''}-${ordinal}`;

  /** The pod of `ordinal` made from `set` (whose template is a revision's), labelled with that revision. */
  const newPod = (set: StatefulSet, revision: string, ordinal: number): Pod => {
    const name = `${set.metadata?.name ?? ''}-${ordinal}`;
    const pod = podFromTemplate(set.spec?.template, set, newControllerRef(set, setKind));
    const meta = pod.metadata ?? {};
    delete meta.generateName;
    meta.name = name;
    meta.labels = { ...meta.labels, [podNameLabel]: name, [revisionHashLabel]: revision };
    const spec = pod.spec ?? (pod.spec = {});
    spec.hostname = name;
    if (set.spec?.serviceName !== undefined && set.spec.serviceName !== '')
      spec.subdomain = set.spec.serviceName;
    const templates = set.spec?.volumeClaimTemplates ?? [];
    if (templates.length > 0) {
      const claimed = templates.map((t) => ({
        name: t.metadata?.name ?? '',
        persistentVolumeClaim: { claimName: claimName(t, set, ordinal) },
      }));
      const names = new Set(claimed.map((v) => v.name));
      spec.volumes = [...claimed, ...(spec.volumes ?? []).filter((v) => !names.has(v.name))];
    }
    return pod;
  };

  /** Creates the claims of `ordinal` that do not exist yet. */
  const createClaims = async (set: StatefulSet, ordinal: number, podName: string): Promise<void> => {
    const namespace = set.metadata?.namespace ?? '';
    const policy = set.spec?.persistentVolumeClaimRetentionPolicy;
    for (const t of set.spec?.volumeClaimTemplates ?? []) {
      const name = claimName(t, set, ordinal);
      if (claims.get(namespace, name) !== undefined) continue;
      const labels = { ...(t.metadata?.labels ?? {}), ...(set.spec?.selector?.matchLabels ?? {}) };
      const claim: KubeObject = {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: {
          name,
          namespace,
          labels,
          ...(t.metadata?.annotations !== undefined ? { annotations: t.metadata.annotations } : {}),
          // whenDeleted: Delete — the claim goes with its StatefulSet (the garbage collector deletes it).
          ...(policy?.whenDeleted === 'Delete' ? { ownerReferences: [newControllerRef(set, setKind)] } : {}),
        },
        spec: structuredClone(t['spec'] ?? {}),
      };
      try {
        await ctx.client.create({ ...claimsRef, namespace }, claim);
        event(
          set,
          'Normal',
          'SuccessfulCreate',
          `create Claim ${name} Pod ${podName} in StatefulSet ${set.metadata?.name ?? ''} success`,
        );
      } catch (e) {
        if (isAlreadyExists(e)) continue;
        event(
          set,
          'Warning',
          'FailedCreate',
          `create Claim ${name} for Pod ${podName} in StatefulSet ${set.metadata?.name ?? ''} failed error: ${message(e)}`,
        );
        throw e;
      }
    }
  };

  const createPod = async (set: StatefulSet, pod: Pod, ordinal: number): Promise<void> => {
    const name = pod.metadata?.name ?? '';
    await createClaims(set, ordinal, name);
    try {
      await ctx.client.create({ ...podsRef, namespace: set.metadata?.namespace ?? '' }, pod);
    } catch (e) {
      if (isAlreadyExists(e)) return;
      event(
        set,
        'Warning',
        'FailedCreate',
        `create Pod ${name} in StatefulSet ${set.metadata?.name ?? ''} failed error: ${message(e)}`,
      );
      throw e;
    }
    event(
      set,
      'Normal',
      'SuccessfulCreate',
      `create Pod ${name} in StatefulSet ${set.metadata?.name ?? ''} successful`,
    );
  };

  const deletePod = async (set: StatefulSet, pod: Pod): Promise<void> => {
    const name = pod.metadata?.name ?? '';
    try {
      await ctx.client.delete({ ...podsRef, namespace: pod.metadata?.namespace ?? '', name }, {
        apiVersion: 'v1',
        kind: 'DeleteOptions',
        preconditions: { uid: pod.metadata?.uid },
      } as KubeObject);
    } catch (e) {
      if (isNotFound(e)) return;
      event(
        set,
        'Warning',
        'FailedDelete',
        `delete Pod ${name} in StatefulSet ${set.metadata?.name ?? ''} failed error: ${message(e)}`,
      );
      throw e;
    }
    event(
      set,
      'Normal',
      'SuccessfulDelete',
      `delete Pod ${name} in StatefulSet ${set.metadata?.name ?? ''} successful`,
    );
  };

  /** The current and update revisions, creating or renumbering the update revision as upstream does. */
  const syncRevisions = async (
    set: StatefulSet,
    owned: ControllerRevision[],
  ): Promise<{ current: ControllerRevision; update: ControllerRevision; collisionCount: number }> => {
    const sorted = sortRevisions(owned);
    let collisionCount = set.status?.collisionCount ?? 0;
    const namespace = set.metadata?.namespace ?? '';
    const ref = [newControllerRef(set, setKind)];
    const equal = sorted.filter((r) => revisionMatches(set, r));
    let update: ControllerRevision;
    const last = sorted[sorted.length - 1];
    const lastEqual = equal[equal.length - 1];
    if (lastEqual !== undefined && last !== undefined && lastEqual.metadata?.uid === last.metadata?.uid)
      update = last;
    else if (lastEqual !== undefined) {
      // Rolled back to an earlier template: that revision becomes the newest.
      update = await ctx.client.update<ControllerRevision>(
        { ...revisionsRef, namespace, name: lastEqual.metadata?.name ?? '' },
        { ...lastEqual, revision: nextRevision(sorted) },
      );
    } else {
      for (;;) {
        const candidate = newRevision(set, ref, nextRevision(sorted), collisionCount);
        try {
          update = await ctx.client.create<ControllerRevision>({ ...revisionsRef, namespace }, candidate);
          break;
        } catch (e) {
          if (!isAlreadyExists(e)) throw e;
          const existing = await ctx.client.get<ControllerRevision>({
            ...revisionsRef,
            namespace,
            name: candidate.metadata?.name ?? '',
          });
          if (revisionMatches(set, existing)) {
            update = existing;
            break;
          }
          collisionCount++;
        }
      }
    }
    const current = sorted.find((r) => r.metadata?.name === set.status?.currentRevision) ?? update;
    return { current, update, collisionCount };
  };

  /** Deletes the oldest revisions no pod uses beyond `revisionHistoryLimit`. */
  const truncateHistory = async (
    set: StatefulSet,
    owned: ControllerRevision[],
    live: Pod[],
    keep: string[],
  ): Promise<void> => {
    const used = new Set([...keep, ...live.map(podRevision)]);
    const history = sortRevisions(owned).filter((r) => !used.has(r.metadata?.name ?? ''));
    const excess = history.length - (set.spec?.revisionHistoryLimit ?? 10);
    for (const r of history.slice(0, Math.max(0, excess))) {
      try {
        await ctx.client.delete({
          ...revisionsRef,
          namespace: set.metadata?.namespace ?? '',
          name: r.metadata?.name ?? '',
        });
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
    }
  };

  /** One pass of upstream's `updateStatefulSet`: returns the status to record. */
  const updateSet = async (
    set: StatefulSet,
    current: ControllerRevision,
    update: ControllerRevision,
    collisionCount: number,
    owned: Pod[],
  ): Promise<SetStatus> => {
    const currentSet = applyRevision(set, current);
    const updateSetObj = applyRevision(set, update);
    const currentName = current.metadata?.name ?? '';
    const updateName = update.metadata?.name ?? '';
    const now = ctx.now();
    const minReady = set.spec?.minReadySeconds ?? 0;
    const status: SetStatus = {
      observedGeneration: set.metadata?.generation,
      replicas: 0,
      readyReplicas: 0,
      currentReplicas: 0,
      updatedReplicas: 0,
      availableReplicas: 0,
      currentRevision: currentName,
      updateRevision: updateName,
      collisionCount,
    };
    const replicaCount = set.spec?.replicas ?? 1;
    const replicas: (Pod | undefined)[] = new Array<Pod | undefined>(replicaCount).fill(undefined);
    const condemned: Pod[] = [];
    for (const pod of owned) {
      status.replicas++;
      if (isRunningAndReady(pod)) {
        status.readyReplicas++;
        if (isPodAvailable(pod, minReady, now)) status.availableReplicas++;
      }
      if (!isTerminating(pod)) {
        if (podRevision(pod) === currentName) status.currentReplicas++;
        if (podRevision(pod) === updateName) status.updatedReplicas++;
      }
      const ord = ordinalOf(set, pod);
      if (ord >= 0 && ord < replicaCount) replicas[ord] = pod;
      else if (ord >= replicaCount) condemned.push(pod);
    }
    const partition = set.spec?.updateStrategy?.rollingUpdate?.partition ?? 0;
    const rolling = (set.spec?.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate';
    const versioned = (ord: number): { pod: Pod; revision: string } => {
      const useCurrent = rolling && ord < partition;
      const revision = useCurrent ? currentName : updateName;
      return { pod: newPod(useCurrent ? currentSet : updateSetObj, revision, ord), revision };
    };
    condemned.sort((a, b) => ordinalOf(set, a) - ordinalOf(set, b));
    const firstUnhealthy = [...replicas, ...condemned.slice().reverse()].find(
      (p) => p !== undefined && !isHealthy(p),
    );
    if (isTerminating(set)) return status;
    const monotonic = (set.spec?.podManagementPolicy ?? 'OrderedReady') !== 'Parallel';

    for (let ord = 0; ord < replicaCount; ord++) {
      let pod = replicas[ord];
      if (pod !== undefined && pod.status?.phase === 'Failed' && !isTerminating(pod)) {
        event(
          set,
          'Warning',
          'RecreatingFailedPod',
          `StatefulSet ${set.metadata?.namespace ?? ''}/${set.metadata?.name ?? ''} is recreating failed Pod ${pod.metadata?.name ?? ''}`,
        );
        await deletePod(set, pod);
        if (podRevision(pod) === currentName) status.currentReplicas--;
        if (podRevision(pod) === updateName) status.updatedReplicas--;
        status.replicas--;
        pod = undefined;
      }
      if (pod === undefined) {
        const { pod: created, revision } = versioned(ord);
        await createPod(set, created, ord);
        status.replicas++;
        if (revision === currentName) status.currentReplicas++;
        if (revision === updateName) status.updatedReplicas++;
        if (monotonic) return status;
        continue;
      }
      if (pod.status?.phase === 'Pending' || pod.status?.phase === undefined)
        await createClaims(set, ord, pod.metadata?.name ?? '');
      if (isTerminating(pod) && monotonic) return status;
      if (!isRunningAndReady(pod) && monotonic) return status;
      if (!isPodAvailable(pod, minReady, now) && monotonic) return status;
    }

    for (let i = condemned.length - 1; i >= 0; i--) {
      const pod = condemned[i];
      if (pod === undefined) continue;
      if (isTerminating(pod)) {
        if (monotonic) return status;
        continue;
      }
      if (!isRunningAndReady(pod) && monotonic && pod !== firstUnhealthy) return status;
      await deletePod(set, pod);
      if (podRevision(pod) === currentName) status.currentReplicas--;
      if (podRevision(pod) === updateName) status.updatedReplicas--;
      if (monotonic) return status;
    }

    if (!rolling) return status;
    for (let ord = replicas.length - 1; ord >= partition; ord--) {
      const pod = replicas[ord];
      if (pod === undefined) continue;
      if (podRevision(pod) !== updateName && !isTerminating(pod)) {
        await deletePod(set, pod);
        if (podRevision(pod) === currentName) status.currentReplicas--;
        return status;
      }
      if (!isHealthy(pod)) return status;
    }
    return status;
  };

  const reconcile = async (key: string): Promise<{ requeueAfterMs?: number } | void> => {
    await Promise.all([sets.synced, pods.synced, revisions.synced, claims.synced]);
    const [namespace = '', name = ''] = key.split('/');
    const set = sets.get(namespace, name) as StatefulSet | undefined;
    if (set === undefined) return;
    const match = labelSelectorMatcher(set.spec?.selector);
    if (match instanceof Error) return;
    const common = {
      client: ctx.client,
      owner: set,
      ownerKind: setKind,
      ownerRef: setsRef,
    };
    const ownedRevisions = await claim({
      ...common,
      ref: revisionsRef,
      candidates: revisions.inNamespace(namespace) as ControllerRevision[],
      match: (r) => match(r.metadata?.labels),
    });
    const ownedPods = await claim({
      ...common,
      ref: podsRef,
      candidates: pods.inNamespace(namespace) as Pod[],
      // Only pods named after the set are its members.
      match: (p) => match(p.metadata?.labels) && ordinalOf(set, p) >= 0,
    });
    const { current, update, collisionCount } = await syncRevisions(set, ownedRevisions);
    const status = await updateSet(set, current, update, collisionCount, ownedPods);
    // A finished rolling update makes the update revision the current one.
    if (
      (set.spec?.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate' &&
      status.updatedReplicas === status.replicas &&
      status.readyReplicas === status.replicas
    ) {
      status.currentReplicas = status.updatedReplicas;
      status.currentRevision = status.updateRevision;
    }
    const next = {
      ...omitZero(status, ['observedGeneration', 'readyReplicas', 'currentReplicas', 'updatedReplicas']),
    } as Record<string, unknown>;
    const conditions = (set.status as { conditions?: unknown[] } | undefined)?.conditions;
    if (conditions !== undefined) next['conditions'] = conditions;
    await writeStatus(ctx.client, setsRef, set, next);
    await truncateHistory(set, ownedRevisions, ownedPods, [status.currentRevision, status.updateRevision]);
    const minReady = set.spec?.minReadySeconds ?? 0;
    if (minReady > 0 && status.readyReplicas !== status.availableReplicas)
      return { requeueAfterMs: minReady * 1000 };
  };

  const queue = new WorkQueue(reconcile, { clock: ctx.clock });
  const ownerKey = (pod: KubeObject): string | undefined => {
    const ref = controllerOf(pod);
    if (ref?.kind !== 'StatefulSet') return undefined;
    const set = sets.get(pod.metadata?.namespace ?? '', ref.name);
    return set?.metadata?.uid === ref.uid ? objectKey(set) : undefined;
  };
  const onPod = (pod: KubeObject, old?: KubeObject): void => {
    const owner = ownerKey(pod);
    const before = old !== undefined ? ownerKey(old) : undefined;
    if (before !== undefined && before !== owner) queue.add(before);
    if (owner !== undefined) return queue.add(owner);
    if (controllerOf(pod) !== undefined) return;
    for (const s of sets.inNamespace(pod.metadata?.namespace ?? '')) {
      const m = labelSelectorMatcher((s as StatefulSet).spec?.selector);
      if (!(m instanceof Error) && m(pod.metadata?.labels)) queue.add(objectKey(s));
    }
  };
  sets.addHandlers({
    add: (s) => queue.add(objectKey(s)),
    update: (_old, s) => queue.add(objectKey(s)),
    delete: (s) => queue.add(objectKey(s)),
  });
  pods.addHandlers({
    add: (p) => onPod(p),
    update: (old, p) => onPod(p, old),
    delete: (p) => onPod(p),
  });

  return {
    name: 'statefulset',
    start: () => undefined,
    stop: () => queue.stop(),
    idle: async () => {
      await queue.idle();
      await recorder.flush();
    },
  };
}
