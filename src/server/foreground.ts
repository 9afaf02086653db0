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
    if (this.inFlight === 0 && this.waiters.length > 0) for (const wake of this.waiters.splice(0)) wake();
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
   * once per burst of writes, decision 0111). It looks at the requests only from a timer, at most one armed at a
   * time, `windowMs` apart while they go on: no timer armed or cleared per request, as `settled`'s `quiet` does.
   */
  afterPause(windowMs: number, maxWaitMs: number, run: () => void): void {
    const deadline = Date.now() + maxWaitMs;
    const look = (): void => {
      const now = Date.now();
      const pausedFor = this.inFlight > 0 ? 0 : now - this.lastChange;
      if (pausedFor >= windowMs || now >= deadline) {
        run();
        return;
      }
      setTimeout(look, Math.min(windowMs - pausedFor, deadline - now));
    };
    look();
  }
}
