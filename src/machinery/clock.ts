/**
 * The server's clock: the time every timestamp, expiry and schedule reads,
 * and the timers that wait for it. A learner may move it forward
 * (`advance`), so a CronJob's next run, a token's expiry or a container's
 * back-off arrive without waiting; a timer fires when real time or an
 * advance brings the clock to its deadline, whichever comes first. The
 * clock never goes back: what was written at a time stays in the past.
 */

export interface Clock {
  now(): Date;
  /** Calls `fn` once the clock reads `ms` later than now; the returned function cancels it. */
  setTimer(ms: number, fn: () => void): () => void;
}

interface Timer {
  deadline: number;
  fn: () => void;
  handle: ReturnType<typeof setTimeout> | undefined;
}

export class SandboxClock implements Clock {
  private offset = 0;
  private readonly timers = new Set<Timer>();
  private readonly listeners = new Set<(offsetMs: number) => void>();

  /** The wall clock the offset is added to, in milliseconds. */
  private readonly baseMs: () => number;

  /** `base` is the wall clock the offset is added to (a test's fixed clock); without it, the system's. */
  constructor(base?: () => Date) {
    // The system's clock read as a number: one Date per `now()` rather than two (every request reads it three times).
    this.baseMs = base === undefined ? Date.now : () => base().getTime();
  }

  now(): Date {
    return new Date(this.baseMs() + this.offset);
  }

  /** `now()` in milliseconds, without a `Date` (a reader that compares times: the token cache, every request). */
  nowMs(): number {
    return this.baseMs() + this.offset;
  }

  /** How far the clock is ahead of its base, in milliseconds. */
  get offsetMs(): number {
    return this.offset;
  }

  setTimer(ms: number, fn: () => void): () => void {
    const timer: Timer = { deadline: this.now().getTime() + Math.max(0, ms), fn, handle: undefined };
    this.timers.add(timer);
    this.arm(timer);
    return () => {
      if (timer.handle !== undefined) clearTimeout(timer.handle);
      this.timers.delete(timer);
    };
  }

  /** Moves the clock forward by `ms` (≥ 0) and fires, in deadline order, every timer it passes. */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('the clock only moves forward');
    this.offset += ms;
    const now = this.now().getTime();
    const due = [...this.timers].filter((t) => t.deadline <= now).sort((a, b) => a.deadline - b.deadline);
    for (const t of due) this.fire(t);
    // The rest wait for less real time now.
    for (const t of this.timers) this.arm(t);
    for (const l of this.listeners) l(this.offset);
  }

  /** Told the new offset after every advance (the UI shows it; simulations reschedule). */
  onAdvance(listener: (offsetMs: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private arm(t: Timer): void {
    if (t.handle !== undefined) clearTimeout(t.handle);
    const wait = Math.max(0, t.deadline - this.now().getTime());
    // setTimeout's delay is a 32-bit signed integer; a longer wait re-arms at the limit.
    const capped = Math.min(wait, 2_147_483_647);
    t.handle = setTimeout(() => {
      if (this.now().getTime() >= t.deadline) this.fire(t);
      else this.arm(t);
    }, capped);
  }

  private fire(t: Timer): void {
    if (!this.timers.delete(t)) return;
    if (t.handle !== undefined) clearTimeout(t.handle);
    t.fn();
  }
}
