/**
 * The clients' requests in flight, so that start-up work running beside
 * them (the post-start writes of a fresh store, the controllers' first
 * lists) lets them go first: a page's first requests are answered before
 * the next start-up step takes the thread. A step waits for a moment with
 * no client request in flight, at most `maxWaitMs`, so a client that never
 * pauses cannot hold the start back for long.
 */

export class ForegroundRequests {
  private inFlight = 0;
  private waiters: (() => void)[] = [];

  /** A client request begins; call the returned function once it has its answer. */
  begin(): () => void {
    this.inFlight++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.inFlight--;
      if (this.inFlight === 0) for (const wake of this.waiters.splice(0)) wake();
    };
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
}
