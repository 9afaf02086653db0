/**
 * Controller expectations, as the real controllers keep them: after asking
 * for N creations or deletions, a controller waits until its informer has
 * seen them before it counts pods again — otherwise a cache that lags
 * behind its own writes makes it create or delete twice. Expectations
 * expire after five minutes (a lost watch event must not stall a
 * controller forever), and are dropped with their controller.
 */

const ttlMs = 5 * 60_000;

interface Expectation {
  adds: number;
  dels: number;
  /** The uids whose deletion is awaited, so a delete event is counted once. */
  deleting: Set<string>;
  at: number;
}

export class Expectations {
  private readonly byKey = new Map<string, Expectation>();

  constructor(private readonly now: () => number = () => Date.now()) {}

  /** Whether the controller may sync `key`: nothing pending, or what was pending is too old to wait for. */
  satisfied(key: string): boolean {
    const e = this.byKey.get(key);
    if (e === undefined) return true;
    if (e.adds <= 0 && e.dels <= 0) return true;
    return this.now() - e.at > ttlMs;
  }

  expectCreations(key: string, n: number): void {
    this.set(key, n, []);
  }

  expectDeletions(key: string, uids: string[]): void {
    this.set(key, 0, uids);
  }

  creationObserved(key: string): void {
    const e = this.byKey.get(key);
    if (e !== undefined) e.adds--;
  }

  /** A create that failed will never be observed. */
  creationFailed(key: string): void {
    this.creationObserved(key);
  }

  deletionObserved(key: string, uid: string): void {
    const e = this.byKey.get(key);
    if (e !== undefined && e.deleting.delete(uid)) e.dels--;
  }

  delete(key: string): void {
    this.byKey.delete(key);
  }

  private set(key: string, adds: number, uids: string[]): void {
    this.byKey.set(key, { adds, dels: uids.length, deleting: new Set(uids), at: this.now() });
  }
}
