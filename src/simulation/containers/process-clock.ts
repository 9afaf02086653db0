/**
 * A process's clock. It follows the server's clock, except while a
 * container's past is replayed (a node agent that started again finds a
 * container that has run since `startedAt`): then it starts at that time
 * and jumps over each sleep that is already over, so the program prints
 * what it printed, stamped when it printed it, and catches up with the
 * server's clock where its next wake-up lies in the future. Commands cost
 * simulated CPU time (`tick`), so that a loop without sleeps advances the
 * clock instead of holding the event loop; a replay longer than its budget
 * jumps to the present.
 */

import type { Clock } from '../../machinery/clock';

/** Each command costs this much simulated CPU time, charged in batches. */
const commandCostMs = 0.1;
const batch = 1000;
/** Commands a replay may run before it jumps to the present. */
const replayBudget = 200_000;

export class ProcessClock {
  private t: number;
  private commands = 0;
  private replayed = 0;
  /** Caught up with the server's clock (a new process is at once; a replayed one once a sleep really waits). */
  private live: boolean;
  /**
   * CPU time: a live process is on the CPU from a batch of commands until it sleeps (or ends), measured
   * on the server's clock — so a loop without sleeps uses a whole core however fast the commands are
   * interpreted, and also across a move of the clock; a process waiting (a sleep, a server for requests)
   * uses none.
   */
  private cpu = 0;
  private busySince: number | undefined;

  constructor(
    private readonly server: Clock,
    startedAt: number,
    /** Rejects a sleep when the process is killed; returns an unsubscribe function. */
    private readonly onKill: (reject: (e: unknown) => void) => () => void,
  ) {
    const now = server.now().getTime();
    this.t = Math.min(startedAt, now);
    this.live = this.t >= now;
  }

  now(): number {
    return this.t;
  }

  /** Whether the process is still catching up with the server's clock. */
  get replaying(): boolean {
    return !this.live && this.t < this.server.now().getTime();
  }

  /** The CPU time used so far. */
  get cpuMs(): number {
    return this.cpu + (this.busySince !== undefined ? this.server.now().getTime() - this.busySince : 0);
  }

  /** The process ended: it uses no more CPU. */
  end(): void {
    this.offCpu();
  }

  private offCpu(): void {
    if (this.busySince === undefined) return;
    this.cpu += this.server.now().getTime() - this.busySince;
    this.busySince = undefined;
  }

  /** A program's sleep: off the CPU until it wakes. */
  async sleep(ms: number): Promise<void> {
    this.offCpu();
    return this.wait(ms);
  }

  private async wait(ms: number): Promise<void> {
    const target = this.t + ms;
    const real = this.server.now().getTime();
    if (target <= real) {
      this.t = target;
      // Replaying: let the server's other work run now and then; a live process that fell behind, at once.
      if (this.live || ++this.replayed % batch === 0) await new Promise((resolve) => setTimeout(resolve, 0));
      return;
    }
    this.live = true;
    await new Promise<void>((resolve, reject) => {
      let cancelTimer: () => void = () => undefined;
      const stopListening = this.onKill((e) => {
        cancelTimer();
        reject(e);
      });
      cancelTimer = Number.isFinite(target)
        ? this.server.setTimer(target - real, () => {
            stopListening();
            resolve();
          })
        : () => undefined;
    });
    this.t = target;
  }

  async tick(): Promise<void> {
    if (++this.commands % batch !== 0) return;
    if (this.replaying && this.commands > replayBudget) {
      this.t = this.server.now().getTime();
      return;
    }
    if (this.live) {
      // A live process's batch waits its cost in real time, however long the commands took to interpret:
      // a loop without sleeps on a busy machine would otherwise fall behind the clock, count as a replay
      // and hold the event loop (the server stopped answering).
      const now = this.server.now().getTime();
      this.t = Math.max(this.t, now);
      this.busySince ??= now;
    }
    await this.wait(batch * commandCostMs);
  }
}
