/**
 * The list-then-watch loop behind every live view of the UI and every
 * controller's informer, after client-go's reflector: list, watch from the
 * list's resourceVersion with bookmarks, resume from the last version seen
 * when a stream ends, and list again on 410 Gone (the history was compacted
 * past that version, or the state was replaced). Failures wait out the
 * reflector's backoff (exponential, jittered, capped, reset after a quiet
 * spell); the loop ends only when `signal` aborts.
 */

import type { KubeObject, Status, WatchEvent } from '../api/meta';
import type { ApiClient } from './client';
import { ApiError, isStatus } from './errors';
import type { QueryParams, ResourceRef } from './paths';

export interface ListWatchHandlers {
  /** A full state: the first list and every relist. Replace what you hold. */
  onList(resourceVersion: string): void;
  /** ADDED, MODIFIED, DELETED or BOOKMARK, in order. */
  onEvent(event: WatchEvent & { object: KubeObject }): void;
  /**
   * The watch answered 410 Gone; a relist follows, at once unless nothing arrived since the
   * last list (then after a backoff, reported through `onError`).
   */
  onGone?(status: Status): void;
  /** A failure; the loop retries after `retryInMs`. */
  onError?(error: unknown, retryInMs: number): void;
  /** The watch is open (after a list or a resume) at this version. */
  onWatching?(resourceVersion: string): void;
}

/** How long to wait between retries: each wait is `factor` times the last, up to `maxMs`. */
export interface BackoffPolicy {
  initialMs: number;
  maxMs: number;
  factor: number;
  /** A wait of d becomes a random one in [d, d × (1 + jitter)), so many clients do not retry in step. */
  jitter: number;
  /** A failure this long after the previous one starts again from `initialMs`. */
  resetAfterMs: number;
}

/**
 * client-go's reflector defaults: 800 ms doubling to 30 s (so a failing server sees a retry every
 * 30–60 s), and back to 800 ms once two minutes pass without a failure.
 */
export const reflectorBackoff: Readonly<BackoffPolicy> = {
  initialMs: 800,
  maxMs: 30_000,
  factor: 2,
  jitter: 1,
  resetAfterMs: 120_000,
};

export interface ListWatchOptions {
  client: ApiClient;
  ref: ResourceRef;
  /** Selectors and the like, sent with the list and the watch. */
  query?: QueryParams;
  /** Performs the list (e.g. as a Table, or diffing against a cache) and returns its resourceVersion. */
  list: (signal: AbortSignal) => Promise<string>;
  /** The Accept header of the watch (e.g. Tables, so each event carries its rendered row). */
  accept?: string;
  handlers: ListWatchHandlers;
  signal: AbortSignal;
  /** Overrides of `reflectorBackoff` (tests shorten it). */
  backoff?: Partial<BackoffPolicy>;
}

// A watch that closes sooner than this without an event is a failure, not a normal end
// (the reflector's "very short watch"): resuming at once would spin against a server that
// closes every stream.
const shortWatchMs = 1000;

