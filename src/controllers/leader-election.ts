/**
 * Lease-based leader election, as client-go's `leaderelection` package runs it for the real controller manager:
 * replicas race to hold one `coordination` Lease; the holder renews it every retry period and leads while a renewal
 * succeeds within the renew deadline; the others take it over once it has not changed for a lease duration (by their
 * own clock, since the record was last seen to change — never by comparing the holder's timestamps with theirs).
 * Every replica serves the API; only the leader runs the controllers.
 */

import type { KubeObject } from '../api/meta';
import type { ApiClient } from '../client/client';
import type { NamingProfile } from '../machinery/naming';
import { isAlreadyExists, isConflict, isNotFound } from './api-errors';

/** The real controller manager's lease name (also the name its bootstrap ClusterRole may get and update). */
export const controllerManagerLeaseName = 'kube-controller-manager';

/** `--leader-elect-lease-duration`, `--leader-elect-renew-deadline`, `--leader-elect-retry-period` defaults. */
export const leaderElectionDefaults = {
  leaseDurationMs: 15_000,
  renewDeadlineMs: 10_000,
  retryPeriodMs: 2_000,
} as const;

/** client-go's JitterFactor for the acquire loop (so that replicas do not retry in step). */
const jitterFactor = 1.2;

/** Time as the elector sees it; tests move it by hand. */
export interface ElectionClock {
  now(): Date;
  /** Resolves after `ms` or as soon as `signal` aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

export const systemClock: ElectionClock = {
  now: () => new Date(),
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      if (signal.aborted) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      }
      signal.addEventListener('abort', done);
    }),
};

export interface LeaderElectionConfig {
  client: ApiClient;
  profile: NamingProfile;
  /** Default the profile's system namespace. */
  namespace?: string;
  /** Default `kube-controller-manager`. */
  name?: string;
  /** This replica's holder identity (the real one is `<hostname>_<uuid>`). */
  identity: string;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  /** Give the lease up when stopped (client-go's ReleaseOnCancel); the real controller manager does not. */
  releaseOnCancel?: boolean;
  clock?: ElectionClock;
  /** Called when this replica becomes the leader. */
  onStartedLeading(): void;
  /** Called when this replica stops leading (lost the lease or stopped), only after onStartedLeading. */
  onStoppedLeading(): void;
  /** Called when the observed holder changes (including to this replica). */
  onNewLeader?(identity: string): void;
  /** Where failed attempts are reported; default console.warn. */
  log?(message: string): void;
}

/** What the Lease's spec holds, as client-go's LeaderElectionRecord. */
interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

type Lease = KubeObject & { spec?: LeaseSpec };

