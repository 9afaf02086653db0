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
 *
 * There, too, the in-process components' watches (the controllers'
 * informers, the simulated cluster: `WatchInterest.behindClients`) get their
 * changes once the clients' requests pause, as their lists wait (0106): a
 * sequential writer's stream of creates is answered without a fan-out task
 * after each answer competing with its hand-over, and the changes of a burst
 * reach an informer together, at most ~100 ms late. They have a lane of their
 * own (its queue, its delivery, its progress), so that the clients' watches
 * are not held with them; each watch still gets every change in commit
 * order, and `deliveredThrough` is the slower lane's progress.
 */

import { inLaterTurn, nextTurn, sliceSpent } from '../../machinery/cooperative';
import type { ChangeRecord, CommitListener, Storage } from '../../storage/types';

/**
 * Which changes a watch wants: those whose key starts with `prefix` (a path ending in `/`: a resource's, or a
 * namespace's within it). The hub keeps such watches by prefix and hands a change only to the watches of the
 * prefixes its key has, so that a fan-out over every open watch of every resource (a hundred informers) costs a
 * few map lookups per change, not a call into each watch. What the others have seen is `deliveredThrough`.
 */
export interface WatchInterest {
  prefix: string;
  /**
   * The watcher is an in-process component (a controller's informer, the simulated cluster), whose events may
   * wait for a pause in the clients' requests when the hub was given a way to wait for one (`behindClients`).
   */
  behindClients?: boolean;
}

interface HubWatch {
  listener: CommitListener;
  interest: WatchInterest | undefined;
  /** Subscription order: the watches of one change are served in it. */
  order: number;
}

/** How long a fan-out runs before it looks at its turn's slice (ms): a bounded overrun of the slice. */
const quietMs = 1;

/**
 * Watches that get their changes at the same moment, and the changes on their way to them: the hub's lane,
 * and the lane of the watches that wait behind the clients' requests.
 */
class Lane {
  readonly watches = new Set<HubWatch>();
  /** The watches with an interest, by prefix; the others get every change. */
  readonly byPrefix = new Map<string, Set<HubWatch>>();
  readonly everything = new Set<HubWatch>();
  readonly queue: ChangeRecord[] = [];
  /** A delivery is under way or scheduled: changes arriving meanwhile join it. */
  delivering = false;
  /** The revision of the last change handed to every watch of this lane that wanted it. */
  delivered = 0;

  constructor(
    /** Runs a delivery: at once, in a later turn, or after a pause in the clients' requests. */
    private readonly schedule: ((run: () => void) => void) | undefined,
    private readonly due: (began: number) => boolean,
  ) {}

  groupOf(prefix: string): Set<HubWatch> {
    let group = this.byPrefix.get(prefix);
    if (group === undefined) {
      group = new Set();
      this.byPrefix.set(prefix, group);
    }
    return group;
  }

  clear(): void {
    this.watches.clear();
    this.byPrefix.clear();
    this.everything.clear();
    this.queue.length = 0;
  }

  arrive(change: ChangeRecord): void {
    if (!this.delivering && this.watches.size === 0) {
      // No watch to hand it to: nothing to schedule (a lane with no watches costs a commit nothing).
      this.delivered = Math.max(this.delivered, change.revision);
      return;
    }
    this.queue.push(change);
    if (this.delivering) return;
    if (this.schedule === undefined) {
      void this.deliver();
      return;
    }
    // Taken now, so that commits arriving before the scheduled delivery join it rather than start another.
    this.delivering = true;
    this.schedule(() => {
      this.delivering = false;
      if (this.queue.length > 0) void this.deliver();
    });
  }

  /** The watches that want some change of `batch`, in subscription order. */
  private targetsOf(batch: readonly ChangeRecord[]): HubWatch[] {
    if (this.byPrefix.size === 0) return [...this.everything];
    const found = new Set<HubWatch>(this.everything);
    for (const change of batch) {
      const key = change.key;
      // Every prefix the key has that ends at a `/`: `/`, `/core/`, `/core/configmaps/`, `/core/configmaps/ns/`.
      for (let slash = key.indexOf('/'); slash >= 0; slash = key.indexOf('/', slash + 1)) {
        const group = this.byPrefix.get(key.slice(0, slash + 1));
        if (group !== undefined) for (const watch of group) found.add(watch);
      }
    }
    const targets = [...found];
    if (targets.length > 1) targets.sort((a, b) => a.order - b.order);
    return targets;
  }

