/**
 * One sync of one Deployment, as upstream's `syncDeployment` and its
 * helpers: the new ReplicaSet found or created (named `<deployment>-<hash>`,
 * its revision one past the old ones', the Deployment's annotations copied,
 * a rolled-back-to set keeping its earlier revisions in
 * `revision-history`), scaling events spread over the active ReplicaSets in
 * proportion to their size, a RollingUpdate that surges the new set and
 * scales old ones down while `maxUnavailable` allows, a Recreate that
 * scales the old sets to zero and waits for their pods to go, old sets
 * beyond `revisionHistoryLimit` deleted once the rollout is complete, and
 * the status with its `Available` and `Progressing` conditions, their real
 * reasons and messages, and the progress deadline. Writes go through the
 * API as the deployment controller; the caller retries a failed sync.
 */

import type { KubeObject } from '../../api/meta';
import type { ApiClient } from '../../client/client';
import { deepEqual } from '../../machinery/json';
import { isAlreadyExists, isNamespaceTerminating } from '../api-errors';
import type { EventRecorder, InvolvedKind } from '../events';
import { findCondition, removeCondition, setCondition, timestamp } from '../workload/conditions';
import { computeHash } from '../workload/hash';
import { controllerOf, newControllerRef } from '../workload/owner';
import { message } from '../workload/pod-control';
import { isTerminating } from '../workload/pods';
import { omitZero } from '../workload/status';
import type { Condition, Deployment, DeploymentStatus, Pod, ReplicaSet } from '../workload/types';
import {
  activeSets,
  byCreation,
  deploymentComplete,
  deploymentProgressing,
  equalIgnoreHash,
  findNewReplicaSet,
  hashLabel,
  hasProgressDeadline,
  isRollingUpdate,
  maxRevision,
  maxSurge,
  maxUnavailable,
  replicasOf,
  revisionOf,
  sumReplicas,
  sumStatus,
  type DeploymentAnnotations,
} from './util';

export const deploymentKind: InvolvedKind = { apiVersion: 'apps/v1', kind: 'Deployment' };
export const deploymentsRef = { group: 'apps', version: 'v1', resource: 'deployments' } as const;
export const replicaSetsRef = { group: 'apps', version: 'v1', resource: 'replicasets' } as const;

/** The longest revision-history annotation kept (upstream's flag default). */
const maxRevisionHistoryChars = 2000;

export interface SyncDeps {
  client: ApiClient;
  recorder: EventRecorder;
  now: () => Date;
  keys: DeploymentAnnotations;
}

export class DeploymentSync {
  private d: Deployment;

  constructor(
    private readonly deps: SyncDeps,
    deployment: Deployment,
    private readonly sets: ReplicaSet[],
    private readonly pods: Pod[],
  ) {
    this.d = structuredClone(deployment);
  }

  private get ns(): string {
    return this.d.metadata?.namespace ?? '';
  }

  private get replicas(): number {
    return this.d.spec?.replicas ?? 1;
  }

  private event(type: 'Normal' | 'Warning', reason: string, msg: string): void {
    this.deps.recorder.event(deploymentKind, this.d, type, reason, msg);
  }

  private condition(type: string, status: Condition['status'], reason: string, msg: string): Condition {
    const now = timestamp(this.deps.now());
    return { type, status, lastUpdateTime: now, lastTransitionTime: now, reason, message: msg };
  }

  private setStatusCondition(c: Condition): void {
    const status = this.d.status ?? (this.d.status = {});
    status.conditions = setCondition(status.conditions, c);
  }

  /** Writes the Deployment's status (and annotations, which the status subresource keeps) and keeps the answer. */
  private async writeStatus(): Promise<void> {
    const m = this.d.metadata ?? {};
    const written = await this.deps.client.update<Deployment>(
      { ...deploymentsRef, namespace: this.ns, name: m.name ?? '', subresource: 'status' },
      this.d,
    );
    this.d = written;
  }

  private async updateReplicaSet(rs: ReplicaSet): Promise<ReplicaSet> {
    return this.deps.client.update<ReplicaSet>(
      { ...replicaSetsRef, namespace: this.ns, name: rs.metadata?.name ?? '' },
      rs,
    );
  }

