// Leader election against an in-process server, on a clock the test moves: the first replica creates the Lease
// with the real record's fields, a second waits out the lease duration by its own clock before taking over
// (leaseTransitions counts it), a leader whose renewals fail past the renew deadline stops leading, and a
// released lease is taken at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startHarness, type Harness } from '../../test/support/bootstrap-tokens';
import type { KubeObject } from '../api/meta';
import {
  controllerManagerLeaseName,
  LeaderElector,
  type ElectionClock,
  type LeaderElectionConfig,
} from './leader-election';

/** A clock that moves only when the test says; sleepers wake when it passes their time. */
class ManualClock implements ElectionClock {
  private t = Date.parse('2026-01-01T00:00:00Z');
  private sleepers: { until: number; wake: () => void }[] = [];
  now(): Date {
    return new Date(this.t);
  }
  sleep(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal.aborted) return resolve();
      this.sleepers.push({ until: this.t + ms, wake: resolve });
      signal.addEventListener('abort', () => resolve());
    });
  }
  advance(ms: number): void {
    this.t += ms;
    const due = this.sleepers.filter((s) => s.until <= this.t);
    this.sleepers = this.sleepers.filter((s) => s.until > this.t);
    for (const s of due) s.wake();
  }
}

type Lease = KubeObject & {
  spec: {
    holderIdentity?: string;
    leaseDurationSeconds?: number;
    acquireTime?: string;
    renewTime?: string;
    leaseTransitions?: number;
  };
};

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.api.close();
});

const microTimePattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

function elector(
  name: string,
  identity: string,
  clock: ManualClock,
  events: string[],
  extra: Partial<LeaderElectionConfig> = {},
): LeaderElector {
  return new LeaderElector({
    client: h.client,
    profile: h.profile,
    name,
    identity,
    clock,
    log: () => undefined,
    onStartedLeading: () => events.push(`${identity} started`),
    onStoppedLeading: () => events.push(`${identity} stopped`),
    ...extra,
  });
}

const lease = (name: string) =>
  h.client.get<Lease>({
    group: h.profile.suffixed('coordination'),
    version: 'v1',
    resource: 'leases',
    namespace: h.profile.systemNamespace,
    name,
  });

describe('leader election', () => {
  it('creates the lease with the record fields, keeps it while renewing, hands over after the lease duration', async () => {
    const clock = new ManualClock();
    const events: string[] = [];
    const a = elector('lease-a', 'host-a_1', clock, events);
    const other = elector('lease-a', 'host-b_2', clock, events);

    expect(await a.tryAcquireOrRenew()).toBe(true);
    const created = await lease('lease-a');
    expect(created.spec).toMatchObject({
      holderIdentity: 'host-a_1',
      leaseDurationSeconds: 15,
      leaseTransitions: 0,
    });
    expect(created.spec.acquireTime).toMatch(microTimePattern);
    expect(created.spec.renewTime).toBe(created.spec.acquireTime);

    // B sees A's record for the first time now: it waits a full lease duration from here, by its own clock.
    expect(await other.tryAcquireOrRenew()).toBe(false);
    expect(other.leader()).toBe('host-a_1');
    clock.advance(10_000);
    expect(await a.tryAcquireOrRenew()).toBe(true);
    const renewed = await lease('lease-a');
    expect(renewed.spec.acquireTime).toBe(created.spec.acquireTime);
    expect(renewed.spec.renewTime).not.toBe(created.spec.renewTime);
    // A renewed: the record changed, so B's wait starts again.
    clock.advance(10_000);
    expect(await other.tryAcquireOrRenew()).toBe(false);
    clock.advance(14_000);
    expect(await other.tryAcquireOrRenew()).toBe(false);
    clock.advance(2_000);
    expect(await other.tryAcquireOrRenew()).toBe(true);
    const taken = await lease('lease-a');
    expect(taken.spec).toMatchObject({ holderIdentity: 'host-b_2', leaseTransitions: 1 });
    expect(taken.spec.acquireTime).not.toBe(created.spec.acquireTime);
    // A's next renewal finds B holding a fresh lease: A is no longer the leader.
    expect(await a.tryAcquireOrRenew()).toBe(false);
    expect(a.isLeader()).toBe(false);
    expect(events).toEqual([]);
  });

  it('runs: leads, loses the lease when renewals fail past the renew deadline, and campaigns again', async () => {
    const clock = new ManualClock();
    const events: string[] = [];
    const a = elector('lease-run', 'host-a_1', clock, events);
    a.start();
    await eventually(async () => (events.includes('host-a_1 started') ? true : undefined), 'A leads');
    // Another writer takes the lease (as a replica with a skewed view would); A's renewals now fail.
    const current = await lease('lease-run');
    await h.client.update(
      {
        group: h.profile.suffixed('coordination'),
        version: 'v1',
        resource: 'leases',
        namespace: h.profile.systemNamespace,
        name: 'lease-run',
      },
      { ...current, spec: { ...current.spec, holderIdentity: 'intruder' } },
    );
    for (let i = 0; i < 12 && !events.includes('host-a_1 stopped'); i++) {
      clock.advance(2_000);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(events).toEqual(['host-a_1 started', 'host-a_1 stopped']);
    expect(a.isLeader()).toBe(false);
    // The intruder never renews: A takes the lease back once it has not changed for a lease duration.
    for (let i = 0; i < 20 && events.length < 3; i++) {
      clock.advance(2_000);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(events[2]).toBe('host-a_1 started');
    expect((await lease('lease-run')).spec).toMatchObject({
      holderIdentity: 'host-a_1',
      leaseTransitions: 1,
    });
    await a.stop();
    expect(events.at(-1)).toBe('host-a_1 stopped');
  });

  it('releases the lease on stop when asked, so that another replica takes it at once', async () => {
    const clock = new ManualClock();
    const events: string[] = [];
    const a = elector('lease-release', 'host-a_1', clock, events, { releaseOnCancel: true });
    const b = elector('lease-release', 'host-b_2', clock, events);
    a.start();
    await eventually(async () => (a.isLeader() ? true : undefined), 'A leads');
    expect(await b.tryAcquireOrRenew()).toBe(false);
    await a.stop();
    expect((await lease('lease-release')).spec.holderIdentity ?? '').toBe('');
    expect(await b.tryAcquireOrRenew()).toBe(true);
    expect((await lease('lease-release')).spec).toMatchObject({
      holderIdentity: 'host-b_2',
      leaseTransitions: 1,
    });
  });

  it('uses the controller manager lease name by default and refuses inconsistent timings', () => {
    const clock = new ManualClock();
    expect(controllerManagerLeaseName).toBe('kube-controller-manager');
    expect(() => elector('x', 'i', clock, [], { leaseDurationMs: 10_000, renewDeadlineMs: 10_000 })).toThrow(
      'leaseDuration must be greater than renewDeadline',
    );
    expect(() => elector('x', 'i', clock, [], { renewDeadlineMs: 2_000, retryPeriodMs: 2_000 })).toThrow(
      'renewDeadline must be greater than retryPeriod*JitterFactor',
    );
  });
});
