/**
 * The Job, CronJob and TTL-after-finished controllers through the Node
 * host, pods run by the kwok-like test kubelet and finished by the test:
 * completions and parallelism, Indexed jobs, the tracking finalizer, the
 * back-off after a failure and the backoff limit, the active deadline,
 * and the TTL — the deadlines passing on the server's clock, moved forward
 * by the test — then CronJobs creating their Jobs at each activation of
 * the schedule, forbidding concurrent runs, keeping their history within
 * the limits, a schedule that never comes, and a schedule the server refuses.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from './support/host';
import { startKwok, type Kwok } from './support/kwok';
import { createNamespace, ownedBy, waitFor, type Json } from './support/workloads';

const ns = 'jobs-test';
const jobsPath = `/apis/batch/v1/namespaces/${ns}/jobs`;
const cronPath = `/apis/batch/v1/namespaces/${ns}/cronjobs`;
const podsPath = `/api/v1/namespaces/${ns}/pods`;

const condition = (o: Json, type: string): Json =>
  ((o?.status?.conditions ?? []) as Json[]).find((c) => c.type === type);

function job(name: string, spec: Json): Json {
  return {
    metadata: { name },
    spec: {
      template: {
        spec: {
          restartPolicy: 'Never',
          containers: [{ name: 'c', image: 'busybox', command: ['echo', 'hello'] }],
        },
      },
      ...spec,
    },
  };
}

describe('job, cronjob and ttl-after-finished controllers', () => {
  let host: TestHost;
  let kwok: Kwok;

  beforeAll(async () => {
    host = await startTestHost({ profile: 'kubernetes' });
    kwok = await startKwok(host.url);
    await createNamespace(host, ns);
  });
  afterAll(async () => {
    kwok.stop();
    await host.close();
  });

  const podsOf = async (uid: string, done: (pods: Json[]) => boolean, what: string): Promise<Json[]> =>
    ownedBy(await waitFor(host, podsPath, (list) => done(ownedBy(list, uid)), what), uid);
  const running = (p: Json) => p.status?.phase === 'Running' && p.metadata.deletionTimestamp === undefined;
  const finish = async (pods: Json[], phase = 'Succeeded') => {
    for (const p of pods) await kwok.setPhase(ns, p.metadata.name, phase);
  };

  it('runs pods up to parallelism until the completions succeed, counting them through the finalizer', async () => {
    const r = await host.request('POST', jobsPath, {
      body: job('count', { completions: 3, parallelism: 2 }),
    });
    expect(r.status, r.text).toBe(201);
    const uid = r.body.metadata.uid as string;
    const firstTwo = await podsOf(uid, (p) => p.filter(running).length === 2, 'two running pods');
    expect(firstTwo[0].metadata.finalizers).toEqual(['batch.kubernetes.io/job-tracking']);
    await finish(firstTwo);
    const third = await podsOf(uid, (p) => p.filter(running).length === 1 && p.length === 3, 'the third pod');
    await finish(third.filter(running));
    const done = await waitFor(
      host,
      `${jobsPath}/count`,
      (b) => condition(b, 'Complete') !== undefined,
      'Complete',
    );
    expect(condition(done, 'Complete').status).toBe('True');
    expect(done.status).toMatchObject({ succeeded: 3, ready: 0, uncountedTerminatedPods: {} });
    expect(done.status.active).toBeUndefined();
    expect(done.status.completionTime).toBeDefined();
    const pods = await podsOf(
      uid,
      (p) => p.every((x) => (x.metadata.finalizers ?? []).length === 0),
      'finalizers removed',
    );
    expect(pods).toHaveLength(3);
    const events = (
      await host.request('GET', `/api/v1/namespaces/${ns}/events?fieldSelector=involvedObject.name=count`)
    ).body;
    expect(
      (events.items as Json[]).some((e) => e.reason === 'Completed' && e.message === 'Job completed'),
    ).toBe(true);
  });

  it('releases the tracking finalizer of pods whose Job is gone, so their namespace can be deleted', async () => {
    const r = await host.request('POST', jobsPath, { body: job('orphaned', { parallelism: 1 }) });
    expect(r.status, r.text).toBe(201);
    const uid = r.body.metadata.uid as string;
    const [pod] = await podsOf(uid, (p) => p.filter(running).length === 1, 'a running pod');
    expect(pod.metadata.finalizers).toEqual(['batch.kubernetes.io/job-tracking']);
    const del = await host.request('DELETE', `${jobsPath}/orphaned?propagationPolicy=Orphan`);
    expect(del.status, del.text).toBe(200);
    const released = await waitFor(
      host,
      `${podsPath}/${pod.metadata.name}`,
      (b) => (b.metadata?.finalizers ?? []).length === 0,
      'the orphaned pod without the finalizer',
    );
    expect(released.metadata.ownerReferences ?? []).toEqual([]);
  });

  it('runs an Indexed job with one pod per index and reports the completed indexes', async () => {
    const r = await host.request('POST', jobsPath, {
      body: job('indexed', { completions: 3, parallelism: 3, completionMode: 'Indexed' }),
    });
    expect(r.status, r.text).toBe(201);
    const pods = await podsOf(
      r.body.metadata.uid,
      (p) => p.filter(running).length === 3,
      'three indexed pods',
    );
    const indexes = pods
      .map((p) => p.metadata.annotations['batch.kubernetes.io/job-completion-index'])
      .sort();
    expect(indexes).toEqual(['0', '1', '2']);
    const zero = pods.find((p) => p.metadata.annotations['batch.kubernetes.io/job-completion-index'] === '0');
    expect(zero.metadata.generateName).toBe('indexed-0-');
    expect(zero.spec.hostname).toBe('indexed-0');
    expect(zero.spec.containers[0].env).toContainEqual({
      name: 'JOB_COMPLETION_INDEX',
      valueFrom: {
        fieldRef: {
          apiVersion: 'v1',
          fieldPath: "metadata.annotations['batch.kubernetes.io/job-completion-index']",
        },
      },
    });
    await finish(pods);
    const done = await waitFor(
      host,
      `${jobsPath}/indexed`,
      (b) => condition(b, 'Complete') !== undefined,
      'Complete',
    );
    expect(done.status.completedIndexes).toBe('0-2');
    expect(done.status.succeeded).toBe(3);
  });

  it('waits the back-off after a failure, then fails the Job past its backoff limit', async () => {
    const r = await host.request('POST', jobsPath, { body: job('flaky', { backoffLimit: 1 }) });
    const uid = r.body.metadata.uid as string;
    const [first] = await podsOf(uid, (p) => p.filter(running).length === 1, 'the first pod');
    await finish([first], 'Failed');
    await waitFor(host, `${jobsPath}/flaky`, (b) => b.status?.failed === 1, 'one failure counted');
    await host.api.controllersIdle();
    // The replacement waits for the back-off (10 s on the server's clock).
    expect((await podsOf(uid, () => true, 'pods')).filter(running)).toHaveLength(0);
    host.api.clock.advance(11_000);
    const second = await podsOf(
      uid,
      (p) => p.filter(running).length === 1,
      'a replacement after the back-off',
    );
    await finish(second.filter(running), 'Failed');
    const failed = await waitFor(
      host,
      `${jobsPath}/flaky`,
      (b) => condition(b, 'Failed') !== undefined,
      'Failed',
    );
    expect(condition(failed, 'Failed')).toMatchObject({
      status: 'True',
      reason: 'BackoffLimitExceeded',
      message: 'Job has reached the specified backoff limit',
    });
    expect(failed.status.failed).toBe(2);
  });

  it('fails a Job active past its deadline and deletes its pods', async () => {
    const r = await host.request('POST', jobsPath, { body: job('slow', { activeDeadlineSeconds: 30 }) });
    const uid = r.body.metadata.uid as string;
    await podsOf(uid, (p) => p.filter(running).length === 1, 'a running pod');
    host.api.clock.advance(31_000);
    const failed = await waitFor(
      host,
      `${jobsPath}/slow`,
      (b) => condition(b, 'Failed') !== undefined,
      'Failed',
    );
    expect(condition(failed, 'Failed')).toMatchObject({
      reason: 'DeadlineExceeded',
      message: 'Job was active longer than specified deadline',
    });
    await podsOf(uid, (p) => p.length === 0, 'the pods deleted');
  });

  it('deletes a finished Job once its TTL has passed on the server clock', async () => {
    const r = await host.request('POST', jobsPath, {
      body: job('short-lived', { ttlSecondsAfterFinished: 60 }),
    });
    const uid = r.body.metadata.uid as string;
    await finish(await podsOf(uid, (p) => p.filter(running).length === 1, 'a running pod'));
    await waitFor(host, `${jobsPath}/short-lived`, (b) => condition(b, 'Complete') !== undefined, 'Complete');
    await host.api.controllersIdle();
    expect((await host.request('GET', `${jobsPath}/short-lived`)).status).toBe(200);
    host.api.clock.advance(61_000);
    await waitFor(host, `${jobsPath}/short-lived`, (_b, status) => status === 404, 'the Job deleted');
  });

  it('creates a Job at each activation of a CronJob schedule, forbidding concurrent runs', async () => {
    const r = await host.request('POST', cronPath, {
      body: {
        metadata: { name: 'tick' },
        spec: {
          schedule: '*/1 * * * *',
          concurrencyPolicy: 'Forbid',
          successfulJobsHistoryLimit: 1,
          jobTemplate: { metadata: { labels: { run: 'tick' } }, spec: job('x', {}).spec },
        },
      },
    });
    expect(r.status, r.text).toBe(201);
    const uid = r.body.metadata.uid as string;
    await host.api.controllersIdle();
    expect(ownedBy((await host.request('GET', jobsPath)).body, uid)).toHaveLength(0);
    host.api.clock.advance(60_000);
    const jobs = ownedBy(
      await waitFor(host, jobsPath, (b) => ownedBy(b, uid).length === 1, 'the first Job'),
      uid,
    );
    const first = jobs[0];
    expect(first.metadata.name).toMatch(/^tick-\d+$/);
    expect(first.metadata.labels.run).toBe('tick');
    const scheduledMinute = Number(first.metadata.name.split('-')[1]);
    const cj = await waitFor(
      host,
      `${cronPath}/tick`,
      (b) => (b.status?.active ?? []).length === 1,
      'the active Job',
    );
    expect(cj.status.active[0]).toMatchObject({
      kind: 'Job',
      name: first.metadata.name,
      apiVersion: 'batch/v1',
    });
    expect(Date.parse(cj.status.lastScheduleTime)).toBe(scheduledMinute * 60_000);
    // Still running at the next minute: Forbid skips it.
    host.api.clock.advance(60_000);
    await waitFor(
      host,
      `/api/v1/namespaces/${ns}/events?fieldSelector=involvedObject.name=tick`,
      (b) => (b.items as Json[]).some((e) => e.reason === 'JobAlreadyActive'),
      'JobAlreadyActive',
    );
    expect(ownedBy((await host.request('GET', jobsPath)).body, uid)).toHaveLength(1);
    // The run finishes: the CronJob notices, and starts the run it skipped (it is still due).
    const [pod] = await podsOf(first.metadata.uid, (p) => p.filter(running).length === 1, 'the Job pod');
    await finish([pod]);
    const seen = await waitFor(
      host,
      `${cronPath}/tick`,
      (b) => b.status?.lastSuccessfulTime !== undefined,
      'lastSuccessfulTime',
    );
    expect(Date.parse(seen.status.lastSuccessfulTime)).toBeGreaterThan(0);
    await waitFor(
      host,
      jobsPath,
      (b) => ownedBy(b, uid).some((j: Json) => j.metadata.name === `tick-${scheduledMinute + 1}`),
      'the skipped run started',
    );
    const [second] = ownedBy((await host.request('GET', jobsPath)).body, uid).filter(
      (j) => j.metadata.name !== first.metadata.name,
    );
    await finish(await podsOf(second.metadata.uid, (p) => p.filter(running).length === 1, 'the second pod'));
    // One successful Job is kept: the first goes.
    await waitFor(
      host,
      jobsPath,
      (b) => ownedBy(b, uid).length === 1 && ownedBy(b, uid)[0].metadata.name === second.metadata.name,
      'the history limited to one',
    );
  });

  it('reports a schedule that never comes (31 February) as an InvalidSchedule warning and creates nothing', async () => {
    const r = await host.request('POST', cronPath, {
      body: {
        metadata: { name: 'never' },
        spec: { schedule: '59 23 31 2 *', jobTemplate: { spec: job('x', {}).spec } },
      },
    });
    expect(r.status, r.text).toBe(201);
    const events = await waitFor(
      host,
      `/api/v1/namespaces/${ns}/events?fieldSelector=involvedObject.name=never`,
      (b) => (b.items as Json[]).some((e) => e.reason === 'InvalidSchedule'),
      'InvalidSchedule',
    );
    const warning = (events.items as Json[]).find((e) => e.reason === 'InvalidSchedule');
    expect(warning).toMatchObject({
      type: 'Warning',
      message: 'invalid schedule: 59 23 31 2 * : time difference between two schedules is less than 1 second',
      source: { component: 'cronjob-controller' },
      involvedObject: { kind: 'CronJob', name: 'never', apiVersion: 'batch/v1' },
    });
    host.api.clock.advance(366 * 24 * 3600_000);
    await host.api.controllersIdle();
    expect(ownedBy((await host.request('GET', jobsPath)).body, r.body.metadata.uid as string)).toHaveLength(
      0,
    );
  });

  it.each([
    [
      'bad',
      'CronJob.batch "bad" is invalid: spec.schedule: Invalid value: "bad": expected exactly 5 fields, found 1: [bad]',
    ],
    [
      '61 * * * *',
      'CronJob.batch "bad" is invalid: spec.schedule: Invalid value: "61 * * * *": End of range (61) above maximum (59): 61',
    ],
    [
      'TZ=UTC 0 * * * *',
      'CronJob.batch "bad" is invalid: spec.schedule: Invalid value: "TZ=UTC 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead',
    ],
  ])('refuses the schedule %s', async (schedule, message) => {
    const r = await host.request('POST', cronPath, {
      body: { metadata: { name: 'bad' }, spec: { schedule, jobTemplate: { spec: job('x', {}).spec } } },
    });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(message);
  });
});
