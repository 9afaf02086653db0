/**
 * A watch's events handed as objects to a client in the same process (the
 * in-process controllers, the simulated cluster), beside the response that
 * would otherwise carry them as bytes. Such a client used to get each event
 * as a JSON line on a stream and decode it again: the stream's chunks, a
 * TextDecoderStream, the line splitting and the reads' promises cost every
 * in-process watcher of a resource that work per write, on the thread that
 * serves the writes. The server still makes each event's JSON frame (it is
 * shared by every watcher and counted in the watch metrics), and parses it
 * into the object the client would have read, so what the client sees is
 * the same; only the trip through a byte stream is left out.
 *
 * The response keeps its body: it ends when the watch ends, and cancelling
 * it stops the watch, so a client stops an object watch as it stops any
 * other. A client that finds no events beside a response reads its bytes.
 */

import type { WatchEvent } from '../api/meta';

/** A watch's events in order, then its end; read by one consumer. */
export class WatchEventChannel {
  private queued: WatchEvent[] = [];
  private head = 0;
  private waiting: ((result: IteratorResult<WatchEvent>) => void) | undefined;
  private ended = false;

  /** Events queued and not yet read (a slow reader's backlog). */
  get backlog(): number {
    return this.queued.length - this.head;
  }

  push(event: WatchEvent): void {
    if (this.ended) return;
    const waiting = this.waiting;
    if (waiting !== undefined) {
      this.waiting = undefined;
      waiting({ value: event, done: false });
      return;
    }
    this.queued.push(event);
  }

  /** No more events: the reader gets what is queued, then the end. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.({ value: undefined, done: true });
  }

  next(): Promise<IteratorResult<WatchEvent>> {
    if (this.head < this.queued.length) {
      const value = this.queued[this.head] as WatchEvent;
      this.head++;
      // Drop what was read once all of it is, or now and then, so a long watch's array does not keep every event.
      if (this.head === this.queued.length) {
        this.queued.length = 0;
        this.head = 0;
      } else if (this.head >= 1024) {
        this.queued = this.queued.slice(this.head);
        this.head = 0;
      }
      return Promise.resolve({ value, done: false });
    }
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiting = resolve));
  }
}

const channels = new WeakMap<Response, WatchEventChannel>();

/** Marks `response` as a watch whose events `channel` carries; returns it. */
export function withWatchEvents(response: Response, channel: WatchEventChannel): Response {
  channels.set(response, channel);
  return response;
}

/** The events beside a watch response made for an in-process client, if it has them. */
export function watchEventsOf(response: Response): WatchEventChannel | undefined {
  return channels.get(response);
}
