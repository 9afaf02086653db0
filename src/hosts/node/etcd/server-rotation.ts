/**
 * Which of several `--etcd-servers` the next call goes to. Calls go round
 * the servers in turn, as etcd's own Go client (kube-apiserver's) and the
 * etcd3 library spread them; a server a call could not reach rests for a
 * while (etcd3's circuit breaker let a failing member rest 5 s) and is
 * skipped unless every server rests, when the next in turn is tried anyway.
 * Every member answers the same (reads are linearizable), so the choice
 * moves only load and the cost of a member that is down.
 */

export const defaultRestMs = 5000;

export class ServerRotation {
  private next = 0;
  private readonly restUntil: number[];

  constructor(
    private readonly count: number,
    private readonly restMs = defaultRestMs,
    private readonly now: () => number = Date.now,
  ) {
    this.restUntil = new Array<number>(count).fill(0);
  }

  /** The index of the server the next call goes to. */
  pick(): number {
    if (this.count === 1) return 0;
    const now = this.now();
    let chosen = this.next % this.count;
    for (let i = 0; i < this.count; i++) {
      const candidate = (this.next + i) % this.count;
      if ((this.restUntil[candidate] as number) <= now) {
        chosen = candidate;
        break;
      }
    }
    this.next = chosen + 1;
    return chosen;
  }

  /** A call could not reach server `index`. */
  failed(index: number): void {
    this.restUntil[index] = this.now() + this.restMs;
  }

  /** Server `index` answered. */
  answered(index: number): void {
    this.restUntil[index] = 0;
  }
}
