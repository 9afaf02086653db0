/**
 * The Job controller: runs up to `parallelism` pods until `completions`
 * succeed (any one success when completions is unset), in Indexed mode one
 * pod per index (`<job>-<index>-…`, the index in the
 * `batch.<domain>/job-completion-index` annotation and `JOB_COMPLETION_INDEX`,
 * `completedIndexes` in status). Finished pods are counted through the
 * `batch.<domain>/job-tracking` finalizer, as v1.27 tracks them: recorded
 * in `uncountedTerminatedPods`, the finalizer removed, then added to
 * `succeeded`/`failed`, so a pod deleted early is still counted once.
 * Failures retry with the real back-off (10 s doubling to 6 min, on the
 * server's clock); past `backoffLimit` or `activeDeadlineSeconds` the Job
 * fails (`BackoffLimitExceeded`, `DeadlineExceeded`) and its running pods
 * are deleted; done, it is `Complete`. Suspend and resume set the
 * `Suspended` condition.
 */

import type { KubeObject } from '../api/meta';
import { deepEqual } from '../machinery/json';
import { isNotFound } from './api-errors';
import { eventRecorder, type InvolvedKind } from './events';
import { objectKey } from './informer';
import type { SharedInformers } from './shared-informers';
import type { Controller, ControllerContext } from './types';
import { WorkQueue } from './work-queue';
import { timestamp } from './workload/conditions';
import { Expectations } from './workload/expectations';
import { claim, controllerOf, newControllerRef } from './workload/owner';
import { PodControl, podFromTemplate, podsRef } from './workload/pod-control';
import { isPodActive, isPodReady, isTerminating, rankForDeletion } from './workload/pods';
import { labelSelectorMatcher } from './workload/selectors';
import type { Condition, LabelSelector, Pod, PodTemplateSpec } from './workload/types';

const jobsRef = { group: 'batch', version: 'v1', resource: 'jobs' } as const;
const jobKind: InvolvedKind = { apiVersion: 'batch/v1', kind: 'Job' };
const backoffBaseMs = 10_000;
const backoffMaxMs = 6 * 60_000;
const maxPodsPerSync = 500;

interface JobStatus {
  conditions?: Condition[];
  startTime?: string;
  completionTime?: string;
  active?: number;
  succeeded?: number;
  failed?: number;
  ready?: number;
  completedIndexes?: string;
  uncountedTerminatedPods?: { succeeded?: string[]; failed?: string[] };
}

export interface Job extends KubeObject {
  spec?: {
    parallelism?: number;
    completions?: number;
    backoffLimit?: number;
    activeDeadlineSeconds?: number;
    completionMode?: string;
    suspend?: boolean;
    selector?: LabelSelector;
    template?: PodTemplateSpec;
    ttlSecondsAfterFinished?: number;
  };
  status?: JobStatus;
}

