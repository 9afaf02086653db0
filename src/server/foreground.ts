/**
 * The clients' requests in flight, so that start-up work running beside
 * them (the post-start writes of a fresh store, the controllers' first
 * lists) lets them go first: a page's first requests are answered before
 * the next start-up step takes the thread. A step waits for a moment with
 * no client request in flight, at most `maxWaitMs`, so a client that never
 * pauses cannot hold the start back for long. `settled` waits for a longer
 * pause: a page's first screen asks in rounds (identities, then discovery
 * and lists) with short gaps between them, and the browser host holds its
 * post-start writes until the rounds are over. `pageComing` says a page is
 * loading before it has asked anything (a reload: the navigation itself is
 * a pause in the requests), so that what waits for a pause waits for the
 * page's first rounds instead of taking the thread in front of them.
 */

import { afterAnswer } from '../machinery/after-answer';

export class ForegroundRequests {
  private inFlight = 0;
  private waiters: (() => void)[] = [];
  /** When a request last began or ended (ms, `Date.now()`). */
  private lastChange = Date.now();
  /** Requests begun so far: a page announced by `pageComing` has asked once this moves. */
  private arrivals = 0;
  /** A page announced by `pageComing` whose first rounds are not over: resolved when they are, or at its bound. */
  private page: { done: Promise<void>; until: number; arrivals: number } | undefined;

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
    this.arrivals++;
    this.lastChange = Date.now();
  }

  /** Ends a request `enter` began. */
  leave(): void {
    this.inFlight--;
    this.lastChange = Date.now();
    if (this.inFlight > 0) return;
    if (this.waiters.length > 0) for (const wake of this.waiters.splice(0)) wake();
    // The pause's look is armed once this answer has been handed over, off the request's path.
    if (this.paused.length > 0 && !this.looking) afterAnswer(this.lookLater);
  }

  /** Resolves once no client request is in flight, or after `maxWaitMs`. */
  quiet(maxWaitMs = 100): Promise<void> {
    if (this.page !== undefined) return this.page.done.then(() => this.quiet(maxWaitMs));
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
      // A page on its way counts as a request in flight, for as long as its own bound allows.
      if (this.page !== undefined) {
        await this.page.done;
        continue;
      }
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
   * `afterAnswer`), so a stream of requests costs at most one timer per gap between them and none while they
   * overlap, and the bound is one timer at a time (decision 0118). Runs waiting together run together: after
   * the shortest window asked for, or at the earliest bound.
   */
  afterPause(windowMs: number, maxWaitMs: number, run: () => void): void {
    if (this.page === undefined && this.inFlight === 0 && Date.now() - this.lastChange >= windowMs)
      return run();
    this.paused.push(run);
    this.pauseMs = Math.min(this.pauseMs, windowMs);
    this.pauseBound = Math.min(this.pauseBound, Date.now() + maxWaitMs);
    this.armBound();
    this.lookLater();
  }

  /** The runs `afterPause` holds, in the order they came. */
  private paused: (() => void)[] = [];
  /** The pause they wait for (ms): the shortest window asked for. */
  private pauseMs = Infinity;
  /** When they run anyway (ms, `Date.now()`): the earliest bound asked for. */
  private pauseBound = Infinity;
  /** When the look armed for a bound fires (Infinity: none armed). */
  private boundArmedAt = Infinity;
  /** A look at the end of the current pause's window is armed. */
  private looking = false;

  /** Runs the held runs if their pause or their bound has come. */
  private look(): void {
    // A page on its way holds them past their bound: its end looks again (`pageComing`).
    if (this.page !== undefined) return;
    const now = Date.now();
    if (now < this.pauseBound && (this.inFlight > 0 || now - this.lastChange < this.pauseMs)) return;
    const runs = this.paused;
    this.paused = [];
    this.pauseMs = this.pauseBound = Infinity;
    for (const run of runs) run();
  }

  /** Arms a look at the held runs' bound unless one is armed no later. */
  private armBound(): void {
    const at = this.pauseBound;
    if (this.boundArmedAt <= at) return;
    this.boundArmedAt = at;
    setTimeout(() => {
      if (this.boundArmedAt === at) this.boundArmedAt = Infinity;
      this.look();
      if (this.paused.length > 0 && this.page === undefined) this.armBound();
    }, at - Date.now());
  }

  /** Arms one look for the end of the current pause's window, unless one is armed or a request is in flight. */
  private readonly lookLater = (): void => {
    if (this.looking || this.inFlight > 0 || this.paused.length === 0 || this.page !== undefined) return;
    this.looking = true;
    setTimeout(
      () => {
        this.looking = false;
        this.look();
        // Idle, but not for the whole window (a request came and went): look again at its end. A request in
        // flight arms the next look itself once it has been answered.
        this.lookLater();
      },
      this.lastChange + this.pauseMs - Date.now(),
    );
  };

  /** While a page announced by `pageComing` is on its way: resolved when its first rounds are over. */
  pageLoading(): Promise<void> | undefined {
    return this.page?.done;
  }

  /**
   * A page is loading and its first requests are coming (the browser host: a page of this scope going away,
   * most often a reload). Until that page's first rounds are over — it has asked, and then no request has been
   * in flight for `windowMs` — or `maxWaitMs` has passed, whatever waits for a pause (`quiet`, `settled`,
   * `afterPause`) waits as if a request were in flight, however long its own bound: the moment between a
   * navigation and the new page's first request is a pause in the requests, not an idle server. A page that
   * never asks holds them for `maxWaitMs` at most; a second announcement starts the bound again.
   */
  pageComing(windowMs: number, maxWaitMs: number): void {
    const until = Date.now() + maxWaitMs;
    if (this.page !== undefined) {
      this.page.until = until;
      this.page.arrivals = this.arrivals;
      return;
    }
    let over: () => void = () => undefined;
    const page = { done: new Promise<void>((resolve) => (over = resolve)), until, arrivals: this.arrivals };
    this.page = page;
    const look = (): void => {
      const now = Date.now();
      const asked = this.arrivals !== page.arrivals;
      const pausedFor = !asked || this.inFlight > 0 ? 0 : now - this.lastChange;
      if (pausedFor < windowMs && now < page.until) {
        setTimeout(look, Math.min(windowMs - pausedFor, page.until - now));
        return;
      }
      this.page = undefined;
      over();
      // The runs `afterPause` held: their bound may have passed meanwhile; else their usual looks.
      this.look();
      if (this.paused.length > 0) {
        this.armBound();
        this.lookLater();
      }
    };
    setTimeout(look, Math.min(windowMs, maxWaitMs));
  }
}
