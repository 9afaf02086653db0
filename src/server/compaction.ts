/**
 * Compaction of the change history on a schedule, the way the real server
 * compacts etcd: every interval it compacts to the revision it recorded one
 * interval earlier, so at least one interval of history stays readable
 * (watches and Exact lists older than that answer 410 Gone). The interval
 * is a setting (default 5 minutes) so a workshop can shorten it and show a
 * 410 within seconds.
 */

import type { Storage } from '../storage/types';

export const defaultCompactionIntervalMs = 5 * 60 * 1000;

export class Compactor {
  private timer: ReturnType<typeof setInterval> | undefined;
  private recorded: number | undefined;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly storage: Storage,
    private intervalMs: number,
  ) {}

  get interval(): number {
    return this.intervalMs;
  }

  start(): void {
    this.stop();
    this.recorded = undefined;
    // An interval of 0 turns scheduled compaction off, as `--etcd-compaction-interval=0` does on the real server.
    if (this.intervalMs <= 0) return;
    this.timer = setInterval(() => void this.tick(), this.intervalMs);
  }

  setInterval(ms: number): void {
    this.intervalMs = ms;
    if (this.timer !== undefined) this.start();
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Compacts everything up to the current revision now (history before it becomes unreadable). */
  async compactNow(): Promise<number> {
    await this.running;
    const current = await this.storage.currentRevision();
    this.running = this.storage.compact(current);
    await this.running;
    this.recorded = current;
    return current;
  }

  private async tick(): Promise<void> {
    const previous = this.recorded;
    this.recorded = await this.storage.currentRevision();
    if (previous !== undefined && previous > (await this.storage.compactedRevision())) {
      this.running = this.storage.compact(previous).catch(() => undefined);
      await this.running;
    }
  }
}