  private async deliver(): Promise<void> {
    this.delivering = true;
    let began = performance.now();
    try {
      while (this.queue.length > 0) {
        // The changes committed so far reach each watch together, in commit order: a fan-out that fell behind
        // (commits made while it paused) hands a watch all it missed in one turn, which its connection sends
        // as one write, instead of one change per watch per turn.
        const batch = this.queue.splice(0);
        for (const watch of this.targetsOf(batch)) {
          const prefix = watch.interest?.prefix;
          let delivered = false;
          for (const change of batch) {
            // Stopped meanwhile (its client went away during an earlier pause, or on an earlier change).
            if (!this.watches.has(watch)) break;
            if (prefix !== undefined && !change.key.startsWith(prefix)) continue;
            delivered = true;
            try {
              watch.listener(change);
            } catch (error) {
              console.error('watch delivery failed', error);
            }
          }
          // Only a watch that got a change did work worth a look at the clock.
          if (delivered && this.due(began)) {
            await nextTurn();
            began = performance.now();
          }
        }
        this.delivered = Math.max(this.delivered, batch[batch.length - 1]?.revision ?? 0);
      }
    } finally {
      this.delivering = false;
    }
  }
}

export class WatchHub {
  private readonly lanes: Lane[];
  /** The watches of in-process components, when they wait behind the clients' requests; else the first lane. */
  private readonly behind: Lane;
  private subscribed = 0;
  private unsubscribe: (() => void) | undefined;

  /**
   * `spent` says when the turn has run long enough to go on in the next one (tests pass their own clock); by
   * default the turn's slice, looked at once a fan-out has run `quietMs`: looking marks the turn (a clock read, and
   * a timer to end the mark), which a short fan-out (a create's change to its few in-process watchers) paid after
   * every watch for nothing.
   * `afterAnswer`: a commit reaches the watches in a later turn, not inside the commit (see the module note).
   * `behindClients`: runs its argument once the clients' requests pause (bounded); given, the watches of
   * in-process components (`WatchInterest.behindClients`) get their changes then (see the module note).
   */
  constructor(
    private readonly storage: Storage,
    private readonly spent?: () => boolean,
    afterAnswer = false,
    behindClients?: (run: () => void) => void,
  ) {
    const due = (began: number): boolean => this.due(began);
    const first = new Lane(afterAnswer ? inLaterTurn : undefined, due);
    this.behind = behindClients !== undefined ? new Lane(behindClients, due) : first;
    this.lanes = this.behind === first ? [first] : [first, this.behind];
  }

  /**
   * The revision of the last change handed to every watch that wanted it: a watch subscribed before it has seen
   * every change up to it, whether or not its own prefix had any (its bookmarks carry the store's progress).
   */
  get deliveredThrough(): number {
    let through = Infinity;
    for (const lane of this.lanes) through = Math.min(through, lane.delivered);
    return through;
  }

  /**
   * Adds a watch's listener (given every change, or with `interest` only the changes under its prefix);
   * returns the call that removes it (deliveries stop at once).
   */
  subscribe(listener: CommitListener, interest?: WatchInterest): () => void {
    // An entry of its own, so that the same function subscribed twice means two deliveries and two unsubscribes.
    const entry: HubWatch = { listener, interest, order: this.subscribed++ };
    const lane = interest?.behindClients === true ? this.behind : (this.lanes[0] as Lane);
    lane.watches.add(entry);
    // A prefix that does not end at a `/` cannot be found from a key's: such a watch is offered every change.
    const indexed = interest !== undefined && interest.prefix.endsWith('/');
    const group = indexed ? lane.groupOf(interest.prefix) : lane.everything;
    group.add(entry);
    this.unsubscribe ??= this.storage.onCommit((change) => {
      for (const each of this.lanes) each.arrive(change);
    });
    return () => {
      lane.watches.delete(entry);
      group.delete(entry);
      if (indexed && group.size === 0) lane.byPrefix.delete(interest.prefix);
    };
  }

  /** Stops listening to the store (server shutdown). */
  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    for (const lane of this.lanes) lane.clear();
  }

  /** Whether the fan-out that began at `began` (its turn's or its last pause's end) should go on in a later turn. */
  private due(began: number): boolean {
    if (this.spent !== undefined) return this.spent();
    return performance.now() - began >= quietMs && sliceSpent();
  }
}
