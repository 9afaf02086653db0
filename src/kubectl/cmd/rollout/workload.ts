/**
 * What the rollout commands know about the three workload kinds, as
 * kubectl's polymorphic helpers do: which kind an object is (by its
 * upstream group: a renamed group is none of them, as for the real
 * client), its status line (the StatusViewers), its revisions (the
 * Deployment's ReplicaSets by `deployment.kubernetes.io/revision`, the
 * DaemonSet's and StatefulSet's ControllerRevisions by `.revision`) and
 * which revision `undo` goes back to. Pure functions over JSON objects,
 * so the choices are unit-tested without a server.
 */

import type { KubeObject } from '../../../api/meta';
import type { Mapping } from '../../restmapper';

export type Obj = Record<string, unknown>;
export type WorkloadKind = 'Deployment' | 'DaemonSet' | 'StatefulSet';

export const revisionAnnotation = 'deployment.kubernetes.io/revision';
export const changeCauseAnnotation = 'kubernetes.io/change-cause';
export const podTemplateHashLabel = 'pod-template-hash';

/** The workload kind a mapping names, or undefined (kubectl switches on the upstream GroupKind). */
export function workloadKind(mapping: Pick<Mapping, 'group' | 'kind'>): WorkloadKind | undefined {
  const { group, kind } = mapping;
  if ((group === 'apps' || group === 'extensions') && (kind === 'Deployment' || kind === 'DaemonSet'))
    return kind;
  if (group === 'apps' && kind === 'StatefulSet') return kind;
  return undefined;
}

/** GroupKind.String(): `Kind.group`, or `Kind` in the core group. */
export function groupKindString(mapping: Pick<Mapping, 'group' | 'kind'>): string {
  return mapping.group === '' ? mapping.kind : `${mapping.kind}.${mapping.group}`;
}

/** A GroupKind printed with Go's %v: `{group Kind}`. */
export function groupKindStruct(mapping: Pick<Mapping, 'group' | 'kind'>): string {
  return `{${mapping.group} ${mapping.kind}}`;
}

function rec(value: unknown): Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Obj) : {};
}

function num(value: unknown): number {
  return typeof value === 'number' ? value : 0;
}

export interface StatusLine {
  text: string;
  done: boolean;
}

/** An error a status viewer returns (printed as `error: …`). */
export class RolloutError extends Error {}

/** The status line for a Deployment (DeploymentStatusViewer). */
function deploymentStatus(d: KubeObject, revision: number): StatusLine {
  const name = d.metadata?.name ?? '';
  const spec = rec(d['spec']);
  const status = rec(d['status']);
  if (revision > 0) {
    const text = d.metadata?.annotations?.[revisionAnnotation];
    const current = text === undefined ? 0 : Number(text);
    if (text !== undefined && !/^-?\d+$/.test(text))
      throw new RolloutError(`cannot get the revision of deployment "${name}": invalid revision "${text}"`);
    if (current !== revision)
      throw new RolloutError(
        `desired revision (${revision}) is different from the running revision (${current})`,
      );
  }
  if (num(d.metadata?.generation) > num(status['observedGeneration']))
    return { text: 'Waiting for deployment spec update to be observed...\n', done: false };
  const conditions = (Array.isArray(status['conditions']) ? status['conditions'] : []) as Obj[];
  const progressing = conditions.find((c) => c['type'] === 'Progressing');
  if (progressing?.['reason'] === 'ProgressDeadlineExceeded')
    throw new RolloutError(`deployment "${name}" exceeded its progress deadline`);
  const replicas = spec['replicas'];
  const updated = num(status['updatedReplicas']);
  if (typeof replicas === 'number' && updated < replicas)
    return {
      text: `Waiting for deployment "${name}" rollout to finish: ${updated} out of ${replicas} new replicas have been updated...\n`,
      done: false,
    };
  if (num(status['replicas']) > updated)
    return {
      text: `Waiting for deployment "${name}" rollout to finish: ${num(status['replicas']) - updated} old replicas are pending termination...\n`,
      done: false,
    };
  if (num(status['availableReplicas']) < updated)
    return {
      text: `Waiting for deployment "${name}" rollout to finish: ${num(status['availableReplicas'])} of ${updated} updated replicas are available...\n`,
      done: false,
    };
  return { text: `deployment "${name}" successfully rolled out\n`, done: true };
}

function daemonSetStatus(ds: KubeObject): StatusLine {
  const name = ds.metadata?.name ?? '';
  const spec = rec(ds['spec']);
  const status = rec(ds['status']);
  if (rec(spec['updateStrategy'])['type'] !== 'RollingUpdate')
    throw new RolloutError('rollout status is only available for RollingUpdate strategy type');
  if (num(ds.metadata?.generation) > num(status['observedGeneration']))
    return { text: 'Waiting for daemon set spec update to be observed...\n', done: false };
  const desired = num(status['desiredNumberScheduled']);
  const updated = num(status['updatedNumberScheduled']);
  if (updated < desired)
    return {
      text: `Waiting for daemon set "${name}" rollout to finish: ${updated} out of ${desired} new pods have been updated...\n`,
      done: false,
    };
  const available = num(status['numberAvailable']);
  if (available < desired)
    return {
      text: `Waiting for daemon set "${name}" rollout to finish: ${available} of ${desired} updated pods are available...\n`,
      done: false,
    };
  return { text: `daemon set "${name}" successfully rolled out\n`, done: true };
}