  async run(): Promise<{ requeueAfterMs?: number } | void> {
    const sel = this.d.spec?.selector;
    if (
      sel !== undefined &&
      Object.keys(sel.matchLabels ?? {}).length + (sel.matchExpressions ?? []).length === 0
    ) {
      this.event(
        'Warning',
        'SelectingAll',
        'This deployment is selecting all pods. A non-empty selector is required.',
      );
      if ((this.d.status?.observedGeneration ?? 0) < (this.d.metadata?.generation ?? 0)) {
        (this.d.status ??= {}).observedGeneration = this.d.metadata?.generation;
        await this.writeStatus();
      }
      return;
    }
    if (isTerminating(this.d)) return this.syncStatusOnly();
    await this.checkPausedConditions();
    if (this.d.spec?.paused === true) return this.sync();
    if (this.isScalingEvent()) return this.sync();
    if (isRollingUpdate(this.d)) return this.rolloutRolling();
    return this.rolloutRecreate();
  }

  // --- finding and creating ReplicaSets -------------------------------------------------------------------

  private oldSets(newRS: ReplicaSet | undefined): ReplicaSet[] {
    return this.sets.filter((rs) => rs.metadata?.uid !== newRS?.metadata?.uid);
  }

  /** The new ReplicaSet (created when `create`) with its revision in sync, and the old ones. */
  private async getAll(create: boolean): Promise<{ newRS: ReplicaSet | undefined; old: ReplicaSet[] }> {
    const existing = findNewReplicaSet(this.d, this.sets);
    const old = this.oldSets(existing);
    const newRS = await this.getNewReplicaSet(existing, old, create);
    return { newRS, old: this.oldSets(newRS) };
  }

  private setNewReplicaSetAnnotations(rs: ReplicaSet, newRevision: number, exists: boolean): boolean {
    const keys = this.deps.keys;
    const annotations = { ...(rs.metadata?.annotations ?? {}) };
    let changed = false;
    for (const [k, v] of Object.entries(this.d.metadata?.annotations ?? {})) {
      if (keys.skip.has(k) || annotations[k] === v) continue;
      annotations[k] = v;
      changed = true;
    }
    const oldText = annotations[keys.revision];
    const had = oldText !== undefined;
    const oldRevision = had && /^\d+$/.test(oldText) ? Number(oldText) : 0;
    if (had && !/^\d+$/.test(oldText)) return false;
    if (oldRevision < newRevision) {
      annotations[keys.revision] = String(newRevision);
      changed = true;
      // Rolled back to: the revisions this set had before are kept, within a bounded length.
      if (had) {
        const history = annotations[keys.revisionHistory] ?? '';
        if (history === '') annotations[keys.revisionHistory] = String(oldRevision);
        else {
          const parts = history.split(',');
          let total = history.length + String(oldRevision).length + 1;
          let start = 0;
          while (total > maxRevisionHistoryChars && start < parts.length)
            total -= (parts[start++]?.length ?? 0) + 1;
          if (total <= maxRevisionHistoryChars)
            annotations[keys.revisionHistory] = [...parts.slice(start), String(oldRevision)].join(',');
        }
      }
    }
    if (!exists && this.setReplicasAnnotations(annotations)) changed = true;
    rs.metadata = { ...rs.metadata, annotations };
    return changed;
  }

  /** Sets desired-replicas and max-replicas on `annotations`; true when they changed. */
  private setReplicasAnnotations(annotations: Record<string, string>): boolean {
    const keys = this.deps.keys;
    const desired = String(this.replicas);
    const max = String(this.replicas + maxSurge(this.d));
    let changed = false;
    if (annotations[keys.desiredReplicas] !== desired) {
      annotations[keys.desiredReplicas] = desired;
      changed = true;
    }
    if (annotations[keys.maxReplicas] !== max) {
      annotations[keys.maxReplicas] = max;
      changed = true;
    }
    return changed;
  }