/** `Complete` or `Failed`, when the Job has finished. */
export function finishedCondition(job: Job): Condition | undefined {
  return job.status?.conditions?.find(
    (c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True',
  );
}

/** Sorted indexes as `0-2,4` (`completedIndexes`). */
function formatIndexes(indexes: number[]): string {
  const sorted = [...new Set(indexes)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === (sorted[j] ?? 0) + 1) j++;
    parts.push(i === j ? String(sorted[i]) : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}

function parseIndexes(text: string | undefined): number[] {
  const out: number[] = [];
  for (const part of (text ?? '').split(',')) {
    if (part === '') continue;
    const [a, b] = part.split('-').map(Number);
    if (a === undefined || Number.isNaN(a)) continue;
    for (let i = a; i <= (b ?? a); i++) out.push(i);
  }
  return out;
}

export function jobController(ctx: ControllerContext, informers: SharedInformers): Controller {
  const jobs = informers.informer(jobsRef);
  const pods = informers.informer(podsRef);
  const recorder = eventRecorder(ctx.client, 'job-controller', ctx.now);
  const podControl = new PodControl(ctx.client, recorder);
  const expectations = new Expectations(() => ctx.now().getTime());
  const finalizer = ctx.profile.subPrefixed('batch', 'job-tracking');
  const indexAnnotation = ctx.profile.subPrefixed('batch', 'job-completion-index');

  const indexOf = (pod: Pod): number | undefined => {
    const v = pod.metadata?.annotations?.[indexAnnotation];
    return v !== undefined && /^\d+$/.test(v) ? Number(v) : undefined;
  };
  const finished = (pod: Pod): boolean => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
  const hasFinalizer = (pod: Pod): boolean => (pod.metadata?.finalizers ?? []).includes(finalizer);

  const removeFinalizer = async (pod: Pod): Promise<void> => {
    try {
      await ctx.client.patch(
        { ...podsRef, namespace: pod.metadata?.namespace ?? '', name: pod.metadata?.name ?? '' },
        [
          { op: 'test', path: '/metadata/uid', value: pod.metadata?.uid },
          {
            op: 'replace',
            path: '/metadata/finalizers',
            value: (pod.metadata?.finalizers ?? []).filter((f) => f !== finalizer),
          },
        ],
        'application/json-patch+json',
      );
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  };

  const writeStatus = async (job: Job, status: JobStatus): Promise<Job> =>
    ctx.client.update<Job>(
      {
        ...jobsRef,
        namespace: job.metadata?.namespace ?? '',
        name: job.metadata?.name ?? '',
        subresource: 'status',
      },
      { ...job, status },
    );

  /** The pod template of this Job's new pods (the tracking finalizer; for Indexed, the index env var). */
  const podTemplate = (job: Job, index: number | undefined): PodTemplateSpec => {
    const t = structuredClone(job.spec?.template ?? {});
    const meta = (t.metadata ??= {});
    meta.finalizers = [...(meta.finalizers ?? []).filter((f) => f !== finalizer), finalizer];
    if (index !== undefined) {
      meta.annotations = { ...meta.annotations, [indexAnnotation]: String(index) };
      const spec = (t.spec ??= {});
      spec.hostname = `${job.metadata?.name ?? ''}-${index}`;
      const env = {
        name: 'JOB_COMPLETION_INDEX',
        valueFrom: {
          fieldRef: { apiVersion: 'v1', fieldPath: `metadata.annotations['${indexAnnotation}']` },
        },
      };
      for (const c of [...(spec.initContainers ?? []), ...(spec.containers ?? [])]) {
        const list = (c['env'] as { name: string }[] | undefined) ?? [];
        if (!list.some((e) => e.name === env.name)) c['env'] = [...list, env];
      }
    }
    return t;
  };

  const reconcile = async (key: string): Promise<{ requeueAfterMs?: number } | void> => {
    await Promise.all([jobs.synced, pods.synced]);
    if (key.startsWith(orphanPrefix)) return releaseOrphan(key.slice(orphanPrefix.length));
    const [namespace = '', name = ''] = key.split('/');
    let job = jobs.get(namespace, name) as Job | undefined;
    if (job === undefined) {
      expectations.delete(key);
      return;
    }
    const match = labelSelectorMatcher(job.spec?.selector);
    if (match instanceof Error) return;
    const now = ctx.now();
    const owned = await claim({
      client: ctx.client,
      owner: job,
      ownerKind: jobKind,
      ownerRef: jobsRef,
      ref: podsRef,
      candidates: pods.inNamespace(namespace) as Pod[],
      match: (p) => match(p.metadata?.labels),
    });
    const status: JobStatus = structuredClone(job.status ?? {});
    const uncounted = {
      succeeded: [...(status.uncountedTerminatedPods?.succeeded ?? [])],
      failed: [...(status.uncountedTerminatedPods?.failed ?? [])],
    };
    const indexed = job.spec?.completionMode === 'Indexed';
    const completions = job.spec?.completions;
    const completed = new Set(parseIndexes(status.completedIndexes));

    // 1. Finished pods still carrying the finalizer are recorded as uncounted, then released.
    const newlyFinished = owned.filter(
      (p) =>
        finished(p) &&
        hasFinalizer(p) &&
        !uncounted.succeeded.includes(p.metadata?.uid ?? '') &&
        !uncounted.failed.includes(p.metadata?.uid ?? ''),
    );
    let lastFailure: number | undefined;
    for (const p of newlyFinished) {
      if (p.status?.phase === 'Succeeded') uncounted.succeeded.push(p.metadata?.uid ?? '');
      else uncounted.failed.push(p.metadata?.uid ?? '');
    }
    if (newlyFinished.length > 0) {
      job = await writeStatus(job, { ...status, uncountedTerminatedPods: uncounted });
      await Promise.all(newlyFinished.map(removeFinalizer));
    }
    // Terminating pods (deleted before they finished) are released too and counted as failed.
    for (const p of owned)
      if (isTerminating(p) && hasFinalizer(p) && !finished(p)) {
        uncounted.failed.push(p.metadata?.uid ?? '');
        await removeFinalizer(p);
      }
    // 2. Uncounted pods whose finalizer is gone are added to the counts.
    const byUid = new Map(owned.map((p) => [p.metadata?.uid ?? '', p]));
    let succeeded = status.succeeded ?? 0;
    let failed = status.failed ?? 0;
    for (const uid of uncounted.succeeded) {
      succeeded++;
      const p = byUid.get(uid);
      const idx = p !== undefined ? indexOf(p) : undefined;
      if (indexed && idx !== undefined && (completions === undefined || idx < completions))
        completed.add(idx);
    }
    failed += uncounted.failed.length;
    if (uncounted.failed.length > 0) lastFailure = now.getTime();
    if (indexed) succeeded = completed.size;

    const active = owned.filter((p) => isPodActive(p) && !finished(p));
    const backoffLimit = job.spec?.backoffLimit ?? 6;
    const restarts = active.reduce(
      (n, p) => n + (p.status?.containerStatuses ?? []).reduce((m, c) => m + (c.restartCount ?? 0), 0),
      0,
    );
    const onFailure = job.spec?.template?.spec?.restartPolicy === 'OnFailure';
    let condition: Condition | undefined;
    let requeueAfterMs: number | undefined;
    const already = finishedCondition(job);
    const startTime = status.startTime ?? (job.spec?.suspend === true ? undefined : timestamp(now));
    const deadline = job.spec?.activeDeadlineSeconds;
    const pastDeadline =
      deadline !== undefined &&
      startTime !== undefined &&
      Date.parse(startTime) + deadline * 1000 <= now.getTime();
    const stamp = timestamp(now);
    const cond = (type: string, s: 'True' | 'False', reason?: string, message?: string): Condition => ({
      type,
      status: s,
      lastProbeTime: stamp,
      lastTransitionTime: stamp,
      ...(reason !== undefined ? { reason } : {}),
      ...(message !== undefined ? { message } : {}),
    });
    let conditions = [...(status.conditions ?? [])];
    let activeCount = active.length;

    if (already === undefined) {
      if (
        failed > backoffLimit ||
        (onFailure && backoffLimit > 0 && restarts >= backoffLimit) ||
        (onFailure && backoffLimit === 0 && restarts > 0)
      )
        condition = cond(
          'Failed',
          'True',
          'BackoffLimitExceeded',
          'Job has reached the specified backoff limit',
        );
      else if (pastDeadline)
        condition = cond(
          'Failed',
          'True',
          'DeadlineExceeded',
          'Job was active longer than specified deadline',
        );
      if (condition !== undefined) {
        await Promise.all(active.map((p) => podControl.delete(p, job as Job, jobKind)));
        activeCount = 0;
      } else {
        const suspended = job.spec?.suspend === true;
        const suspendCond = conditions.find((c) => c.type === 'Suspended');
        if (suspended && suspendCond?.status !== 'True') {
          conditions = [
            ...conditions.filter((c) => c.type !== 'Suspended'),
            cond('Suspended', 'True', 'JobSuspended', 'Job suspended'),
          ];
          recorder.event(jobKind, job, 'Normal', 'Suspended', 'Job suspended');
        } else if (!suspended && suspendCond?.status === 'True') {
          conditions = [
            ...conditions.filter((c) => c.type !== 'Suspended'),
            cond('Suspended', 'False', 'JobResumed', 'Job resumed'),
          ];
          recorder.event(jobKind, job, 'Normal', 'Resumed', 'Job resumed');
        }
        if (expectations.satisfied(key) && !isTerminating(job)) {
          const r = await manage(key, job, active, succeeded, completed, suspended, failed, lastFailure);
          activeCount = r.active;
          requeueAfterMs = r.requeueAfterMs;
        }
        const complete =
          completions === undefined
            ? succeeded > 0 && activeCount === 0
            : succeeded >= completions && activeCount === 0;
        if (complete) condition = cond('Complete', 'True');
      }
    }
    if (condition !== undefined) {
      conditions = [...conditions, condition];
      if (condition.type === 'Complete') recorder.event(jobKind, job, 'Normal', 'Completed', 'Job completed');
      else recorder.event(jobKind, job, 'Warning', condition.reason ?? '', condition.message ?? '');
    }
    const next: JobStatus = {
      ...(conditions.length > 0 ? { conditions } : {}),
      ...(startTime !== undefined ? { startTime } : {}),
      ...(condition?.type === 'Complete'
        ? { completionTime: stamp }
        : status.completionTime !== undefined
          ? { completionTime: status.completionTime }
          : {}),
      ...(activeCount > 0 ? { active: activeCount } : {}),
      ...(succeeded > 0 ? { succeeded } : {}),
      ...(failed > 0 ? { failed } : {}),
      ...(indexed && completed.size > 0 ? { completedIndexes: formatIndexes([...completed]) } : {}),
      uncountedTerminatedPods: {},
      ready: active.filter((p) => isPodReady(p)).length,
    };
    if (!deepEqual(next, job.status ?? {})) await writeStatus(job, next);
    if (
      already === undefined &&
      condition === undefined &&
      deadline !== undefined &&
      startTime !== undefined
    ) {
      const left = Date.parse(startTime) + deadline * 1000 - now.getTime();
      requeueAfterMs = Math.min(requeueAfterMs ?? left, Math.max(0, left));
    }
    // Pods of a finished Job lose the tracking finalizer too.
    if (already !== undefined) await Promise.all(owned.filter(hasFinalizer).map(removeFinalizer));
    return requeueAfterMs !== undefined ? { requeueAfterMs } : undefined;
  };

  /** Creates and deletes pods towards the wanted number of active ones; returns the active count. */
  const manage = async (
    key: string,
    job: Job,
    active: Pod[],
    succeeded: number,
    completed: Set<number>,
    suspended: boolean,
    failed: number,
    lastFailure: number | undefined,
  ): Promise<{ active: number; requeueAfterMs?: number }> => {
    let count = active.length;
    const parallelism = suspended ? 0 : (job.spec?.parallelism ?? 1);
    const completions = job.spec?.completions;
    const indexed = job.spec?.completionMode === 'Indexed';
    let want: number;
    if (suspended) want = 0;
    else if (completions === undefined) want = succeeded > 0 ? count : parallelism;
    else want = Math.max(0, Math.min(completions - succeeded, parallelism));
    // Indexed: duplicates of an index, and indexes already completed or out of range, go first.
    const doomed: Pod[] = [];
    let keep = active;
    if (indexed) {
      const seen = new Set<number>();
      keep = [];
      for (const p of active) {
        const idx = indexOf(p);
        if (
          idx === undefined ||
          completed.has(idx) ||
          (completions !== undefined && idx >= completions) ||
          seen.has(idx)
        )
          doomed.push(p);
        else {
          seen.add(idx);
          keep.push(p);
        }
      }
    }
    const extra = keep.length - want;
    if (extra > 0) doomed.push(...rankForDeletion(keep, keep, ctx.profile).slice(0, extra));
    if (doomed.length > 0) {
      expectations.expectDeletions(
        key,
        doomed.map((p) => p.metadata?.uid ?? ''),
      );
      await Promise.all(
        doomed.map(async (p) => {
          try {
            await podControl.delete(p, job, jobKind);
          } catch (e) {
            expectations.deletionObserved(key, p.metadata?.uid ?? '');
            throw e;
          }
        }),
      );
      count -= doomed.length;
    }
    if (count >= want) return { active: count };
    // Back-off after failures: 10 s doubling per failure, at most 6 minutes.
    if (failed > 0) {
      const since = lastFailure ?? latestFailure(job);
      const delay = Math.min(backoffBaseMs * 2 ** Math.max(0, failed - 1), backoffMaxMs);
      const left = since + delay - ctx.now().getTime();
      if (left > 0) return { active: count, requeueAfterMs: left };
    }
    let diff = Math.min(want - count, maxPodsPerSync);
    const indexes: number[] = [];
    if (indexed && completions !== undefined) {
      const taken = new Set(keep.map(indexOf));
      for (let i = 0; i < completions && indexes.length < diff; i++)
        if (!completed.has(i) && !taken.has(i)) indexes.push(i);
      diff = indexes.length;
    }
    expectations.expectCreations(key, diff);
    const ref = newControllerRef(job, jobKind);
    let made = 0;
    let error: unknown;
    for (
      let batch = Math.min(diff, 1);
      made < diff && error === undefined;
      batch = Math.min(batch * 2, diff - made)
    ) {
      const results = await Promise.allSettled(
        Array.from({ length: batch }, (_, i) => {
          const index = indexed ? indexes[made + i] : undefined;
          const pod = podFromTemplate(podTemplate(job, index), job, ref);
          if (index !== undefined)
            pod.metadata = { ...pod.metadata, generateName: `${job.metadata?.name ?? ''}-${index}-` };
          return podControl.create(job.metadata?.namespace ?? '', pod, job, jobKind);
        }),
      );
      for (const r of results) if (r.status === 'rejected') error ??= r.reason;
      made += batch;
    }
    if (error !== undefined) {
      // What was not created will never be observed.
      expectations.expectCreations(key, 0);
      throw error;
    }
    return { active: count + diff };
  };

  /** When the Job's last failure was recorded (its status has no time for it: the last status write). */
  const latestFailure = (job: Job): number => {
    const times = (job.metadata?.managedFields ?? [])
      .filter((f) => f.subresource === 'status')
      .map((f) => Date.parse(f.time ?? ''))
      .filter((t) => !Number.isNaN(t));
    return times.length > 0 ? Math.max(...times) : 0;
  };

  /**
   * A pod still holding the tracking finalizer whose Job is gone (deleted, or replaced by another of
   * the same name) is released, as v1.27's orphan-pod sync does: nothing else would ever remove the
   * finalizer, and the pod — and a namespace being deleted around it — would stay forever.
   */
  const orphanPrefix = 'orphan-pod\u0000';
  const releaseOrphan = async (podKey: string): Promise<void> => {
    const [namespace = '', name = ''] = podKey.split('/');
    const pod = pods.get(namespace, name) as Pod | undefined;
    if (pod === undefined || !hasFinalizer(pod) || ownerKey(pod) !== undefined) return;
    await removeFinalizer(pod);
  };
  const enqueueIfOrphan = (pod: KubeObject): boolean => {
    if (!hasFinalizer(pod as Pod) || ownerKey(pod) !== undefined) return false;
    queue.add(`${orphanPrefix}${objectKey(pod)}`);
    return true;
  };

  const queue = new WorkQueue(reconcile, { clock: ctx.clock });
  const ownerKey = (pod: KubeObject): string | undefined => {
    const ref = controllerOf(pod);
    if (ref?.kind !== 'Job') return undefined;
    const job = jobs.get(pod.metadata?.namespace ?? '', ref.name);
    return job?.metadata?.uid === ref.uid ? objectKey(job) : undefined;
  };
  jobs.addHandlers({
    add: (j) => queue.add(objectKey(j)),
    update: (_old, j) => queue.add(objectKey(j)),
    delete: (j) => {
      expectations.delete(objectKey(j));
      queue.add(objectKey(j));
      // Its pods that still hold the finalizer are orphans now.
      for (const p of pods.inNamespace(j.metadata?.namespace ?? ''))
        if (controllerOf(p)?.uid === j.metadata?.uid) enqueueIfOrphan(p);
    },
  });
  pods.addHandlers({
    add: (p) => {
      if (enqueueIfOrphan(p)) return;
      const owner = ownerKey(p);
      if (owner === undefined) return;
      expectations.creationObserved(owner);
      queue.add(owner);
    },
    update: (old, p) => {
      if (enqueueIfOrphan(p)) return;
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

  return {
    name: 'job',
    start: () => undefined,
    stop: () => queue.stop(),
    idle: async () => {
      await queue.idle();
      await recorder.flush();
    },
  };
}
