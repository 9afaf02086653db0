/**
 * Where audit events go: sinks the host attaches (the Node host's log
 * file) and the in-memory log behind the sandbox's live audit view, which
 * keeps the newest events and tells subscribers about each new one.
 */

import type { AuditEvent } from '../api/audit';
import { flushAfterAnswer } from '../machinery/after-answer';

export interface AuditSink {
  write(event: AuditEvent): void;
}

/** How many events past its capacity the log holds before it trims (see `write`). */
const trimSlack = 256;

export class AuditLog implements AuditSink {
  private events: AuditEvent[] = [];
  private readonly listeners = new Set<(event: AuditEvent) => void>();

  constructor(private readonly capacity = 1000) {}

  write(event: AuditEvent): void {
    this.events.push(event);
    // Trimmed to the newest `capacity` once a few hundred more have come, not on every write (a copy of the
    // whole log per request once it is full); `list` shows the newest `capacity` only.
    if (this.events.length > this.capacity + trimSlack) this.events = this.events.slice(-this.capacity);
    for (const listener of this.listeners) listener(event);
  }

  /** The kept events (the newest `capacity`), oldest first. */
  list(): AuditEvent[] {
    // Events are written after their requests' answers: those answered so far are written first.
    flushAfterAnswer();
    return this.events.slice(-this.capacity);
  }

  subscribe(listener: (event: AuditEvent) => void): () => void {
    flushAfterAnswer();
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
