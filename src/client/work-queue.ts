/**
 * A work queue for reconcilers: a key queued several times is processed
 * once, never concurrently with itself; failures and "come back later"
 * requeue with a delay. As client-go's delaying queue, a key waits on at
 * most one timer, the earliest asked for; as its default controller rate
 * limiter, a failing key backs off per key, doubling from 5 ms to 1000 s
 * (reset on success), so a permanent error does not spin. Given the
 * server's clock, delays are measured on it, so a learner moving the clock
 * forward brings a waiting key (a schedule, a deadline, a back-off) due.
 */

import type { Clock } from '../machinery/clock';

export type Reconcile = (key: string) => Promise<{ requeueAfterMs?: number } | void>;

export interface WorkQueueOptions {
  /** The first failure's delay; default 5 ms. */
  baseDelayMs?: number;
  /** The longest a failing key waits; default 1000 s. */
  maxDelayMs?: number;
  /** The clock delays are measured on (default real time). */
  clock?: Clock;
}

export class WorkQueue {
  private readonly queued = new Set<string>();
  private readonly processing = new Set<string>();
  private readonly dirty = new Set<string>();
  private readonly failures = new Map<string, number>();
  private readonly waiting = new Map<string, { at: number; cancel: () => void }>();
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly clock: Clock | undefined;
  private stopped = false;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly reconcile: Reconcile,
    options: WorkQueueOptions = {},
  ) {
    this.baseDelayMs = options.baseDelayMs ?? 5;
    this.maxDelayMs = options.maxDelayMs ?? 1_000_000;
    this.clock = options.clock;
  }

  add(key: string): void {
    if (this.stopped) return;
    if (this.processing.has(key)) {
      this.dirty.add(key);
      return;
    }
    if (this.queued.has(key)) return;
    this.queued.add(key);
    queueMicrotask(() => void this.process(key));
  }

  /** Queues `key` after `ms`, or sooner if it already waits for an earlier time. */
  addAfter(key: string, ms: number): void {
    if (this.stopped) return;
    if (ms <= 0) return this.add(key);
    const at = this.now() + ms;
    const pending = this.waiting.get(key);
    if (pending !== undefined) {
      if (pending.at <= at) return;
      pending.cancel();
    }
    const fire = (): void => {
      this.waiting.delete(key);
      this.add(key);
    };
    let cancel: () => void;
    if (this.clock !== undefined) cancel = this.clock.setTimer(ms, fire);
    else {
      const timer = setTimeout(fire, ms);
      cancel = () => clearTimeout(timer);
    }
    this.waiting.set(key, { at, cancel });
  }

  /** How many times `key` has failed in a row (reset by a success), for controllers that give up after a few. */
  failuresOf(key: string): number {
    return this.failures.get(key) ?? 0;
  }

  private now(): number {
    return this.clock !== undefined ? this.clock.now().getTime() : Date.now();
  }

  stop(): void {
    this.stopped = true;
    for (const { cancel } of this.waiting.values()) cancel();
    this.waiting.clear();
  }

  /** Resolves when nothing is queued or being processed (for tests and shutdown). */
  idle(): Promise<void> {
    if (this.queued.size === 0 && this.processing.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private async process(key: string): Promise<void> {
    this.queued.delete(key);
    if (this.stopped) return;
    this.processing.add(key);
    try {
      const result = await this.reconcile(key);
      this.failures.delete(key);
      if (result?.requeueAfterMs !== undefined) this.addAfter(key, result.requeueAfterMs);
    } catch {
      const n = this.failures.get(key) ?? 0;
      this.failures.set(key, n + 1);
      this.addAfter(key, Math.min(this.baseDelayMs * 2 ** n, this.maxDelayMs));
    } finally {
      this.processing.delete(key);
      if (this.dirty.delete(key)) this.add(key);
      if (this.queued.size === 0 && this.processing.size === 0)
        for (const w of this.idleWaiters.splice(0)) w();
    }
  }
}
