/**
 * The clients' requests in flight, so that start-up work running beside
 * them (the post-start writes of a fresh store, the controllers' first
 * lists) lets them go first: a page's first requests are answered before
 * the next start-up step takes the thread. A step waits for a moment with
 * no client request in flight, at most `maxWaitMs`, so a client that never
 * pauses cannot hold the start back for long. `settled` waits for a longer
 * pause: a page's first screen asks in rounds (identities, then discovery
 * and lists) with short gaps between them, and the browser host holds its
 * post-start writes until the rounds are over.
 */

import { afterAnswer } from '../machinery/after-answer';

export class ForegroundRequests {
  private inFlight = 0;
  private waiters: (() => void)[] = [];
  /** When a request last began or ended (ms, `Date.now()`). */
  private lastChange = Date.now();

  /** A client request begins; call the returned function once it has its answer. */
  begin(): () => void {
    this.enter();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.leave();
    };
  }

  /** `begin` for a caller that ends the request exactly once itself (`leave`): no function per request. */
  enter(): void {
    this.inFlight++;
    this.lastChange = Date.now();
  }

  /** Ends a request `enter` began. */
  leave(): void {
    this.inFlight--;
    this.lastChange = Date.now();
    if (this.inFlight > 0) return;
    if (this.waiters.length > 0) for (const wake of this.waiters.splice(0)) wake();
    // The pause's look is armed once this answer has been handed over, off the request's path.
    if (this.pauseWaiters.length > 0 && !this.pauseLookArmed) afterAnswer(this.armPauseLookLater);
  }

  /** Resolves once no client request is in flight, or after `maxWaitMs`. */
  quiet(maxWaitMs = 100): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, maxWaitMs);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.waiters.push(done);
    });
  }

  /**
   * Resolves once no client request has been in flight for `windowMs` in a row, or after `maxWaitMs`: the
   * end of a burst of requests (a page's first screen), not only a gap between two of them.
   */
  async settled(windowMs: number, maxWaitMs: number): Promise<void> {
    const deadline = Date.now() + maxWaitMs;
    for (;;) {
      const now = Date.now();
      if (now >= deadline) return;
      if (this.inFlight > 0) {
        await this.quiet(deadline - now);
        continue;
      }
      const pausedFor = now - this.lastChange;
      if (pausedFor >= windowMs) return;
      await new Promise((resolve) => setTimeout(resolve, Math.min(windowMs - pausedFor, deadline - now)));
    }
  }

  /**
   * Runs `run` once no client request has been in flight for `windowMs` in a row, or after `maxWaitMs`:
   * `settled` for a caller that needs no promise and asks for it all the time (the in-process watches' fan-out,
   * once per burst of writes, decision 0111). No timer is armed while requests are in flight, nor on a request's
   * path: once the last one in flight has been answered, one look is armed a window ahead (after the answer,
   * `afterAnswer`), so a stream of requests costs at most one timer per gap between them, none while they
   * overlap; the bound is one timer at a time for all waiting runs (decision 0118).
   */
  afterPause(windowMs: number, maxWaitMs: number, run: () => void): void {
    const waiter: PauseWaiter = { windowMs, deadline: Date.now() + maxWaitMs, run };
    if (this.inFlight === 0 && Date.now() - this.lastChange >= windowMs) {
      run();
      return;
    }
    this.pauseWaiters.push(waiter);
    this.armBound(waiter.deadline);
    if (this.inFlight === 0) this.armPauseLook();
  }

  /** The runs `afterPause` holds, in the order they came. */
  private pauseWaiters: PauseWaiter[] = [];
  private readonly armPauseLookLater = (): void => this.armPauseLook();
  /** A look at the end of the current pause's window is armed. */
  private pauseLookArmed = false;
  /** When the earliest look armed for a waiting run's bound fires (ms, `Date.now()`; Infinity: none armed). */
  private boundAt = Infinity;

  /** Arms a look at `deadline` unless one is armed no later. */
  private armBound(deadline: number): void {
    if (this.boundAt <= deadline) return;
    this.boundAt = deadline;
    setTimeout(
      () => {
        if (this.boundAt === deadline) this.boundAt = Infinity;
        this.lookPauses();
        let next = Infinity;
        for (const waiter of this.pauseWaiters) next = Math.min(next, waiter.deadline);
        if (next < Infinity) this.armBound(next);
      },
      Math.max(0, deadline - Date.now()),
    );
  }

  /** Arms one look for when the current pause will have lasted the shortest waiting window, unless one is armed. */
  private armPauseLook(): void {
    if (this.pauseLookArmed || this.pauseWaiters.length === 0 || this.inFlight > 0) return;
    this.pauseLookArmed = true;
    let windowMs = Infinity;
    for (const waiter of this.pauseWaiters) windowMs = Math.min(windowMs, waiter.windowMs);
    setTimeout(
      () => {
        this.pauseLookArmed = false;
        this.lookPauses();
        // Idle, but not for long enough (a request came and went meanwhile): look again at its window's end.
        // A request in flight arms the next look itself once it has been answered.
        this.armPauseLook();
      },
      Math.max(0, windowMs - (Date.now() - this.lastChange)),
    );
  }

  /** Runs the waiting runs whose pause or bound has come, in the order they came. */
  private lookPauses(): void {
    const now = Date.now();
    const pausedFor = this.inFlight > 0 ? 0 : now - this.lastChange;
    const due = (waiter: PauseWaiter): boolean => pausedFor >= waiter.windowMs || now >= waiter.deadline;
    if (!this.pauseWaiters.some(due)) return;
    const ready = this.pauseWaiters.filter(due);
    this.pauseWaiters = this.pauseWaiters.filter((waiter) => !due(waiter));
    for (const waiter of ready) waiter.run();
  }
}

/** A run `afterPause` holds: its window, its bound (ms, `Date.now()`) and itself. */
interface PauseWaiter {
  windowMs: number;
  deadline: number;
  run: () => void;
}