/** A MicroTime: RFC 3339 with microseconds, as the API serializes `metav1.MicroTime`. */
export function microTime(date: Date): string {
  return date.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

export class LeaderElector {
  private readonly leaseDurationMs: number;
  private readonly renewDeadlineMs: number;
  private readonly retryPeriodMs: number;
  private readonly clock: ElectionClock;
  private readonly abort = new AbortController();
  private readonly ref: { group: string; version: string; resource: string; namespace: string };
  private readonly name: string;
  /** The last record seen, its text to notice changes, and when (by this replica's clock) it last changed. */
  private observed: Lease | undefined;
  private observedText = '';
  private observedAt = 0;
  private leading = false;
  private reportedLeader: string | undefined;
  private running: Promise<void> | undefined;

  constructor(private readonly config: LeaderElectionConfig) {
    this.leaseDurationMs = config.leaseDurationMs ?? leaderElectionDefaults.leaseDurationMs;
    this.renewDeadlineMs = config.renewDeadlineMs ?? leaderElectionDefaults.renewDeadlineMs;
    this.retryPeriodMs = config.retryPeriodMs ?? leaderElectionDefaults.retryPeriodMs;
    // client-go refuses these at construction; so does the sandbox (the flags validate them first).
    if (this.leaseDurationMs <= this.renewDeadlineMs)
      throw new Error('leaseDuration must be greater than renewDeadline');
    if (this.renewDeadlineMs <= jitterFactor * this.retryPeriodMs)
      throw new Error('renewDeadline must be greater than retryPeriod*JitterFactor');
    this.clock = config.clock ?? systemClock;
    this.name = config.name ?? controllerManagerLeaseName;
    this.ref = {
      group: config.profile.suffixed('coordination'),
      version: 'v1',
      resource: 'leases',
      namespace: config.namespace ?? config.profile.systemNamespace,
    };
  }

  get identity(): string {
    return this.config.identity;
  }

  /** Whether this replica holds the lease now (as of its last successful acquire or renew). */
  isLeader(): boolean {
    return this.leading;
  }

  /** The holder this replica last saw in the lease. */
  leader(): string | undefined {
    return this.observed?.spec?.holderIdentity || undefined;
  }

  /** Starts campaigning; leads, loses and campaigns again until stop(). */
  start(): void {
    this.running ??= this.run();
  }

  /** Stops campaigning (and leading); releases the lease first when configured to. */
  async stop(): Promise<void> {
    this.abort.abort();
    await this.running;
  }

  private async run(): Promise<void> {
    const signal = this.abort.signal;
    while (!signal.aborted) {
      if (!(await this.acquire())) break;
      this.config.onStartedLeading();
      await this.renew();
      this.leading = false;
      if (signal.aborted && this.config.releaseOnCancel === true) await this.release();
      this.config.onStoppedLeading();
    }
  }

  /** Tries until the lease is this replica's (true) or the elector is stopped (false). */
  private async acquire(): Promise<boolean> {
    const signal = this.abort.signal;
    while (!signal.aborted) {
      if (await this.tryAcquireOrRenew()) return true;
      await this.clock.sleep(this.retryPeriodMs * (1 + Math.random() * jitterFactor), signal);
    }
    return false;
  }

  /** Renews every retry period; returns when a renewal did not succeed within the renew deadline, or on stop. */
  private async renew(): Promise<void> {
    const signal = this.abort.signal;
    while (!signal.aborted) {
      const deadline = this.clock.now().getTime() + this.renewDeadlineMs;
      let renewed = false;
      while (!signal.aborted) {
        if (await this.tryAcquireOrRenew()) {
          renewed = true;
          break;
        }
        if (this.clock.now().getTime() >= deadline) break;
        await this.clock.sleep(this.retryPeriodMs, signal);
      }
      if (!renewed) {
        if (!signal.aborted) this.log(`failed to renew lease ${this.ref.namespace}/${this.name}: timed out`);
        return;
      }
      await this.clock.sleep(this.retryPeriodMs, signal);
    }
  }

  /**
   * One attempt: creates the lease when missing, else takes or renews it when this replica holds it, nobody
   * does, or it has not changed for a lease duration. Exposed for tests that step the algorithm.
   */
  async tryAcquireOrRenew(): Promise<boolean> {
    const now = this.clock.now();
    const fresh: LeaseSpec = {
      holderIdentity: this.identity,
      leaseDurationSeconds: Math.ceil(this.leaseDurationMs / 1000),
      acquireTime: microTime(now),
      renewTime: microTime(now),
      leaseTransitions: 0,
    };
    let current: Lease;
    try {
      current = await this.config.client.get<Lease>({ ...this.ref, name: this.name });
    } catch (e) {
      if (!isNotFound(e)) return this.failed('error retrieving resource lock', e);
      try {
        const created = await this.config.client.create<Lease>(this.ref, {
          apiVersion: `${this.ref.group}/v1`,
          kind: 'Lease',
          metadata: { name: this.name, namespace: this.ref.namespace },
          spec: fresh,
        });
        this.observe(created, now);
        this.leading = true;
        return true;
      } catch (err) {
        // Another replica created it first: not an error, the next attempt reads theirs.
        return isAlreadyExists(err)
          ? false
          : this.failed('error initially creating leader election record', err);
      }
    }
    this.observe(current, now);
    const spec = current.spec ?? {};
    const holder = spec.holderIdentity ?? '';
    if (holder !== '' && holder !== this.identity && this.observedAt + this.leaseDurationMs > now.getTime()) {
      this.leading = false;
      return false;
    }
    const next: LeaseSpec =
      holder === this.identity
        ? {
            ...fresh,
            acquireTime: spec.acquireTime ?? fresh.acquireTime,
            leaseTransitions: spec.leaseTransitions ?? 0,
          }
        : { ...fresh, leaseTransitions: (spec.leaseTransitions ?? 0) + 1 };
    try {
      const updated = await this.config.client.update<Lease>(
        { ...this.ref, name: this.name },
        { ...current, spec: { ...spec, ...next } },
      );
      this.observe(updated, now);
      this.leading = true;
      return true;
    } catch (e) {
      this.leading = false;
      // A conflict means another replica wrote first; the next attempt sees what it wrote.
      return isConflict(e) ? false : this.failed('Failed to update lock', e);
    }
  }

  /** Gives the lease up so that another replica need not wait out the lease duration (ReleaseOnCancel). */
  private async release(): Promise<void> {
    const current = this.observed;
    if (current?.spec?.holderIdentity !== this.identity) return;
    const now = microTime(this.clock.now());
    try {
      await this.config.client.update<Lease>(
        { ...this.ref, name: this.name },
        {
          ...current,
          spec: {
            leaseDurationSeconds: 1,
            acquireTime: now,
            renewTime: now,
            leaseTransitions: current.spec.leaseTransitions ?? 0,
          },
        },
      );
    } catch (e) {
      this.failed('Failed to release lock', e);
    }
  }

  private observe(lease: Lease, at: Date): void {
    // resourceVersion is left out: a renewal changes the record's times, a re-read of the same record does not.
    const text = JSON.stringify(lease.spec ?? {});
    if (text !== this.observedText) {
      this.observedText = text;
      this.observedAt = at.getTime();
    }
    this.observed = lease;
    const holder = lease.spec?.holderIdentity ?? '';
    if (holder !== '' && holder !== this.reportedLeader) {
      this.reportedLeader = holder;
      this.config.onNewLeader?.(holder);
    }
  }

  private failed(what: string, e: unknown): false {
    this.log(`${what}: ${e instanceof Error ? e.message : String(e)}`);
    return false;
  }

  private log(message: string): void {
    (this.config.log ?? ((m: string) => console.warn(m)))(message);
  }
}
