/**
 * The fan-out of commits to open watches: one subscription to the store
 * for all of them, delivering each change to every watch in commit order.
 * A change reaches the first watches at once, inside the commit, as a
 * store listener would; when the fan-out runs long (a thousand watches,
 * each a socket write), it lets other requests run between watches
 * (machinery/cooperative.ts) and goes on in the next turn, so a busy
 * resource does not hold the event loop for every watch of it. Each event
 * is encoded once per content type whatever the number of watches
 * (http/watch/shared-frames.ts).
 *
 * Changes committed while a long fan-out paused are delivered together,
 * each watch getting all of them before the next watch, so that a watch's
 * connection writes them at once (the Node host sends what a turn wrote to
 * a watch in one socket write).
 *
 * A watch that subscribes while changes are being delivered does not get
 * them from here: they were committed before the watch read its start
 * (a list, the watch cache or the history), which holds them.
 *
 * The browser host has commits reach the watches in a later turn instead
 * (`afterAnswer`): the writer's answer goes out first, and the watches'
 * encoding and their in-process clients' decoding no longer delay it, as the
 * real server's watchers learn of a write from etcd's watch, not from the
 * write itself. Order is kept (one queue, delivered in commit order), and a
 * watch subscribed between a commit and its delivery may get the change
 * both from its start and from here: a watch ignores a revision it has seen
 * (registry/generic/watch.ts), so it sends it once.
 */

import { inLaterTurn, nextTurn, sliceSpent } from '../../machinery/cooperative';
import type { ChangeRecord, CommitListener, Storage } from '../../storage/types';

/**
 * Which changes a watch wants: those whose key starts with `prefix` reach its listener; of the others it is
 * only told the revision (`skipped`), which it has then seen (its bookmarks carry the store's progress). A
 * fan-out over every open watch of every resource then costs a prefix test per watch, not a call into each.
 */
export interface WatchInterest {
  prefix: string;
  skipped(revision: number): void;
}

interface HubWatch {
  listener: CommitListener;
  interest: WatchInterest | undefined;
}

export class WatchHub {
  private readonly watches = new Set<HubWatch>();
  private readonly queue: ChangeRecord[] = [];
  private delivering = false;
  private unsubscribe: (() => void) | undefined;

  /**
   * `spent` says when the turn has run long enough to go on in the next one (tests pass their own clock).
   * `afterAnswer`: a commit reaches the watches in a later turn, not inside the commit (see the module note).
   */
  constructor(
    private readonly storage: Storage,
    private readonly spent: () => boolean = sliceSpent,
    private readonly afterAnswer = false,
  ) {}

  /**
   * Adds a watch's listener (given every change, or with `interest` only the changes under its prefix);
   * returns the call that removes it (deliveries stop at once).
   */
  subscribe(listener: CommitListener, interest?: WatchInterest): () => void {
    // An entry of its own, so that the same function subscribed twice means two deliveries and two unsubscribes.
    const entry: HubWatch = { listener, interest };
    this.watches.add(entry);
    this.unsubscribe ??= this.storage.onCommit((change) => this.arrive(change));
    return () => {
      this.watches.delete(entry);
    };
  }

  /** Stops listening to the store (server shutdown). */
  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.watches.clear();
    this.queue.length = 0;
  }

  private arrive(change: ChangeRecord): void {
    this.queue.push(change);
    if (this.delivering) return;
    if (!this.afterAnswer) {
      void this.deliver();
      return;
    }
    // Taken now, so that commits arriving before the later turn join this delivery rather than start another.
    this.delivering = true;
    inLaterTurn(() => {
      this.delivering = false;
      if (this.queue.length > 0) void this.deliver();
    });
  }

  private async deliver(): Promise<void> {
    this.delivering = true;
    try {
      while (this.queue.length > 0) {
        // The changes committed so far reach each watch together, in commit order: a fan-out that fell behind
        // (commits made while it paused) hands a watch all it missed in one turn, which its connection sends
        // as one write, instead of one change per watch per turn.
        const batch = this.queue.splice(0);
        for (const watch of [...this.watches]) {
          const interest = watch.interest;
          let delivered = false;
          for (const change of batch) {
            // Stopped meanwhile (its client went away during an earlier pause, or on an earlier change).
            if (!this.watches.has(watch)) break;
            try {
              if (interest !== undefined && !change.key.startsWith(interest.prefix))
                interest.skipped(change.revision);
              else {
                delivered = true;
                watch.listener(change);
              }
            } catch (error) {
              console.error('watch delivery failed', error);
            }
          }
          // Only a watch that got a change did work worth a look at the clock.
          if (delivered && this.spent()) await nextTurn();
        }
      }
    } finally {
      this.delivering = false;
    }
  }
}
