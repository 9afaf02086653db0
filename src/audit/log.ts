/**
 * Where audit events go: sinks the host attaches (the Node host's log
 * file) and the in-memory log behind the sandbox's live audit view, which
 * keeps the newest events and tells subscribers about each new one. The
 * log keeps what an event is made from, and makes the event only when it is
 * read (listed, or told to a subscriber): most requests' events are never
 * read, and building them was a measurable part of every request (0093).
 */

import type { AuditEvent } from '../api/audit';
import { afterAnswer, flushAfterAnswer } from '../machinery/after-answer';

export interface AuditSink {
  write(event: AuditEvent): void;
}

/** How many events past its capacity the log holds before it trims (see `keep`). */
const trimSlack = 256;

/** An event as kept: made, or the function that makes it (which returns the same event each time it is called). */
type Kept = AuditEvent | (() => AuditEvent);

export class AuditLog implements AuditSink {
  private events: Kept[] = [];
  private readonly listeners = new Set<(event: AuditEvent) => void>();

  constructor(private readonly capacity = 1000) {}

  write(event: AuditEvent): void {
    this.keep(event);
    this.tell(event);
  }

  /**
   * An event taken now (its place in the log is now) and made when read: `make` must return the same event
   * every time, built from values already taken. Live subscribers are told after the answer, in order.
   */
  defer(make: () => AuditEvent): void {
    this.keep(make);
    if (this.listeners.size > 0) afterAnswer(() => this.tell(make()));
  }

  private keep(kept: Kept): void {
    this.events.push(kept);
    // Trimmed to the newest `capacity` once a few hundred more have come, not on every write (a copy of the
    // whole log per request once it is full); `list` shows the newest `capacity` only.
    if (this.events.length > this.capacity + trimSlack) this.events = this.events.slice(-this.capacity);
  }

  private tell(event: AuditEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  /** The kept events (the newest `capacity`), oldest first. */
  list(): AuditEvent[] {
    // Events written after their requests' answers (other sinks' path) are written first.
    flushAfterAnswer();
    const events = this.events;
    const out: AuditEvent[] = [];
    for (let i = Math.max(0, events.length - this.capacity); i < events.length; i++) {
      const kept = events[i];
      if (kept === undefined) continue;
      const event = typeof kept === 'function' ? kept() : kept;
      // Made once: the next reader gets the same event without calling its maker again.
      events[i] = event;
      out.push(event);
    }
    return out;
  }

  subscribe(listener: (event: AuditEvent) => void): () => void {
    flushAfterAnswer();
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