  private setDeploymentRevision(revision: string): boolean {
    const m = (this.d.metadata ??= {});
    if (m.annotations?.[this.deps.keys.revision] === revision) return false;
    m.annotations = { ...m.annotations, [this.deps.keys.revision]: revision };
    return true;
  }

  private async getNewReplicaSet(
    existing: ReplicaSet | undefined,
    old: ReplicaSet[],
    create: boolean,
  ): Promise<ReplicaSet | undefined> {
    const newRevision = maxRevision(old, this.deps.keys.revision) + 1;
    if (existing !== undefined) {
      const copy = structuredClone(existing);
      const annotationsUpdated = this.setNewReplicaSetAnnotations(copy, newRevision, true);
      const minReady = this.d.spec?.minReadySeconds ?? 0;
      if (annotationsUpdated || (copy.spec?.minReadySeconds ?? 0) !== minReady) {
        copy.spec = { ...copy.spec, ...minReadySeconds(minReady) };
        if (minReady === 0) delete copy.spec.minReadySeconds;
        return this.replace(await this.updateReplicaSet(copy));
      }
      let needsUpdate = this.setDeploymentRevision(
        copy.metadata?.annotations?.[this.deps.keys.revision] ?? '',
      );
      if (
        hasProgressDeadline(this.d) &&
        findCondition(this.d.status?.conditions, 'Progressing') === undefined
      ) {
        this.setStatusCondition(
          this.condition(
            'Progressing',
            'True',
            'FoundNewReplicaSet',
            `Found new replica set "${copy.metadata?.name ?? ''}"`,
          ),
        );
        needsUpdate = true;
      }
      if (needsUpdate) await this.writeStatus();
      return copy;
    }
    if (!create) return undefined;

    const template = structuredClone(this.d.spec?.template ?? {});
    const hash = computeHash(template, this.d.status?.collisionCount);
    template.metadata = { ...template.metadata, labels: { ...template.metadata?.labels, [hashLabel]: hash } };
    const selector = structuredClone(this.d.spec?.selector ?? {});
    selector.matchLabels = { ...selector.matchLabels, [hashLabel]: hash };
    const name = `${this.d.metadata?.name ?? ''}-${hash}`;
    const rs: ReplicaSet = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name,
        namespace: this.ns,
        ownerReferences: [newControllerRef(this.d, deploymentKind)],
        labels: { ...template.metadata.labels },
      },
      spec: { replicas: 0, ...minReadySeconds(this.d.spec?.minReadySeconds ?? 0), selector, template },
    };
    const count = this.newRSNewReplicas([...old, rs], rs);
    rs.spec = { ...rs.spec, replicas: count };
    this.setNewReplicaSetAnnotations(rs, newRevision, false);

    let created: ReplicaSet;
    let alreadyExists = false;
    try {
      created = await this.deps.client.create<ReplicaSet>({ ...replicaSetsRef, namespace: this.ns }, rs);
    } catch (e) {
      if (isAlreadyExists(e)) {
        alreadyExists = true;
        const found = await this.deps.client.get<ReplicaSet>({ ...replicaSetsRef, namespace: this.ns, name });
        const ref = controllerOf(found);
        if (
          ref?.uid === this.d.metadata?.uid &&
          equalIgnoreHash(this.d.spec?.template, found.spec?.template)
        ) {
          created = found;
        } else {
          // A hash collision: the next sync names the set with another collision count.
          (this.d.status ??= {}).collisionCount = (this.d.status.collisionCount ?? 0) + 1;
          await this.writeStatus();
          throw e;
        }
      } else if (isNamespaceTerminating(e)) {
        throw e;
      } else {
        const msg = `Failed to create new replica set "${name}": ${message(e)}`;
        if (hasProgressDeadline(this.d)) {
          this.setStatusCondition(this.condition('Progressing', 'False', 'ReplicaSetCreateError', msg));
          await this.writeStatus().catch(() => undefined);
        }
        this.event('Warning', 'ReplicaSetCreateError', msg);
        throw e;
      }
    }
    if (!alreadyExists && count > 0)
      this.event('Normal', 'ScalingReplicaSet', `Scaled up replica set ${name} to ${count}`);
    let needsUpdate = this.setDeploymentRevision(String(newRevision));
    if (!alreadyExists && hasProgressDeadline(this.d)) {
      this.setStatusCondition(
        this.condition('Progressing', 'True', 'NewReplicaSetCreated', `Created new replica set "${name}"`),
      );
      needsUpdate = true;
    }
    if (needsUpdate) await this.writeStatus();
    return this.replace(created);
  }

  /** Keeps the list of ReplicaSets current with what a write returned. */
  private replace(rs: ReplicaSet): ReplicaSet {
    const i = this.sets.findIndex((s) => s.metadata?.uid === rs.metadata?.uid);
    if (i >= 0) this.sets[i] = rs;
    else this.sets.push(rs);
    return rs;
  }

  // --- scaling ---------------------------------------------------------------------------------------------

  private newRSNewReplicas(all: ReplicaSet[], newRS: ReplicaSet): number {
    if (!isRollingUpdate(this.d)) return this.replicas;
    const current = sumReplicas(all);
    const maxTotal = this.replicas + maxSurge(this.d);
    if (current >= maxTotal) return replicasOf(newRS);
    const up = Math.min(maxTotal - current, this.replicas - replicasOf(newRS));
    return replicasOf(newRS) + up;
  }

  /** Scales `rs` to `to` (and refreshes its replica annotations); true when its size changed. */
  private async scaleReplicaSet(rs: ReplicaSet, to: number, operation: 'up' | 'down'): Promise<boolean> {
    const from = replicasOf(rs);
    const annotations = { ...(rs.metadata?.annotations ?? {}) };
    const annotationsChanged = this.setReplicasAnnotations(annotations);
    if (from === to && !annotationsChanged) return false;
    const copy = structuredClone(rs);
    copy.spec = { ...copy.spec, replicas: to };
    copy.metadata = { ...copy.metadata, annotations };
    this.replace(await this.updateReplicaSet(copy));
    if (from === to) return false;
    this.event(
      'Normal',
      'ScalingReplicaSet',
      `Scaled ${operation} replica set ${rs.metadata?.name ?? ''} to ${to} from ${from}`,
    );
    return true;
  }

  private async scaleAndRecord(rs: ReplicaSet, to: number): Promise<boolean> {
    if (replicasOf(rs) === to) return false;
    return this.scaleReplicaSet(rs, to, replicasOf(rs) < to ? 'up' : 'down');
  }

  private isScalingEvent(): boolean {
    const newRS = findNewReplicaSet(this.d, this.sets);
    for (const rs of activeSets([...this.oldSets(newRS), newRS])) {
      const desired = rs.metadata?.annotations?.[this.deps.keys.desiredReplicas];
      if (desired === undefined || !/^\d+$/.test(desired)) continue;
      if (Number(desired) !== this.replicas) return true;
    }
    return false;
  }

  /** Spreads a change of `spec.replicas` over the active ReplicaSets (upstream `scale`). */
  private async scale(newRS: ReplicaSet | undefined, old: ReplicaSet[]): Promise<void> {
    const activeOrLatest = this.findActiveOrLatest(newRS, old);
    if (activeOrLatest !== undefined) {
      if (replicasOf(activeOrLatest) !== this.replicas)
        await this.scaleAndRecord(activeOrLatest, this.replicas);
      return;
    }
    if (this.isSaturated(newRS)) {
      for (const rs of activeSets(old)) await this.scaleAndRecord(rs, 0);
      return;
    }
    if (!isRollingUpdate(this.d)) return;
    const all = activeSets([...old, newRS]);
    const allowed = this.replicas > 0 ? this.replicas + maxSurge(this.d) : 0;
    const toAdd = allowed - sumReplicas(all);
    if (toAdd > 0) all.sort((a, b) => replicasOf(b) - replicasOf(a) || -byCreation(a, b));
    else if (toAdd < 0) all.sort((a, b) => replicasOf(b) - replicasOf(a) || byCreation(a, b));
    let added = 0;
    const sizes = new Map<string, number>();
    for (const rs of all) {
      const name = rs.metadata?.name ?? '';
      if (toAdd !== 0) {
        const p = this.proportion(rs, toAdd, added);
        sizes.set(name, replicasOf(rs) + p);
        added += p;
      } else sizes.set(name, replicasOf(rs));
    }
    const first = all[0];
    if (added !== toAdd && first !== undefined) {
      const name = first.metadata?.name ?? '';
      sizes.set(name, Math.max(0, (sizes.get(name) ?? 0) + toAdd - added));
    }
    for (const rs of all) {
      const to = sizes.get(rs.metadata?.name ?? '') ?? replicasOf(rs);
      await this.scaleReplicaSet(rs, to, replicasOf(rs) < to ? 'up' : 'down');
    }
  }

  private proportion(rs: ReplicaSet, toAdd: number, added: number): number {
    if (replicasOf(rs) === 0 || toAdd === 0 || toAdd === added) return 0;
    const fraction = this.fraction(rs);
    const allowed = toAdd - added;
    return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
  }

  private fraction(rs: ReplicaSet): number {
    if (this.replicas === 0) return -replicasOf(rs);
    const deploymentReplicas = this.replicas + maxSurge(this.d);
    const annotated = rs.metadata?.annotations?.[this.deps.keys.maxReplicas];
    const base =
      annotated !== undefined && /^\d+$/.test(annotated) ? Number(annotated) : (this.d.status?.replicas ?? 0);
    if (base === 0) return 0;
    return Math.round((replicasOf(rs) * deploymentReplicas) / base) - replicasOf(rs);
  }

  private findActiveOrLatest(newRS: ReplicaSet | undefined, old: ReplicaSet[]): ReplicaSet | undefined {
    if (newRS === undefined && old.length === 0) return undefined;
    const newestFirst = [...old].sort((a, b) => -byCreation(a, b));
    const all = activeSets([...newestFirst, newRS]);
    if (all.length === 0) return newRS ?? newestFirst[0];
    if (all.length === 1) return all[0];
    return undefined;
  }

  private isSaturated(rs: ReplicaSet | undefined): boolean {
    if (rs === undefined) return false;
    const desired = rs.metadata?.annotations?.[this.deps.keys.desiredReplicas];
    return desired === String(this.replicas) && (rs.status?.availableReplicas ?? 0) === this.replicas;
  }

  // --- strategies ------------------------------------------------------------------------------------------

  /** Scaling and cleanup without a rollout: a paused Deployment, or a change of replicas only. */
  private async sync(): Promise<{ requeueAfterMs?: number } | void> {
    const { newRS, old } = await this.getAll(false);
    await this.scale(newRS, old);
    if (this.d.spec?.paused === true) await this.cleanup(old);
    await this.syncDeploymentStatus([...old, newRS], newRS);
  }

  private async syncStatusOnly(): Promise<void> {
    const { newRS, old } = await this.getAll(false);
    await this.syncDeploymentStatus([...old, newRS], newRS);
  }

  private async rolloutRolling(): Promise<{ requeueAfterMs?: number } | void> {
    const { newRS, old } = await this.getAll(true);
    if (newRS === undefined) return;
    const all = [...old, newRS];
    if (await this.reconcileNewReplicaSet(all, newRS)) return this.syncRolloutStatus(all, newRS);
    if (await this.reconcileOldReplicaSets(all, activeSets(old), newRS))
      return this.syncRolloutStatus(this.current(all), newRS);
    if (deploymentComplete(this.d, this.d.status ?? {})) await this.cleanup(old);
    return this.syncRolloutStatus(this.current(all), newRS);
  }

  /** The given sets as last written. */
  private current(sets: (ReplicaSet | undefined)[]): ReplicaSet[] {
    return sets
      .filter((s): s is ReplicaSet => s !== undefined)
      .map((s) => this.sets.find((x) => x.metadata?.uid === s.metadata?.uid) ?? s);
  }

  private async reconcileNewReplicaSet(all: ReplicaSet[], newRS: ReplicaSet): Promise<boolean> {
    if (replicasOf(newRS) === this.replicas) return false;
    if (replicasOf(newRS) > this.replicas) return this.scaleAndRecord(newRS, this.replicas);
    return this.scaleAndRecord(newRS, this.newRSNewReplicas(all, newRS));
  }

  private async reconcileOldReplicaSets(
    all: ReplicaSet[],
    old: ReplicaSet[],
    newRS: ReplicaSet,
  ): Promise<boolean> {
    if (sumReplicas(old) === 0) return false;
    const minAvailable = this.replicas - maxUnavailable(this.d);
    const newUnavailable = replicasOf(newRS) - (newRS.status?.availableReplicas ?? 0);
    const maxScaledDown = sumReplicas(all) - minAvailable - newUnavailable;
    if (maxScaledDown <= 0) return false;
    // Unhealthy replicas of old sets go first: they count against availability anyway.
    let cleaned = 0;
    for (const rs of [...old].sort(byCreation)) {
      if (cleaned >= maxScaledDown) break;
      const current = this.current([rs])[0] ?? rs;
      const replicas = replicasOf(current);
      const available = current.status?.availableReplicas ?? 0;
      if (replicas === 0 || replicas === available) continue;
      const down = Math.min(maxScaledDown - cleaned, replicas - available);
      await this.scaleAndRecord(current, replicas - down);
      cleaned += down;
    }
    const scaledDown = await this.scaleDownOldForRollingUpdate(this.current(all), this.current(old));
    return cleaned + scaledDown > 0;
  }

  private async scaleDownOldForRollingUpdate(all: ReplicaSet[], old: ReplicaSet[]): Promise<number> {
    const minAvailable = this.replicas - maxUnavailable(this.d);
    const available = sumStatus(all, 'availableReplicas');
    if (available <= minAvailable) return 0;
    const total = available - minAvailable;
    let done = 0;
    for (const rs of [...old].sort(byCreation)) {
      if (done >= total) break;
      if (replicasOf(rs) === 0) continue;
      const down = Math.min(replicasOf(rs), total - done);
      await this.scaleAndRecord(rs, replicasOf(rs) - down);
      done += down;
    }
    return done;
  }

  private async rolloutRecreate(): Promise<{ requeueAfterMs?: number } | void> {
    let { newRS, old } = await this.getAll(false);
    let scaledDown = false;
    for (const rs of activeSets(old)) if (await this.scaleAndRecord(rs, 0)) scaledDown = true;
    if (scaledDown) return this.syncRolloutStatus(this.current([...old, newRS]), newRS);
    if (this.oldPodsRunning(newRS, this.current(old)))
      return this.syncRolloutStatus(this.current([...old, newRS]), newRS);
    if (newRS === undefined) ({ newRS, old } = await this.getAll(true));
    if (newRS !== undefined) {
      if (replicasOf(newRS) !== this.replicas) await this.scaleAndRecord(newRS, this.replicas);
      newRS = this.current([newRS])[0];
    }
    if (deploymentComplete(this.d, this.d.status ?? {})) await this.cleanup(old);
    return this.syncRolloutStatus(this.current([...old, newRS]), newRS);
  }

  private oldPodsRunning(newRS: ReplicaSet | undefined, old: ReplicaSet[]): boolean {
    if (sumStatus(old, 'replicas') > 0) return true;
    const oldUids = new Set(old.map((rs) => rs.metadata?.uid));
    for (const pod of this.pods) {
      const owner = controllerOf(pod);
      if (owner === undefined || owner.uid === newRS?.metadata?.uid || !oldUids.has(owner.uid)) continue;
      const phase = pod.status?.phase ?? 'Pending';
      if (phase === 'Failed' || phase === 'Succeeded') continue;
      return true;
    }
    return false;
  }

  /** Deletes old, empty ReplicaSets beyond `revisionHistoryLimit`, the lowest revisions first. */
  private async cleanup(old: ReplicaSet[]): Promise<void> {
    const limit = this.d.spec?.revisionHistoryLimit;
    if (limit === undefined) return;
    const alive = this.current(old).filter((rs) => !isTerminating(rs));
    const diff = alive.length - limit;
    if (diff <= 0) return;
    const key = this.deps.keys.revision;
    alive.sort((a, b) => revisionOf(a, key) - revisionOf(b, key) || byCreation(a, b));
    for (const rs of alive.slice(0, diff)) {
      if (
        (rs.status?.replicas ?? 0) !== 0 ||
        replicasOf(rs) !== 0 ||
        (rs.metadata?.generation ?? 0) > (rs.status?.observedGeneration ?? 0)
      )
        continue;
      try {
        await this.deps.client.delete(
          { ...replicaSetsRef, namespace: this.ns, name: rs.metadata?.name ?? '' },
          { apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid: rs.metadata?.uid } } as KubeObject,
        );
      } catch {
        // Gone already, or replaced: the next sync sees the current list.
      }
    }
  }

  // --- status ----------------------------------------------------------------------------------------------

  private async checkPausedConditions(): Promise<void> {
    if (!hasProgressDeadline(this.d)) return;
    const cond = findCondition(this.d.status?.conditions, 'Progressing');
    if (cond?.reason === 'ProgressDeadlineExceeded') return;
    const pausedCond = cond?.reason === 'DeploymentPaused';
    const paused = this.d.spec?.paused === true;
    if (paused && !pausedCond)
      this.setStatusCondition(
        this.condition('Progressing', 'Unknown', 'DeploymentPaused', 'Deployment is paused'),
      );
    else if (!paused && pausedCond)
      this.setStatusCondition(
        this.condition('Progressing', 'Unknown', 'DeploymentResumed', 'Deployment is resumed'),
      );
    else return;
    await this.writeStatus();
  }

  private calculateStatus(all: (ReplicaSet | undefined)[], newRS: ReplicaSet | undefined): DeploymentStatus {
    const sets = this.current(all);
    const available = sumStatus(sets, 'availableReplicas');
    const total = sumReplicas(sets);
    const status: DeploymentStatus = {
      observedGeneration: this.d.metadata?.generation,
      replicas: sumStatus(sets, 'replicas'),
      updatedReplicas: newRS !== undefined ? sumStatus(this.current([newRS]), 'replicas') : 0,
      readyReplicas: sumStatus(sets, 'readyReplicas'),
      availableReplicas: available,
      unavailableReplicas: Math.max(0, total - available),
      ...(this.d.status?.collisionCount !== undefined
        ? { collisionCount: this.d.status.collisionCount }
        : {}),
    };
    let conditions = this.d.status?.conditions;
    if (available >= this.replicas - maxUnavailable(this.d))
      conditions = setCondition(
        conditions,
        this.condition(
          'Available',
          'True',
          'MinimumReplicasAvailable',
          'Deployment has minimum availability.',
        ),
      );
    else
      conditions = setCondition(
        conditions,
        this.condition(
          'Available',
          'False',
          'MinimumReplicasUnavailable',
          'Deployment does not have minimum availability.',
        ),
      );
    status.conditions = conditions;
    return status;
  }

  private withoutZeros(s: DeploymentStatus): DeploymentStatus {
    return omitZero(s, [
      'observedGeneration',
      'replicas',
      'updatedReplicas',
      'readyReplicas',
      'availableReplicas',
      'unavailableReplicas',
      'conditions',
    ]);
  }

  private async syncDeploymentStatus(
    all: (ReplicaSet | undefined)[],
    newRS: ReplicaSet | undefined,
  ): Promise<void> {
    const status = this.withoutZeros(this.calculateStatus(all, newRS));
    if (deepEqual(status, this.d.status ?? {})) return;
    this.d.status = status;
    await this.writeStatus();
  }

  private async syncRolloutStatus(
    all: (ReplicaSet | undefined)[],
    newRS: ReplicaSet | undefined,
  ): Promise<{ requeueAfterMs?: number } | void> {
    const status = this.calculateStatus(all, newRS);
    if (!hasProgressDeadline(this.d)) status.conditions = removeCondition(status.conditions, 'Progressing');
    const current = findCondition(this.d.status?.conditions, 'Progressing');
    const complete =
      (status.replicas ?? 0) === (status.updatedReplicas ?? 0) &&
      current?.reason === 'NewReplicaSetAvailable';
    const rsName = newRS?.metadata?.name;
    const subject =
      rsName !== undefined ? `ReplicaSet "${rsName}"` : `Deployment "${this.d.metadata?.name ?? ''}"`;
    if (hasProgressDeadline(this.d) && !complete) {
      if (deploymentComplete(this.d, status)) {
        status.conditions = setCondition(
          status.conditions,
          this.condition(
            'Progressing',
            'True',
            'NewReplicaSetAvailable',
            `${subject} has successfully progressed.`,
          ),
        );
      } else if (deploymentProgressing(this.d, status)) {
        const c = this.condition('Progressing', 'True', 'ReplicaSetUpdated', `${subject} is progressing.`);
        // Progress moves lastUpdateTime even when the reason stays the same.
        const was = findCondition(status.conditions, 'Progressing');
        if (was !== undefined && was.status === 'True') c.lastTransitionTime = was.lastTransitionTime;
        status.conditions = [...removeCondition(status.conditions, 'Progressing'), c];
      } else if (this.timedOut(status)) {
        status.conditions = setCondition(
          status.conditions,
          this.condition(
            'Progressing',
            'False',
            'ProgressDeadlineExceeded',
            `${subject} has timed out progressing.`,
          ),
        );
      }
    }
    const failure = this.replicaFailure(all, newRS);
    status.conditions =
      failure !== undefined
        ? setCondition(status.conditions, failure)
        : removeCondition(status.conditions, 'ReplicaFailure');
    const next = this.withoutZeros(status);
    if (!deepEqual(next, this.d.status ?? {})) {
      this.d.status = next;
      await this.writeStatus();
    }
    return this.requeueStuck(next);
  }

  private timedOut(status: DeploymentStatus): boolean {
    const c = findCondition(status.conditions, 'Progressing');
    if (c === undefined || c.reason === 'NewReplicaSetAvailable') return false;
    if (c.reason === 'ProgressDeadlineExceeded') return true;
    const from = Date.parse(c.lastUpdateTime ?? '');
    const deadline = (this.d.spec?.progressDeadlineSeconds ?? 600) * 1000;
    return !Number.isNaN(from) && from + deadline < this.deps.now().getTime();
  }

  /** When to look again so a stuck rollout is reported once its deadline passes. */
  private requeueStuck(status: DeploymentStatus): { requeueAfterMs?: number } | void {
    const c = findCondition(status.conditions, 'Progressing');
    if (!hasProgressDeadline(this.d) || c === undefined) return;
    if (c.reason === 'NewReplicaSetAvailable' || c.reason === 'ProgressDeadlineExceeded') return;
    if (deploymentComplete(this.d, status)) return;
    const from = Date.parse(c.lastUpdateTime ?? '');
    if (Number.isNaN(from)) return;
    const after = from + (this.d.spec?.progressDeadlineSeconds ?? 600) * 1000 - this.deps.now().getTime();
    return { requeueAfterMs: Math.max(0, after) + 1000 };
  }

  /** The first `ReplicaFailure` of the sets, the new one's first (`getReplicaFailures`). */
  private replicaFailure(
    all: (ReplicaSet | undefined)[],
    newRS: ReplicaSet | undefined,
  ): Condition | undefined {
    const sets = this.current(newRS !== undefined ? [newRS, ...all] : all);
    for (const rs of sets) {
      const f = findCondition(rs.status?.conditions, 'ReplicaFailure');
      if (f !== undefined && f.status === 'True') {
        const now = timestamp(this.deps.now());
        return {
          type: 'ReplicaFailure',
          status: f.status,
          lastUpdateTime: f.lastTransitionTime ?? now,
          lastTransitionTime: f.lastTransitionTime ?? now,
          reason: f.reason ?? '',
          message: f.message ?? '',
        };
      }
    }
    return undefined;
  }
}

/** `minReadySeconds` is an `omitempty` int in Go: a ReplicaSet written by the real controller never shows a 0. */
function minReadySeconds(seconds: number): { minReadySeconds?: number } {
  return seconds === 0 ? {} : { minReadySeconds: seconds };
}
