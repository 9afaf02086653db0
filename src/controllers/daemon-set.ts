/**
 * The DaemonSet controller: one pod per eligible node — a node its
 * template's nodeName, nodeSelector and required node affinity match and
 * whose NoSchedule/NoExecute taints it tolerates (with the tolerations
 * every daemon pod gets: not-ready, unreachable, the pressure conditions,
 * unschedulable). Each pod is pinned to its node by a required node
 * affinity on `metadata.name` and left to the scheduler to bind. Extra and
 * failed pods are deleted, pods on nodes that no longer fit too. Templates
 * are recorded as ControllerRevisions (pods carry the hash in
 * `controller-revision-hash`); a RollingUpdate replaces old pods within
 * `maxUnavailable`. Status counts desired, current, misscheduled, ready,
 * updated, available and unavailable pods.
 */

import type { KubeObject } from '../api/meta';
import { isAlreadyExists, isNotFound } from './api-errors';
import { eventRecorder, type InvolvedKind } from './events';
import { objectKey } from './informer';
import type { SharedInformers } from './shared-informers';
import type { Controller, ControllerContext } from './types';
import { WorkQueue } from './work-queue';
import { Expectations } from './workload/expectations';
import {
  newRevision,
  nextRevision,
  revisionHashLabel,
  revisionMatches,
  revisionsRef,
  sortRevisions,
} from './workload/history';
import { scaledValue } from './workload/int-or-percent';
import { daemonPodFits, pinToNode, targetNodeName } from './workload/node-fit';
import { claim, controllerOf, newControllerRef } from './workload/owner';
import { PodControl, podFromTemplate, podsRef } from './workload/pod-control';
import { isPodAvailable, isPodReady, isTerminating } from './workload/pods';
import { isEmptySelector, labelSelectorMatcher } from './workload/selectors';
import { omitZero, writeStatus } from './workload/status';
import type {
  ControllerRevision,
  IntOrString,
  LabelSelector,
  Pod,
  PodTemplateSpec,
  Toleration,
} from './workload/types';

const daemonSetsRef = { group: 'apps', version: 'v1', resource: 'daemonsets' } as const;
const nodesRef = { group: '', version: 'v1', resource: 'nodes' } as const;
const dsKind: InvolvedKind = { apiVersion: 'apps/v1', kind: 'DaemonSet' };
const templateGenerationAnnotation = 'deprecated.daemonset.template.generation';
const templateGenerationLabel = 'pod-template-generation';
const burstReplicas = 250;

interface DaemonSet extends KubeObject {
  spec?: {
    selector?: LabelSelector;
    template?: PodTemplateSpec;
    updateStrategy?: {
      type?: string;
      rollingUpdate?: { maxUnavailable?: IntOrString; maxSurge?: IntOrString };
    };
    minReadySeconds?: number;
    revisionHistoryLimit?: number;
  };
  status?: Record<string, unknown> & { collisionCount?: number };
}

function created(p: KubeObject): number {
  const t = p.metadata?.creationTimestamp;
  return t !== undefined && t !== null ? Date.parse(t) : 0;
}

/** Oldest first, running before not running (`podByCreationTimestampAndPhase`). */
function byAgeAndPhase(a: Pod, b: Pod): number {
  const ar = a.status?.phase === 'Running';
  const br = b.status?.phase === 'Running';
  if (ar !== br) return ar ? -1 : 1;
  return created(a) - created(b) || ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1);
}

