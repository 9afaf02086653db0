/**
 * A work queue for reconcilers: a key queued several times is processed
 * once, never concurrently with itself; failures and "come back later"
 * requeue with a delay that grows per key (reset on success).
 */

export type Reconcile = (key: string) => Promise<{ requeueAfterMs?: number } | void>;

export class WorkQueue {
  private readonly queued = new Set<string>();
  private readonly processing = new Set<string>();
  private readonly dirty = new Set<string>();
  private readonly failures = new Map<string, number>();
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private stopped = false;
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly reconcile: Reconcile) {}

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

  addAfter(key: string, ms: number): void {
    if (this.stopped) return;
    const t = setTimeout(() => {
      this.timers.delete(t);
      this.add(key);
    }, ms);
    this.timers.add(t);
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
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
      const n = (this.failures.get(key) ?? 0) + 1;
      this.failures.set(key, n);
      this.addAfter(key, Math.min(50 * 2 ** n, 10_000));
    } finally {
      this.processing.delete(key);
      if (this.dirty.delete(key)) this.add(key);
      if (this.queued.size === 0 && this.processing.size === 0)
        for (const w of this.idleWaiters.splice(0)) w();
    }
  }
}
