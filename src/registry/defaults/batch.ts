/**
 * batch/v1 defaults: a Job runs once (completions and parallelism 1 when
 * neither is set), retries 6 times, is NonIndexed and not suspended, and
 * takes its template's labels when it has none; a CronJob allows
 * concurrent runs and keeps 3 successful and 1 failed job.
 */

import { child, empty, items, maybe, ptr, str, type Defaulter } from './helpers';

const job: Defaulter = (obj) => {
  const spec = child(obj, 'spec');
  const unset = (v: unknown) => v === undefined || v === null;
  if (unset(spec.completions) && unset(spec.parallelism)) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  ptr(spec, 'parallelism', 1);
  ptr(spec, 'backoffLimit', 6);
  const labels = maybe(maybe(maybe(spec, 'template') ?? {}, 'metadata') ?? {}, 'labels');
  const meta = child(obj, 'metadata');
  if (labels !== undefined && empty(meta.labels)) meta.labels = { ...labels };
  ptr(spec, 'completionMode', 'NonIndexed');
  ptr(spec, 'suspend', false);
  for (const rule of items(maybe(spec, 'podFailurePolicy'), 'rules'))
    for (const pattern of items(rule, 'onPodConditions')) str(pattern, 'status', 'True');
};

const cronJob: Defaulter = (obj) => {
  const spec = child(obj, 'spec');
  str(spec, 'concurrencyPolicy', 'Allow');
  ptr(spec, 'suspend', false);
  ptr(spec, 'successfulJobsHistoryLimit', 3);
  ptr(spec, 'failedJobsHistoryLimit', 1);
};

export const batchDefaults: Record<string, Defaulter> = {
  'api.batch.v1.Job': job,
  'api.batch.v1.CronJob': cronJob,
};
