/**
 * The CronJob controller (upstream's v2): at each activation of the
 * schedule — in `spec.timeZone` or UTC, measured on the server's clock, so
 * moving the clock forward makes the due runs happen — it creates the Job
 * `<cronjob>-<minutes since the epoch>` from the job template, unless the
 * CronJob is suspended, the run is later than `startingDeadlineSeconds`
 * (`MissSchedule`), or `Forbid` finds a run still active (`Replace`
 * deletes it first). It follows its Jobs in `status.active`,
 * `lastScheduleTime` and `lastSuccessfulTime`, reports finished ones
 * (`SawCompletedJob`), and deletes the oldest finished Jobs beyond the
 * success and failure history limits. More than 100 missed runs are
 * reported (`TooManyMissedTimes`) and only the latest one is started.
 */

import type { KubeObject } from '../api/meta';
import { isKnownTimeZone, nextActivation, parseCron, type CronSchedule } from '../machinery/cron';
import { deepEqual } from '../machinery/json';
import { isAlreadyExists, isNamespaceTerminating, isNotFound } from './api-errors';
import { eventRecorder, type InvolvedKind } from './events';
import { objectKey } from './informer';
import { finishedCondition, type Job } from './job';
import type { SharedInformers } from './shared-informers';
import type { Controller, ControllerContext } from './types';
import { WorkQueue } from './work-queue';
import { timestamp } from './workload/conditions';
import { controllerOf, newControllerRef } from './workload/owner';
import { message } from './workload/pod-control';

const cronJobsRef = { group: 'batch', version: 'v1', resource: 'cronjobs' } as const;
const jobsRef = { group: 'batch', version: 'v1', resource: 'jobs' } as const;
const cronJobKind: InvolvedKind = { apiVersion: 'batch/v1', kind: 'CronJob' };
/** Upstream's `nextScheduleDelta`: wake a little after the activation, so it is due. */
const wakeDelayMs = 100;

interface ObjectReference {
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiVersion?: string;
  resourceVersion?: string;
}

interface CronJob extends KubeObject {
  spec?: {
    schedule?: string;
    timeZone?: string;
    startingDeadlineSeconds?: number;
    concurrencyPolicy?: string;
    suspend?: boolean;
    jobTemplate?: { metadata?: KubeObject['metadata']; spec?: Record<string, unknown> };
    successfulJobsHistoryLimit?: number;
    failedJobsHistoryLimit?: number;
  };
  status?: { active?: ObjectReference[]; lastScheduleTime?: string; lastSuccessfulTime?: string };
}

const ms = (t: string | undefined | null): number | undefined => {
  if (t === undefined || t === null) return undefined;
  const v = Date.parse(t);
  return Number.isNaN(v) ? undefined : v;
};

/**
 * Upstream's error for a schedule that never comes twice (`59 23 31 2 *`, a 31 February): the cron
 * library answers "never" as the zero time, so the two next activations are equal.
 */
const neverTwice = 'time difference between two schedules is less than 1 second';

/**
 * The latest activation at or before `now` not yet run, and how many were missed; `invalid` when the
 * schedule has no next activation within the cron search's horizon (five years), as upstream reports it.
 */
function mostRecent(
  cj: CronJob,
  schedule: CronSchedule,
  now: number,
  withDeadline: boolean,
): { earliest: number; due?: number; missed: number; invalid?: string } {
  let earliest = ms(cj.status?.lastScheduleTime) ?? ms(cj.metadata?.creationTimestamp) ?? now;
  const deadline = cj.spec?.startingDeadlineSeconds;
  if (withDeadline && deadline !== undefined) earliest = Math.max(earliest, now - deadline * 1000);
  const zone = cj.spec?.timeZone;
  const t1 = nextActivation(schedule, earliest, zone);
  if (t1 === undefined) return { earliest, missed: 0, invalid: neverTwice };
  if (t1 > now) return { earliest, missed: 0 };
  if (nextActivation(schedule, t1, zone) === undefined) return { earliest, missed: 0, invalid: neverTwice };
  let due = t1;
  let missed = 1;
  for (;;) {
    const t = nextActivation(schedule, due, zone);
    if (t === undefined || t > now) break;
    due = t;
    missed++;
    // Beyond a few hundred the exact count does not matter: only that there were too many.
    if (missed > 500) {
      const period = t - t1;
      if (period > 0) {
        const more = Math.floor((now - t) / period);
        due = t + more * period;
        missed += more;
      }
      break;
    }
  }
  return { earliest, due, missed };
}

