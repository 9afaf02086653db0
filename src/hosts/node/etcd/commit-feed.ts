/**
 * The one etcd watch a store keeps on its whole key range, turned into
 * commit notifications: every object change (by this process or any other
 * replica on the same etcd) reaches the listeners once, in revision order.
 * Writes of this process wait until the feed has passed their revision, so
 * a caller that sees a write acknowledged also sees its change delivered,
 * as with the in-process backends. The watch is a gRPC stream on the KV
 * client's connection (watch-stream.ts; before decision 0133 it was etcd3's
 * watcher, whose layers cost ~150 µs of server CPU per create). A broken
 * stream is opened again after a backoff (128 ms doubling to 30 s, as
 * etcd3's), from the revision after the last one delivered, so a restarted
 * member loses no event; a watch etcd cancels (its start was compacted) is
 * reported and not resumed, as etcd3 did.
 */

import type { EtcdKvClient } from './kv-client';
import type { WatchEvent, WatchResponse } from './kv-wire';
import { openWatch, type WatchStream } from './watch-stream';

export type EventSink = (events: WatchEvent[], revision: number) => void;

/** Writes wait at most this long for their event; a lost watch must not hang a request. */
const waitLimitMs = 10_000;
const firstBackoffMs = 128;
const lastBackoffMs = 30_000;

export class CommitFeed {
  private watch: WatchStream | undefined;
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;
  private backoffMs = firstBackoffMs;
  /** The etcd revision the feed has delivered up to. */
  private delivered = 0;
  private waiters: Array<{ revision: number; resolve: () => void }> = [];

  constructor(
    private readonly kv: EtcdKvClient,
    private readonly range: { start: string; end: string },
    private readonly sink: EventSink,
  ) {}

  /** Starts watching after `revision` (the etcd revision the store opened at); resolves once etcd created the watch. */
  start(revision: number): Promise<void> {
    this.delivered = revision;
    return new Promise((resolve) => this.open(resolve));
  }

  /** Resolves once the feed has delivered everything up to `revision`. */
  waitFor(revision: number): Promise<void> {
    if (revision <= this.delivered) return Promise.resolve();
    return new Promise((resolve) => {
      const entry = { revision, resolve };
      this.waiters.push(entry);
      setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== entry);
        resolve();
      }, waitLimitMs).unref();
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    const watch = this.watch;
    this.watch = undefined;
    watch?.close();
    for (const waiter of this.waiters) waiter.resolve();
    this.waiters = [];
  }

  private open(created: (() => void) | undefined): void {
    if (this.stopped) return;
    let watch: WatchStream;
    try {
      watch = openWatch(this.kv, this.range, this.delivered + 1, {
        onResponse: (response) => {
          this.backoffMs = firstBackoffMs;
          if (response.canceled) {
            // The feed's only watch is gone (its start revision was compacted): say so; there is nothing to resume.
            console.error(`etcd watch: Watcher canceled: ${response.cancel_reason}`);
            this.watch = undefined;
            watch.close();
            return;
          }
          if (response.created) {
            created?.();
            created = undefined;
          }
          this.onData(response);
        },
        onEnd: () => {
          if (this.watch !== watch) return;
          this.watch = undefined;
          this.reopen(created);
        },
      });
    } catch {
      this.reopen(created);
      return;
    }
    this.watch = watch;
  }

  private reopen(created: (() => void) | undefined): void {
    if (this.stopped) return;
    this.retry = setTimeout(() => this.open(created), this.backoffMs);
    this.backoffMs = Math.min(this.backoffMs * 2, lastBackoffMs);
  }

  private onData(response: WatchResponse): void {
    const events = response.events;
    // A response holds whole revisions; group them so a multi-op transaction is delivered at once.
    let start = 0;
    while (start < events.length) {
      const revision = (events[start] as WatchEvent).kv.mod_revision;
      let end = start;
      while (end < events.length && (events[end] as WatchEvent).kv.mod_revision === revision) end++;
      if (revision > this.delivered) {
        this.sink(events.slice(start, end), revision);
        this.delivered = revision;
      }
      start = end;
    }
    const header = response.header.revision;
    if (events.length === 0 && header > this.delivered && !response.created) this.delivered = header;
    this.release();
  }

  private release(): void {
    if (this.waiters.length === 0) return;
    const ready = this.waiters.filter((w) => w.revision <= this.delivered);
    this.waiters = this.waiters.filter((w) => w.revision > this.delivered);
    for (const waiter of ready) waiter.resolve();
  }
}