export function daemonSetController(ctx: ControllerContext, informers: SharedInformers): Controller {
  const daemonSets = informers.informer(daemonSetsRef);
  const pods = informers.informer(podsRef);
  const nodes = informers.informer(nodesRef);
  const revisions = informers.informer(revisionsRef);
  const recorder = eventRecorder(ctx.client, 'daemonset-controller', ctx.now);
  const podControl = new PodControl(ctx.client, recorder);
  const expectations = new Expectations(() => ctx.now().getTime());

  const nodeTaint = (name: string) => ctx.profile.subPrefixed('node', name);
  const daemonTolerations = (hostNetwork: boolean): Toleration[] => [
    { key: nodeTaint('not-ready'), operator: 'Exists', effect: 'NoExecute' },
    { key: nodeTaint('unreachable'), operator: 'Exists', effect: 'NoExecute' },
    { key: nodeTaint('disk-pressure'), operator: 'Exists', effect: 'NoSchedule' },
    { key: nodeTaint('memory-pressure'), operator: 'Exists', effect: 'NoSchedule' },
    { key: nodeTaint('pid-pressure'), operator: 'Exists', effect: 'NoSchedule' },
    { key: nodeTaint('unschedulable'), operator: 'Exists', effect: 'NoSchedule' },
    ...(hostNetwork
      ? [{ key: nodeTaint('network-unavailable'), operator: 'Exists', effect: 'NoSchedule' }]
      : []),
  ];
  /** The template's pod spec with the daemon tolerations added (what the predicates and new pods use). */
  const daemonSpec = (ds: DaemonSet) => {
    const spec = structuredClone(ds.spec?.template?.spec ?? {});
    const tolerations = [...(spec.tolerations ?? [])];
    for (const t of daemonTolerations(spec['hostNetwork'] === true))
      if (!tolerations.some((x) => x.key === t.key && x.effect === t.effect && x.operator === t.operator))
        tolerations.push(t);
    spec.tolerations = tolerations;
    return spec;
  };
  const templateGeneration = (ds: DaemonSet): string | undefined =>
    ds.metadata?.annotations?.[templateGenerationAnnotation];
  const isUpdated = (pod: Pod, ds: DaemonSet, hash: string): boolean => {
    const generation = templateGeneration(ds);
    return (
      (hash !== '' && pod.metadata?.labels?.[revisionHashLabel] === hash) ||
      (generation !== undefined && pod.metadata?.labels?.[templateGenerationLabel] === generation)
    );
  };

  /** The current revision (created or renumbered as needed) and the old ones. */
  const constructHistory = async (
    ds: DaemonSet,
    owned: ControllerRevision[],
  ): Promise<{ cur: ControllerRevision; old: ControllerRevision[] }> => {
    const namespace = ds.metadata?.namespace ?? '';
    const cur = owned.filter((r) => revisionMatches(ds, r));
    const old = owned.filter((r) => !revisionMatches(ds, r));
    const revision = nextRevision(old);
    const latest = sortRevisions(cur).pop();
    if (latest !== undefined) {
      // Extra copies of the current revision (a race) go; a rolled-back-to revision becomes the newest.
      for (const extra of cur.filter((r) => r !== latest))
        await ctx.client
          .delete({ ...revisionsRef, namespace, name: extra.metadata?.name ?? '' })
          .catch((e: unknown) => {
            if (!isNotFound(e)) throw e;
          });
      if ((latest.revision ?? 0) < revision)
        return {
          cur: await ctx.client.update<ControllerRevision>(
            { ...revisionsRef, namespace, name: latest.metadata?.name ?? '' },
            { ...latest, revision },
          ),
          old,
        };
      return { cur: latest, old };
    }
    const candidate = newRevision(ds, [newControllerRef(ds, dsKind)], revision, ds.status?.collisionCount);
    try {
      return {
        cur: await ctx.client.create<ControllerRevision>({ ...revisionsRef, namespace }, candidate),
        old,
      };
    } catch (e) {
      if (!isAlreadyExists(e)) throw e;
      const existing = await ctx.client.get<ControllerRevision>({
        ...revisionsRef,
        namespace,
        name: candidate.metadata?.name ?? '',
      });
      if (revisionMatches(ds, existing)) return { cur: existing, old };
      // A hash collision: the next sync names the revision with another count.
      await writeStatus(ctx.client, daemonSetsRef, ds, {
        ...(ds.status ?? {}),
        collisionCount: (ds.status?.collisionCount ?? 0) + 1,
      });
      throw e;
    }
  };

  const podsByNode = (ds: DaemonSet, owned: Pod[]): Map<string, Pod[]> => {
    const byNode = new Map<string, Pod[]>();
    for (const p of owned) {
      const node = targetNodeName(p.spec ?? {});
      if (node === undefined) continue;
      const list = byNode.get(node) ?? [];
      list.push(p);
      byNode.set(node, list);
    }
    void ds;
    return byNode;
  };

  const syncNodes = async (
    key: string,
    ds: DaemonSet,
    toDelete: Pod[],
    needing: string[],
    hash: string,
  ): Promise<void> => {
    const createCount = Math.min(needing.length, burstReplicas);
    const deleteCount = Math.min(toDelete.length, burstReplicas);
    const namespace = ds.metadata?.namespace ?? '';
    expectations.expectCreations(key, createCount);
    const errors: unknown[] = [];
    let batch = 1;
    let pos = 0;
    while (pos < createCount) {
      const chunk = needing.slice(pos, pos + Math.min(batch, createCount - pos));
      const results = await Promise.allSettled(
        chunk.map(async (nodeName) => {
          const template: PodTemplateSpec = structuredClone(ds.spec?.template ?? {});
          const spec = daemonSpec(ds);
          spec.affinity = pinToNode(spec.affinity, nodeName);
          const generation = templateGeneration(ds);
          template.metadata = {
            ...template.metadata,
            labels: {
              ...template.metadata?.labels,
              ...(generation !== undefined ? { [templateGenerationLabel]: generation } : {}),
              [revisionHashLabel]: hash,
            },
          };
          template.spec = spec;
          await podControl.create(
            namespace,
            podFromTemplate(template, ds, newControllerRef(ds, dsKind)),
            ds,
            dsKind,
          );
        }),
      );
      const failed = results.filter((r) => r.status === 'rejected');
      for (let i = 0; i < failed.length; i++) expectations.creationFailed(key);
      pos += chunk.length;
      if (failed.length > 0) {
        errors.push((failed[0] as PromiseRejectedResult).reason);
        for (let i = pos; i < createCount; i++) expectations.creationFailed(key);
        break;
      }
      batch *= 2;
    }
    const doomed = toDelete.slice(0, deleteCount);
    if (doomed.length > 0) {
      expectations.expectDeletions(
        key,
        doomed.map((p) => p.metadata?.uid ?? ''),
      );
      const results = await Promise.allSettled(
        doomed.map(async (p) => {
          try {
            await podControl.delete(p, ds, dsKind);
          } catch (e) {
            expectations.deletionObserved(key, p.metadata?.uid ?? '');
            throw e;
          }
        }),
      );
      for (const r of results) if (r.status === 'rejected') errors.push(r.reason);
    }
    if (errors.length > 0) throw errors[0];
  };

  /** Creates missing pods and deletes extra, failed and misplaced ones. */
  const manage = async (
    key: string,
    ds: DaemonSet,
    byNode: Map<string, Pod[]>,
    hash: string,
  ): Promise<void> => {
    const spec = daemonSpec(ds);
    const needing: string[] = [];
    const toDelete: Pod[] = [];
    for (const node of nodes.list()) {
      const name = node.metadata?.name ?? '';
      const { run, keep } = daemonPodFits(spec, node);
      const onNode = byNode.get(name);
      if (run && onNode === undefined) needing.push(name);
      else if (keep && onNode !== undefined) {
        const running: Pod[] = [];
        for (const p of onNode) {
          if (isTerminating(p)) continue;
          if (p.status?.phase === 'Failed') {
            recorder.event(
              dsKind,
              ds,
              'Warning',
              'FailedDaemonPod',
              `Found failed daemon pod ${p.metadata?.namespace ?? ''}/${p.metadata?.name ?? ''} on node ${name}, will try to kill it`,
            );
            toDelete.push(p);
          } else running.push(p);
        }
        if (running.length > 1) toDelete.push(...running.sort(byAgeAndPhase).slice(1));
      } else if (!keep && onNode !== undefined) toDelete.push(...onNode.filter((p) => !isTerminating(p)));
    }
    // Pods whose node is gone are the pod garbage collector's; pods for nodes that never existed are deleted here.
    const known = new Set(nodes.list().map((n) => n.metadata?.name ?? ''));
    for (const [node, list] of byNode)
      if (!known.has(node))
        toDelete.push(...list.filter((p) => !isTerminating(p) && (p.spec?.nodeName ?? '') === ''));
    await syncNodes(key, ds, toDelete, needing, hash);
  };

  const rollingUpdate = async (
    key: string,
    ds: DaemonSet,
    byNode: Map<string, Pod[]>,
    hash: string,
  ): Promise<void> => {
    const now = ctx.now();
    const minReady = ds.spec?.minReadySeconds ?? 0;
    const spec = daemonSpec(ds);
    const desired = nodes.list().filter((n) => daemonPodFits(spec, n).run).length;
    const maxUnavailable = Math.max(
      scaledValue(ds.spec?.updateStrategy?.rollingUpdate?.maxUnavailable ?? 1, desired, true),
      0,
    );
    let unavailable = 0;
    const replace: Pod[] = [];
    const candidates: Pod[] = [];
    for (const list of byNode.values()) {
      const live = list.filter((p) => !isTerminating(p));
      const fresh = live.filter((p) => isUpdated(p, ds, hash));
      const stale = live.filter((p) => !isUpdated(p, ds, hash));
      if (fresh.length > 1 || stale.length > 1 || (fresh.length === 0) === (stale.length === 0)) {
        unavailable++;
        continue;
      }
      const newPod = fresh[0];
      const oldPod = stale[0];
      if (newPod !== undefined) {
        if (!isPodAvailable(newPod, minReady, now)) unavailable++;
      } else if (oldPod !== undefined) {
        if (!isPodAvailable(oldPod, minReady, now)) replace.push(oldPod);
        else if (unavailable < maxUnavailable) candidates.push(oldPod);
      }
    }
    const room = Math.min(Math.max(0, maxUnavailable - unavailable), candidates.length);
    const doomed = [...replace, ...candidates.slice(0, room)];
    if (doomed.length > 0) await syncNodes(key, ds, doomed, [], hash);
  };

  const cleanupHistory = async (ds: DaemonSet, old: ControllerRevision[], owned: Pod[]): Promise<void> => {
    const limit = ds.spec?.revisionHistoryLimit ?? 10;
    if (old.length <= limit) return;
    const live = new Set(owned.map((p) => p.metadata?.labels?.[revisionHashLabel]));
    const deletable = sortRevisions(old).filter((r) => !live.has(r.metadata?.labels?.[revisionHashLabel]));
    for (const r of deletable.slice(0, old.length - limit))
      await ctx.client
        .delete({ ...revisionsRef, namespace: ds.metadata?.namespace ?? '', name: r.metadata?.name ?? '' })
        .catch((e: unknown) => {
          if (!isNotFound(e)) throw e;
        });
  };

  const updateStatus = async (
    ds: DaemonSet,
    owned: Pod[],
    hash: string,
    observe: boolean,
  ): Promise<number> => {
    const now = ctx.now();
    const minReady = ds.spec?.minReadySeconds ?? 0;
    const spec = daemonSpec(ds);
    const byNode = podsByNode(ds, owned);
    let desired = 0;
    let current = 0;
    let misscheduled = 0;
    let ready = 0;
    let updated = 0;
    let available = 0;
    for (const node of nodes.list()) {
      const { run } = daemonPodFits(spec, node);
      const onNode = byNode.get(node.metadata?.name ?? '') ?? [];
      if (!run) {
        if (onNode.length > 0) misscheduled++;
        continue;
      }
      desired++;
      const pod = [...onNode].sort(byAgeAndPhase)[0];
      if (pod === undefined) continue;
      current++;
      if (isPodReady(pod)) {
        ready++;
        if (isPodAvailable(pod, minReady, now)) available++;
      }
      if (isUpdated(pod, ds, hash)) updated++;
    }
    const old = (ds.status ?? {}) as Record<string, unknown>;
    const status = omitZero(
      {
        currentNumberScheduled: current,
        numberMisscheduled: misscheduled,
        desiredNumberScheduled: desired,
        numberReady: ready,
        observedGeneration: observe
          ? ds.metadata?.generation
          : (old['observedGeneration'] as number | undefined),
        updatedNumberScheduled: updated,
        numberAvailable: available,
        numberUnavailable: desired - available,
        ...(old['collisionCount'] !== undefined ? { collisionCount: old['collisionCount'] } : {}),
        ...(old['conditions'] !== undefined ? { conditions: old['conditions'] } : {}),
      },
      ['observedGeneration', 'updatedNumberScheduled', 'numberAvailable', 'numberUnavailable'],
    );
    await writeStatus(ctx.client, daemonSetsRef, ds, status);
    return minReady > 0 && ready !== available ? minReady * 1000 : 0;
  };

  const reconcile = async (key: string): Promise<{ requeueAfterMs?: number } | void> => {
    await Promise.all([daemonSets.synced, pods.synced, nodes.synced, revisions.synced]);
    const [namespace = '', name = ''] = key.split('/');
    const ds = daemonSets.get(namespace, name) as DaemonSet | undefined;
    if (ds === undefined) {
      expectations.delete(key);
      return;
    }
    if (isEmptySelector(ds.spec?.selector)) {
      recorder.event(
        dsKind,
        ds,
        'Warning',
        'SelectingAll',
        'This daemon set is selecting all pods. A non-empty selector is required.',
      );
      return;
    }
    const match = labelSelectorMatcher(ds.spec?.selector);
    if (match instanceof Error || isTerminating(ds)) return;
    const common = { client: ctx.client, owner: ds, ownerKind: dsKind, ownerRef: daemonSetsRef };
    const ownedRevisions = await claim({
      ...common,
      ref: revisionsRef,
      candidates: revisions.inNamespace(namespace) as ControllerRevision[],
      match: (r) => match(r.metadata?.labels),
    });
    const { cur, old } = await constructHistory(ds, ownedRevisions);
    const hash = cur.metadata?.labels?.[revisionHashLabel] ?? '';
    const owned = await claim({
      ...common,
      ref: podsRef,
      candidates: pods.inNamespace(namespace) as Pod[],
      match: (p) => match(p.metadata?.labels),
    });
    if (!expectations.satisfied(key)) {
      await updateStatus(ds, owned, hash, false);
      return;
    }
    let failure: unknown;
    try {
      await manage(key, ds, podsByNode(ds, owned), hash);
      if (
        expectations.satisfied(key) &&
        (ds.spec?.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate'
      )
        await rollingUpdate(key, ds, podsByNode(ds, owned), hash);
      await cleanupHistory(ds, old, owned);
    } catch (e) {
      failure = e;
    }
    const after = await updateStatus(ds, owned, hash, true);
    if (failure !== undefined) throw failure;
    if (after > 0) return { requeueAfterMs: after };
  };

  const queue = new WorkQueue(reconcile, { clock: ctx.clock });
  const ownerKey = (pod: KubeObject): string | undefined => {
    const ref = controllerOf(pod);
    if (ref?.kind !== 'DaemonSet') return undefined;
    const ds = daemonSets.get(pod.metadata?.namespace ?? '', ref.name);
    return ds?.metadata?.uid === ref.uid ? objectKey(ds) : undefined;
  };
  const enqueueAll = (): void => {
    for (const ds of daemonSets.list()) queue.add(objectKey(ds));
  };
  daemonSets.addHandlers({
    add: (ds) => queue.add(objectKey(ds)),
    update: (_old, ds) => queue.add(objectKey(ds)),
    delete: (ds) => {
      expectations.delete(objectKey(ds));
      queue.add(objectKey(ds));
    },
  });
  pods.addHandlers({
    add: (p) => {
      const owner = ownerKey(p);
      if (owner === undefined) return;
      expectations.creationObserved(owner);
      queue.add(owner);
    },
    update: (old, p) => {
      const owner = ownerKey(p);
      if (owner === undefined) return;
      if (isTerminating(p) && !isTerminating(old))
        expectations.deletionObserved(owner, p.metadata?.uid ?? '');
      queue.add(owner);
    },
    delete: (p) => {
      const owner = ownerKey(p);
      if (owner === undefined) return;
      expectations.deletionObserved(owner, p.metadata?.uid ?? '');
      queue.add(owner);
    },
  });
  nodes.addHandlers({
    add: enqueueAll,
    update: (old, n) => {
      const changed =
        JSON.stringify(old.metadata?.labels) !== JSON.stringify(n.metadata?.labels) ||
        JSON.stringify((old.spec as { taints?: unknown } | undefined)?.taints) !==
          JSON.stringify((n.spec as { taints?: unknown } | undefined)?.taints);
      if (changed) enqueueAll();
    },
    delete: enqueueAll,
  });

  return {
    name: 'daemonset',
    start: () => undefined,
    stop: () => queue.stop(),
    idle: async () => {
      await queue.idle();
      await recorder.flush();
    },
  };
}
