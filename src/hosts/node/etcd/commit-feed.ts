/**
 * The one etcd watch a store keeps on its whole key range, turned into
 * commit notifications: every object change (by this process or any other
 * replica on the same etcd) reaches the listeners once, in revision order.
 * Writes of this process wait until the feed has passed their revision, so
 * a caller that sees a write acknowledged also sees its change delivered,
 * as with the in-process backends. The etcd3 watcher resumes from its last
 * revision after a reconnect, so a restarted member loses no event.
 */

import { Range, type Etcd3, type IKeyValue, type IWatchResponse, type Watcher } from 'etcd3';

export type EventSink = (
  events: Array<{ type: 'Put' | 'Delete'; kv: IKeyValue; prev_kv?: IKeyValue }>,
  revision: number,
) => void;

/** Writes wait at most this long for their event; a lost watch must not hang a request. */
const waitLimitMs = 10_000;

export class CommitFeed {
  private watcher: Watcher | undefined;
  /** The etcd revision the feed has delivered up to. */
  private delivered = 0;
  private waiters: Array<{ revision: number; resolve: () => void }> = [];

  constructor(
    private readonly client: Etcd3,
    private readonly range: { start: string; end: string },
    private readonly sink: EventSink,
  ) {}

  /** Starts watching after `revision` (the etcd revision the store opened at). */
  async start(revision: number): Promise<void> {
    this.delivered = revision;
    this.watcher = await this.client
      .watch()
      .inRange(new Range(this.range.start, this.range.end))
      .withPreviousKV()
      .startRevision(String(revision + 1))
      .create();
    this.watcher.on('data', (response: IWatchResponse) => this.onData(response));
    // Errors are reconnected by the client; the feed only reports them.
    this.watcher.on('error', (error: Error) => console.error(`etcd watch: ${error.message}`));
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
    const watcher = this.watcher;
    this.watcher = undefined;
    if (watcher) await watcher.cancel().catch(() => undefined);
    for (const waiter of this.waiters) waiter.resolve();
    this.waiters = [];
  }

  private onData(response: IWatchResponse): void {
    const events = response.events as Array<{ type: 'Put' | 'Delete'; kv: IKeyValue; prev_kv?: IKeyValue }>;
    // A response holds whole revisions; group them so a multi-op transaction is delivered at once.
    let start = 0;
    while (start < events.length) {
      const revision = Number(events[start]?.kv.mod_revision);
      let end = start;
      while (end < events.length && Number(events[end]?.kv.mod_revision) === revision) end++;
      if (revision > this.delivered) {
        this.sink(events.slice(start, end), revision);
        this.delivered = revision;
      }
      start = end;
    }
    const header = Number(response.header.revision);
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