export async function listWatch(options: ListWatchOptions): Promise<void> {
  const { handlers, signal } = options;
  const backoff = new Backoff({ ...reflectorBackoff, ...options.backoff });
  const retryLater = async (error: unknown): Promise<void> => {
    const ms = backoff.next();
    handlers.onError?.(error, ms);
    await sleep(ms, signal);
  };
  // The version to watch from; undefined when the next step is a list.
  let resourceVersion: string | undefined;
  // Whether anything arrived since the last list. A 410 after progress is routine (a compaction,
  // a reset) and relists at once; a 410 straight after a list would loop, so it backs off.
  let progressed = false;
  while (!signal.aborted) {
    try {
      if (resourceVersion === undefined) {
        const listed = await options.list(signal);
        if (signal.aborted) return;
        resourceVersion = listed;
        progressed = false;
        handlers.onList(listed);
      }
      handlers.onWatching?.(resourceVersion);
      const started = Date.now();
      const watched = await watchOnce(options, resourceVersion);
      resourceVersion = watched.resourceVersion;
      const healthy = watched.events > 0 || Date.now() - started >= shortWatchMs;
      if (healthy) progressed = true;
      if (signal.aborted) return;
      switch (watched.end.kind) {
        case 'closed':
          // The server ended the stream (its timeout): resume where it stopped.
          if (healthy) continue;
          resourceVersion = undefined;
          await retryLater(new Error('the watch closed at once without events'));
          continue;
        case 'gone':
          handlers.onGone?.(watched.end.status);
          resourceVersion = undefined;
          if (!progressed) await retryLater(new ApiError(watched.end.status));
          continue;
        case 'unreachable':
          // As the reflector does for "connection refused" and 429: the server is away or busy,
          // not out of step, so the same version is still good to watch from.
          await retryLater(watched.end.error);
          continue;
      }
    } catch (error) {
      if (signal.aborted) return;
      // Anything else (a failed list, an ERROR event, a handler that threw): start over from a list.
      resourceVersion = undefined;
      await retryLater(error);
    }
  }
}

type WatchEnd =
  { kind: 'closed' } | { kind: 'gone'; status: Status } | { kind: 'unreachable'; error: unknown };

/**
 * One watch from version `from` until its stream ends: how it ended and the last version seen.
 * Throws what calls for a relist.
 */
async function watchOnce(
  options: ListWatchOptions,
  from: string,
): Promise<{ end: WatchEnd; resourceVersion: string; events: number }> {
  const { client, ref, query, handlers, signal } = options;
  const events = client.watch(
    ref,
    { ...query, resourceVersion: from, allowWatchBookmarks: true },
    signal,
    options.accept,
  );
  const stream = events[Symbol.asyncIterator]();
  let resourceVersion = from;
  let count = 0;
  const ended = (end: WatchEnd) => ({ end, resourceVersion, events: count });
  try {
    for (;;) {
      let next: IteratorResult<WatchEvent>;
      // Only failures of the request and the stream are told apart here; a handler's own
      // failure must not pass for a dropped connection.
      try {
        next = await stream.next();
      } catch (error) {
        if (error instanceof ApiError && error.code === 410)
          return ended({ kind: 'gone', status: error.status });
        // fetch rejects with a TypeError when the connection fails (refused, reset, offline).
        if ((error instanceof ApiError && error.code === 429) || error instanceof TypeError)
          return ended({ kind: 'unreachable', error });
        throw error;
      }
      if (next.done === true) return ended({ kind: 'closed' });
      const event = next.value;
      if (event.type === 'ERROR') {
        const status = isStatus(event.object) ? event.object : undefined;
        if (status?.code === 410) return ended({ kind: 'gone', status });
        throw new ApiError(
          status ?? { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 500 },
        );
      }
      const object = event.object as KubeObject;
      const version = object.metadata?.resourceVersion;
      if (version !== undefined && version !== '') resourceVersion = version;
      count++;
      handlers.onEvent({ type: event.type, object });
    }
  } finally {
    // Leaving early (an ERROR event, a handler that threw) must close the stream.
    await stream.return?.();
  }
}

/** client-go's exponential backoff manager. */
class Backoff {
  private nextMs: number;
  private lastAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly policy: BackoffPolicy) {
    this.nextMs = policy.initialMs;
  }

  /** The wait before the next retry. */
  next(now = Date.now()): number {
    if (now - this.lastAt > this.policy.resetAfterMs) this.nextMs = this.policy.initialMs;
    this.lastAt = now;
    const base = this.nextMs;
    this.nextMs = Math.min(base * this.policy.factor, this.policy.maxMs);
    return Math.round(base * (1 + Math.random() * this.policy.jitter));
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      // A loop that retries for hours must not pile up one listener per wait.
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
