/**
 * One resource's watch-cache window, sized as the real v1.27 watch cache
 * sizes its event buffer: it starts at the revision the cache started at,
 * holds at most `capacity` events (100 at first), doubles its capacity when
 * it is full of events younger than the fresh duration (75 s, up to
 * 100×1024) and halves it when even its newest quarter has aged past that.
 * A watch may start at the revision before the oldest event it still holds
 * (the cache's start, while nothing was evicted); older starts are 410 Gone.
 */

import type { ChangeRecord } from '../../storage/types';

export interface WindowSizing {
  lowerBoundCapacity: number;
  upperBoundCapacity: number;
  eventFreshMs: number;
}

/** The real cache's defaults (`defaultLowerBoundCapacity`, `defaultUpperBoundCapacity`, `eventFreshDuration`). */
export const defaultWindowSizing: WindowSizing = {
  lowerBoundCapacity: 100,
  upperBoundCapacity: 100 * 1024,
  eventFreshMs: 75_000,
};

interface WindowEvent {
  change: ChangeRecord;
  /** When the cache recorded it (the server's clock), for the sizing rule. */
  at: number;
}

export class EventWindow {
  private events: WindowEvent[] = [];
  /** Index of the oldest held event in `events` (evicted ones before it are dropped in batches). */
  private head = 0;
  private evicted = false;
  private cap: number;

  constructor(
    /** The revision the cache started at: it holds every change after it until one is evicted. */
    readonly start: number,
    private readonly sizing: WindowSizing = defaultWindowSizing,
  ) {
    this.cap = sizing.lowerBoundCapacity;
  }

  get capacity(): number {
    return this.cap;
  }

  get size(): number {
    return this.events.length - this.head;
  }

  /** The oldest revision a watch may start from: the start, or the revision before the oldest held event. */
  oldestStart(): number {
    const first = this.events[this.head];
    if (!this.evicted || first === undefined) return this.start;
    return first.change.revision - 1;
  }

  add(change: ChangeRecord, at: number): void {
    if (change.revision <= this.start) return;
    this.resize(at);
    if (this.size >= this.cap) {
      this.head++;
      this.evicted = true;
    }
    this.events.push({ change, at });
    // Drop the evicted prefix now and then, so memory follows the window and not the history.
    if (this.head >= Math.max(this.cap, 64)) {
      this.events = this.events.slice(this.head);
      this.head = 0;
    }
  }

  /** Held changes after `revision`, oldest first; undefined when `revision` is older than the window. */
  since(revision: number): ChangeRecord[] | undefined {
    if (revision < this.oldestStart()) return undefined;
    // Events are in revision order: find the first one after `revision`.
    let lo = this.head;
    let hi = this.events.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.events[mid] as WindowEvent).change.revision > revision) hi = mid;
      else lo = mid + 1;
    }
    return this.events.slice(lo).map((e) => e.change);
  }

  private resize(at: number): void {
    if (this.size < this.cap) return;
    const { lowerBoundCapacity, upperBoundCapacity, eventFreshMs } = this.sizing;
    const oldest = this.events[this.head] as WindowEvent;
    if (at - oldest.at < eventFreshMs) {
      this.cap = Math.min(this.cap * 2, upperBoundCapacity);
      return;
    }
    const quarter = this.events[this.events.length - Math.floor(this.cap / 4)];
    if (quarter !== undefined && at - quarter.at > eventFreshMs) {
      const next = Math.max(Math.floor(this.cap / 2), lowerBoundCapacity);
      if (next < this.cap) {
        // Shrinking keeps the newest events, as the real resize does.
        this.head = this.events.length - next;
        this.evicted = true;
        this.cap = next;
      }
    }
  }
}