function statefulSetStatus(sts: KubeObject): StatusLine {
  const spec = rec(sts['spec']);
  const status = rec(sts['status']);
  const strategy = rec(spec['updateStrategy']);
  if (strategy['type'] !== 'RollingUpdate')
    throw new RolloutError('rollout status is only available for RollingUpdate strategy type');
  const observed = num(status['observedGeneration']);
  if (observed === 0 || num(sts.metadata?.generation) > observed)
    return { text: 'Waiting for statefulset spec update to be observed...\n', done: false };
  const replicas = spec['replicas'];
  const ready = num(status['readyReplicas']);
  if (typeof replicas === 'number' && ready < replicas)
    return { text: `Waiting for ${replicas - ready} pods to be ready...\n`, done: false };
  const updated = num(status['updatedReplicas']);
  const rolling = strategy['rollingUpdate'];
  if (rolling !== undefined && rolling !== null) {
    const partition = rec(rolling)['partition'];
    if (typeof replicas === 'number' && typeof partition === 'number' && updated < replicas - partition)
      return {
        text: `Waiting for partitioned roll out to finish: ${updated} out of ${replicas - partition} new pods have been updated...\n`,
        done: false,
      };
    return { text: `partitioned roll out complete: ${updated} new pods have been updated...\n`, done: true };
  }
  if (status['updateRevision'] !== status['currentRevision'])
    return {
      text: `waiting for statefulset rolling update to complete ${updated} pods at revision ${String(status['updateRevision'] ?? '')}...\n`,
      done: false,
    };
  return {
    text: `statefulset rolling update complete ${num(status['currentReplicas'])} pods at revision ${String(status['currentRevision'] ?? '')}...\n`,
    done: true,
  };
}

/** The status line of a workload; `revision` > 0 pins a Deployment's revision. */
export function rolloutStatus(kind: WorkloadKind, object: KubeObject, revision: number): StatusLine {
  switch (kind) {
    case 'Deployment':
      return deploymentStatus(object, revision);
    case 'DaemonSet':
      return daemonSetStatus(object);
    case 'StatefulSet':
      return statefulSetStatus(object);
  }
}

/** One revision of a workload: its number, pod template and change cause. */
export interface Revision {
  revision: number;
  template: Obj;
  changeCause: string;
  /** The ReplicaSet or ControllerRevision it comes from. */
  source: KubeObject;
}

function controllerUid(o: KubeObject): string | undefined {
  return o.metadata?.ownerReferences?.find((r) => r.controller === true)?.uid;
}

/** A Deployment's revisions: its own ReplicaSets with a parseable revision annotation. */
export function deploymentRevisions(deployment: KubeObject, replicaSets: KubeObject[]): Revision[] {
  const uid = deployment.metadata?.uid;
  const out = new Map<number, Revision>();
  for (const rs of replicaSets) {
    if (controllerUid(rs) !== uid) continue;
    const text = rs.metadata?.annotations?.[revisionAnnotation];
    if (text === undefined || !/^\d+$/.test(text)) continue;
    const revision = Number(text);
    out.set(revision, {
      revision,
      template: rec(rec(rs['spec'])['template']),
      changeCause: rs.metadata?.annotations?.[changeCauseAnnotation] ?? '',
      source: rs,
    });
  }
  return [...out.values()].sort((a, b) => a.revision - b.revision);
}

/** The template a ControllerRevision's patch (`{"spec":{"template":{…,"$patch":"replace"}}}`) restores. */
export function templateOfRevisionData(data: unknown): Obj {
  const template = { ...rec(rec(rec(data)['spec'])['template']) };
  delete template['$patch'];
  return template;
}

/** A DaemonSet's or StatefulSet's revisions: its own ControllerRevisions, by `.revision`. */
export function controllerRevisions(owner: KubeObject, revisions: KubeObject[]): Revision[] {
  const uid = owner.metadata?.uid;
  return revisions
    .filter((cr) => controllerUid(cr) === uid)
    .map((cr) => ({
      revision: num(cr['revision']),
      template: templateOfRevisionData(cr['data']),
      changeCause: cr.metadata?.annotations?.[changeCauseAnnotation] ?? '',
      source: cr,
    }))
    .sort((a, b) => a.revision - b.revision);
}

/**
 * The revision `rollout undo` goes back to: `toRevision` itself, or (0) the
 * newest but one. Deployments and the ControllerRevision kinds word the
 * missing cases differently, as kubectl does.
 */
export function undoTarget(
  kind: WorkloadKind,
  name: string,
  revisions: Revision[],
  toRevision: number,
): Revision {
  if (toRevision < 0 || (toRevision > 0 && !revisions.some((r) => r.revision === toRevision)))
    throw new RolloutError(`unable to find specified revision ${toRevision} in history`);
  if (toRevision > 0) return revisions.find((r) => r.revision === toRevision) as Revision;
  if (revisions.length < 2) {
    if (kind === 'Deployment') throw new RolloutError(`no rollout history found for deployment "${name}"`);
    throw new RolloutError('no last revision to roll back to');
  }
  return revisions[revisions.length - 2] as Revision;
}

/** Whether two pod templates are equal once the ReplicaSet's `pod-template-hash` label is set aside. */
export function equalIgnoringHash(a: Obj, b: Obj): boolean {
  const strip = (t: Obj): Obj => {
    const meta = { ...rec(t['metadata']) };
    const labels = { ...rec(meta['labels']) };
    delete labels[podTemplateHashLabel];
    meta['labels'] = labels;
    return { ...t, metadata: meta };
  };
  return canonical(strip(a)) === canonical(strip(b));
}

/** JSON with sorted keys, for structural comparison. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null)
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Obj)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Obj)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}