export function cronJobController(ctx: ControllerContext, informers: SharedInformers): Controller {
  const cronJobs = informers.informer(cronJobsRef);
  const jobs = informers.informer(jobsRef);
  const recorder = eventRecorder(ctx.client, 'cronjob-controller', ctx.now);
  const event = (cj: CronJob, type: 'Normal' | 'Warning', reason: string, msg: string): void =>
    recorder.event(cronJobKind, cj, type, reason, msg);

  const deleteJob = async (cj: CronJob, job: KubeObject): Promise<boolean> => {
    try {
      await ctx.client.delete(
        { ...jobsRef, namespace: job.metadata?.namespace ?? '', name: job.metadata?.name ?? '' },
        { apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy: 'Background' },
      );
    } catch (e) {
      if (!isNotFound(e)) {
        event(cj, 'Warning', 'FailedDelete', `Deleted job: ${message(e)}`);
        return false;
      }
    }
    event(cj, 'Normal', 'SuccessfulDelete', `Deleted job ${job.metadata?.name ?? ''}`);
    return true;
  };

  /** Deletes the oldest finished Jobs beyond the history limits. */
  const cleanupFinished = async (cj: CronJob, children: Job[]): Promise<void> => {
    const started = (j: Job): number => ms(j.status?.startTime) ?? ms(j.metadata?.creationTimestamp) ?? 0;
    for (const [type, limit] of [
      ['Complete', cj.spec?.successfulJobsHistoryLimit ?? 3],
      ['Failed', cj.spec?.failedJobsHistoryLimit ?? 1],
    ] as const) {
      const done = children
        .filter((j) => finishedCondition(j)?.type === type && !j.metadata?.deletionTimestamp)
        .sort((a, b) => started(a) - started(b));
      for (const j of done.slice(0, Math.max(0, done.length - limit))) await deleteJob(cj, j);
    }
  };

  const reconcile = async (key: string): Promise<{ requeueAfterMs?: number } | void> => {
    await Promise.all([cronJobs.synced, jobs.synced]);
    const [namespace = '', name = ''] = key.split('/');
    const cached = cronJobs.get(namespace, name) as CronJob | undefined;
    if (cached === undefined) return;
    const cj = structuredClone(cached);
    const uid = cj.metadata?.uid;
    const now = ctx.now().getTime();
    const children = (jobs.inNamespace(namespace) as Job[]).filter((j) => controllerOf(j)?.uid === uid);
    const status = (cj.status ??= {});
    let active = [...(status.active ?? [])];

    // Follow the Jobs: finished ones leave the active list, missing ones too.
    for (const j of children) {
      const listed = active.some((a) => a.uid === j.metadata?.uid);
      const done = finishedCondition(j);
      if (listed && done !== undefined) {
        active = active.filter((a) => a.uid !== j.metadata?.uid);
        event(
          cj,
          'Normal',
          'SawCompletedJob',
          `Saw completed job: ${j.metadata?.name ?? ''}, status: ${done.type}`,
        );
        if (done.type === 'Complete' && j.status?.completionTime !== undefined) {
          const prev = ms(status.lastSuccessfulTime);
          if (prev === undefined || (ms(j.status.completionTime) ?? 0) > prev)
            status.lastSuccessfulTime = j.status.completionTime;
        }
      } else if (!listed && done === undefined && !j.metadata?.deletionTimestamp) {
        active.push(jobRef(j));
      }
    }
    for (const a of [...active]) {
      if (children.some((j) => j.metadata?.uid === a.uid)) continue;
      // Not in the cache: read it, the cache may lag behind a Job just created.
      try {
        const live = await ctx.client.get({ ...jobsRef, namespace, name: a.name ?? '' });
        if (live.metadata?.uid === a.uid) continue;
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
      active = active.filter((x) => x.uid !== a.uid);
      event(cj, 'Normal', 'MissingJob', `Active job went missing: ${a.name ?? ''}`);
    }
    status.active = active;

    let requeueAfterMs: number | undefined;
    const run = async (): Promise<void> => {
      if (cj.metadata?.deletionTimestamp) return;
      const zone = cj.spec?.timeZone;
      if (zone !== undefined && !isKnownTimeZone(zone)) {
        event(cj, 'Warning', 'UnknownTimeZone', `invalid timeZone: "${zone}": unknown time zone ${zone}`);
        return;
      }
      if (cj.spec?.suspend === true) return;
      let schedule: CronSchedule;
      try {
        schedule = parseCron(cj.spec?.schedule ?? '');
      } catch (e) {
        event(
          cj,
          'Warning',
          'UnparseableSchedule',
          `unparseable schedule: "${cj.spec?.schedule ?? ''}" : ${message(e)}`,
        );
        return;
      }
      const wake = (): void => {
        const base = mostRecent(cj, schedule, now, false);
        const next = nextActivation(schedule, base.due ?? base.earliest, zone);
        if (next !== undefined) requeueAfterMs = Math.max(0, next + wakeDelayMs - now);
      };
      const { due, missed, invalid } = mostRecent(cj, schedule, now, true);
      if (invalid !== undefined) {
        // Upstream stops here without a requeue: the CronJob waits for a change of its spec.
        event(cj, 'Warning', 'InvalidSchedule', `invalid schedule: ${cj.spec?.schedule ?? ''} : ${invalid}`);
        return;
      }
      if (missed > 100)
        event(
          cj,
          'Warning',
          'TooManyMissedTimes',
          `too many missed start times: ${missed}. Set or decrease .spec.startingDeadlineSeconds or check clock skew`,
        );
      if (due === undefined) return wake();
      const deadline = cj.spec?.startingDeadlineSeconds;
      if (deadline !== undefined && due + deadline * 1000 < now) {
        event(
          cj,
          'Warning',
          'MissSchedule',
          `Missed scheduled time to start a job: ${rfc1123z(new Date(due))}`,
        );
        return wake();
      }
      const jobName = `${cj.metadata?.name ?? ''}-${Math.floor(due / 60_000)}`;
      if (active.some((a) => a.name === jobName) || ms(status.lastScheduleTime) === due) return wake();
      const policy = cj.spec?.concurrencyPolicy ?? 'Allow';
      if (policy === 'Forbid' && active.length > 0) {
        event(
          cj,
          'Normal',
          'JobAlreadyActive',
          'Not starting job because prior execution is running and concurrency policy is Forbid',
        );
        return wake();
      }
      if (policy === 'Replace')
        for (const a of [...active]) {
          const j = children.find((c) => c.metadata?.uid === a.uid) ?? {
            metadata: { name: a.name, namespace },
          };
          if (!(await deleteJob(cj, j))) return;
          active = active.filter((x) => x.uid !== a.uid);
          status.active = active;
        }
      const template = cj.spec?.jobTemplate ?? {};
      const job: KubeObject = {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: {
          name: jobName,
          namespace,
          ...(template.metadata?.labels !== undefined ? { labels: { ...template.metadata.labels } } : {}),
          ...(template.metadata?.annotations !== undefined
            ? { annotations: { ...template.metadata.annotations } }
            : {}),
          ownerReferences: [newControllerRef(cj, cronJobKind)],
        },
        spec: structuredClone(template.spec ?? {}),
      };
      let created: Job;
      try {
        created = await ctx.client.create<Job>({ ...jobsRef, namespace }, job);
      } catch (e) {
        if (isNamespaceTerminating(e) || isAlreadyExists(e)) return;
        event(cj, 'Warning', 'FailedCreate', `Error creating job: ${message(e)}`);
        throw e;
      }
      event(cj, 'Normal', 'SuccessfulCreate', `Created job ${jobName}`);
      active = [...active, jobRef(created)];
      status.active = active;
      status.lastScheduleTime = timestamp(new Date(due));
      wake();
    };
    let failure: unknown;
    try {
      await run();
    } catch (e) {
      failure = e;
    }
    const next = { ...status };
    if ((next.active ?? []).length === 0) delete next.active;
    if (!deepEqual(next, cached.status ?? {}))
      await ctx.client.update(
        { ...cronJobsRef, namespace, name, subresource: 'status' },
        { ...cj, status: next },
      );
    await cleanupFinished(cj, children);
    if (failure !== undefined) throw failure;
    return requeueAfterMs !== undefined ? { requeueAfterMs } : undefined;
  };

  const queue = new WorkQueue(reconcile, { clock: ctx.clock });
  const onJob = (job: KubeObject): void => {
    const ref = controllerOf(job);
    if (ref?.kind !== 'CronJob') return;
    const cj = cronJobs.get(job.metadata?.namespace ?? '', ref.name);
    if (cj?.metadata?.uid === ref.uid) queue.add(objectKey(cj));
  };
  cronJobs.addHandlers({
    add: (cj) => queue.add(objectKey(cj)),
    update: (_old, cj) => queue.add(objectKey(cj)),
  });
  jobs.addHandlers({ add: onJob, update: (_old, j) => onJob(j), delete: onJob });
  return {
    name: 'cronjob',
    start: () => undefined,
    stop: () => queue.stop(),
    idle: async () => {
      await queue.idle();
      await recorder.flush();
    },
  };
}

function jobRef(job: KubeObject): ObjectReference {
  return {
    kind: 'Job',
    namespace: job.metadata?.namespace,
    name: job.metadata?.name,
    uid: job.metadata?.uid,
    apiVersion: 'batch/v1',
    resourceVersion: job.metadata?.resourceVersion,
  };
}

/** Go's `time.RFC1123Z` in UTC: `Mon, 02 Jan 2006 15:04:05 +0000`. */
function rfc1123z(d: Date): string {
  return d.toUTCString().replace('GMT', '+0000');
}
