/**
 * The TTL-after-finished controller: a Job with `ttlSecondsAfterFinished`
 * is deleted (in the foreground, so its pods go first) that long after it
 * finished — its completion time, or when its Failed condition was set.
 * The expiry is measured on the server's clock, so moving the clock
 * forward expires Jobs at once; before deleting, the Job is read again and
 * the deletion carries its uid, so a re-created Job of the same name is
 * left alone.
 */

import { isNotFound } from './api-errors';
import { objectKey } from './informer';
import { finishedCondition, type Job } from './job';
import type { SharedInformers } from './shared-informers';
import type { Controller, ControllerContext } from './types';
import { WorkQueue } from './work-queue';

const jobsRef = { group: 'batch', version: 'v1', resource: 'jobs' } as const;

/** When the Job's TTL runs out, or undefined when it has none or has not finished. */
function expiresAt(job: Job): number | undefined {
  const ttl = job.spec?.ttlSecondsAfterFinished;
  const done = finishedCondition(job);
  if (ttl === undefined || done === undefined || job.metadata?.deletionTimestamp) return undefined;
  const finishedAt =
    done.type === 'Complete' && job.status?.completionTime !== undefined
      ? Date.parse(job.status.completionTime)
      : Date.parse(done.lastTransitionTime ?? '');
  return Number.isNaN(finishedAt) ? undefined : finishedAt + ttl * 1000;
}

export function ttlAfterFinishedController(ctx: ControllerContext, informers: SharedInformers): Controller {
  const jobs = informers.informer(jobsRef);

  const reconcile = async (key: string): Promise<{ requeueAfterMs?: number } | void> => {
    await jobs.synced;
    const [namespace = '', name = ''] = key.split('/');
    const cached = jobs.get(namespace, name) as Job | undefined;
    if (cached === undefined || expiresAt(cached) === undefined) return;
    // The cache may be behind: the live Job decides (its TTL may have been changed).
    let job: Job;
    try {
      job = await ctx.client.get<Job>({ ...jobsRef, namespace, name });
    } catch (e) {
      if (isNotFound(e)) return;
      throw e;
    }
    const at = expiresAt(job);
    if (at === undefined) return;
    const left = at - ctx.now().getTime();
    if (left > 0) return { requeueAfterMs: left };
    try {
      await ctx.client.delete(
        { ...jobsRef, namespace, name },
        {
          apiVersion: 'v1',
          kind: 'DeleteOptions',
          propagationPolicy: 'Foreground',
          preconditions: { uid: job.metadata?.uid },
        },
      );
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  };
  const queue = new WorkQueue(reconcile, { clock: ctx.clock });
  const enqueue = (job: Job): void => {
    if (expiresAt(job) !== undefined) queue.add(objectKey(job));
  };
  jobs.addHandlers({ add: enqueue, update: (_old, j) => enqueue(j) });

  return {
    name: 'ttl-after-finished',
    start: () => undefined,
    stop: () => queue.stop(),
    idle: () => queue.idle(),
  };
}
