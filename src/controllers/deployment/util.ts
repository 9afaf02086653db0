/**
 * The Deployment controller's helpers, after upstream's `deployment/util`:
 * revision annotations and the revision history kept on a ReplicaSet that
 * is rolled back to, the replica annotations used for proportional
 * scaling, max surge and max unavailable resolved against the replica
 * count, finding the new ReplicaSet (the one whose template equals the
 * Deployment's, the hash label aside) and the counts summed over
 * ReplicaSets.
 */

import type { NamingProfile } from '../../machinery/naming';
import { canonicalJson } from '../workload/hash';
import { scaledValue } from '../workload/int-or-percent';
import type { Deployment, DeploymentStatus, PodTemplateSpec, ReplicaSet } from '../workload/types';

export const hashLabel = 'pod-template-hash';

/** The annotation keys of the active profile (`deployment.kubernetes.io/…` upstream). */
export interface DeploymentAnnotations {
  revision: string;
  revisionHistory: string;
  desiredReplicas: string;
  maxReplicas: string;
  /** Annotations a Deployment never copies to its ReplicaSets. */
  skip: ReadonlySet<string>;
}

export function deploymentAnnotations(profile: NamingProfile): DeploymentAnnotations {
  const revision = profile.subPrefixed('deployment', 'revision');
  const revisionHistory = profile.subPrefixed('deployment', 'revision-history');
  const desiredReplicas = profile.subPrefixed('deployment', 'desired-replicas');
  const maxReplicas = profile.subPrefixed('deployment', 'max-replicas');
  return {
    revision,
    revisionHistory,
    desiredReplicas,
    maxReplicas,
    skip: new Set([
      profile.subPrefixed('kubectl', 'last-applied-configuration'),
      revision,
      revisionHistory,
      desiredReplicas,
      maxReplicas,
      'deprecated.deployment.rollback.to',
    ]),
  };
}

/** A revision annotation's number; 0 when absent or not a number. */
export function revisionOf(
  obj: { metadata?: { annotations?: Record<string, string> } },
  key: string,
): number {
  const v = obj.metadata?.annotations?.[key];
  if (v === undefined || !/^\d+$/.test(v)) return 0;
  return Number(v);
}

export function maxRevision(sets: ReplicaSet[], key: string): number {
  return sets.reduce((m, rs) => Math.max(m, revisionOf(rs, key)), 0);
}

export const replicasOf = (o: { spec?: { replicas?: number } }): number => o.spec?.replicas ?? 0;

export function isRollingUpdate(d: Deployment): boolean {
  return (d.spec?.strategy?.type ?? 'RollingUpdate') === 'RollingUpdate';
}

/** maxSurge and maxUnavailable against `desired`, as `ResolveFenceposts` (never both zero). */
export function resolveFenceposts(d: Deployment): { surge: number; unavailable: number } {
  const desired = d.spec?.replicas ?? 1;
  const rolling = d.spec?.strategy?.rollingUpdate ?? {};
  const surge = scaledValue(rolling.maxSurge ?? '25%', desired, true);
  let unavailable = scaledValue(rolling.maxUnavailable ?? '25%', desired, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return { surge, unavailable };
}

export function maxSurge(d: Deployment): number {
  return isRollingUpdate(d) ? resolveFenceposts(d).surge : 0;
}

export function maxUnavailable(d: Deployment): number {
  const replicas = d.spec?.replicas ?? 1;
  if (!isRollingUpdate(d) || replicas === 0) return 0;
  return Math.min(resolveFenceposts(d).unavailable, replicas);
}

/** Drops empty objects and lists, as `Semantic.DeepEqual` treats them as absent. */
function normalized(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? undefined : value.map(normalized);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      const n = normalized(v);
      if (n !== undefined) out[k] = n;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  return value === null ? undefined : value;
}

/** Whether two templates are equal once the `pod-template-hash` label is set aside. */
export function equalIgnoreHash(a: PodTemplateSpec | undefined, b: PodTemplateSpec | undefined): boolean {
  const strip = (t: PodTemplateSpec | undefined): unknown => {
    const labels = { ...(t?.metadata?.labels ?? {}) };
    delete labels[hashLabel];
    return normalized({ ...t, metadata: { ...t?.metadata, labels } });
  };
  return canonicalJson(strip(a)) === canonicalJson(strip(b));
}

function createdAt(rs: ReplicaSet): number {
  const t = rs.metadata?.creationTimestamp;
  return t !== undefined && t !== null ? Date.parse(t) : 0;
}

/** Oldest first, ties by name (`ReplicaSetsByCreationTimestamp`). */
export function byCreation(a: ReplicaSet, b: ReplicaSet): number {
  const d = createdAt(a) - createdAt(b);
  if (d !== 0) return d;
  const an = a.metadata?.name ?? '';
  const bn = b.metadata?.name ?? '';
  return an < bn ? -1 : an > bn ? 1 : 0;
}

/** The ReplicaSet running the Deployment's current template (the oldest such, if several). */
export function findNewReplicaSet(d: Deployment, sets: ReplicaSet[]): ReplicaSet | undefined {
  return [...sets].sort(byCreation).find((rs) => equalIgnoreHash(rs.spec?.template, d.spec?.template));
}

export function sumReplicas(sets: (ReplicaSet | undefined)[]): number {
  return sets.reduce((n, rs) => n + (rs?.spec?.replicas ?? 0), 0);
}

export function sumStatus(
  sets: (ReplicaSet | undefined)[],
  field: 'replicas' | 'readyReplicas' | 'availableReplicas',
): number {
  return sets.reduce((n, rs) => n + (rs?.status?.[field] ?? 0), 0);
}

export function activeSets(sets: (ReplicaSet | undefined)[]): ReplicaSet[] {
  return sets.filter((rs): rs is ReplicaSet => rs !== undefined && replicasOf(rs) > 0);
}

export function hasProgressDeadline(d: Deployment): boolean {
  const s = d.spec?.progressDeadlineSeconds;
  return s !== undefined && s !== 2147483647;
}

/** All replicas updated, total and available at the desired count, the generation observed. */
export function deploymentComplete(d: Deployment, s: DeploymentStatus): boolean {
  const want = d.spec?.replicas ?? 1;
  return (
    (s.updatedReplicas ?? 0) === want &&
    (s.replicas ?? 0) === want &&
    (s.availableReplicas ?? 0) === want &&
    (s.observedGeneration ?? 0) >= (d.metadata?.generation ?? 0)
  );
}

/** Whether the rollout moved since the last status: more updated, ready or available, fewer old. */
export function deploymentProgressing(d: Deployment, s: DeploymentStatus): boolean {
  const old = d.status ?? {};
  const oldOld = (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
  const newOld = (s.replicas ?? 0) - (s.updatedReplicas ?? 0);
  return (
    (s.updatedReplicas ?? 0) > (old.updatedReplicas ?? 0) ||
    newOld < oldOld ||
    (s.readyReplicas ?? 0) > (old.readyReplicas ?? 0) ||
    (s.availableReplicas ?? 0) > (old.availableReplicas ?? 0)
  );
}
