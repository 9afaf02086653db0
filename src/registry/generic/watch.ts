/**
 * A watch on one collection, as the store serves it: it subscribes to
 * commits before reading the starting state, so nothing falls between the
 * initial state (or the replayed history) and the live events; events leave
 * in resourceVersion order, converted to the served version and filtered by
 * the watch's name and selector. A start in the past is replayed from the
 * resource's watch-cache window (see `registry/watch-cache`), and one older
 * than that window fails with 410 Gone, whatever the store still keeps;
 * without a watch cache (unit tests) the store's history serves it. How
 * events are encoded, buffered and timed out is the HTTP layer's business.
 */

import { resourceExpired, toStatusError } from '../../machinery/errors';
import type { ChangeRecord, Storage } from '../../storage/types';
import type { WatchHandle, WatchRequest, WatchSink } from '../rest/capabilities';
import { toServedVersion } from '../conversion';
import type { ResourceType } from '../resource-type';
import { filterChange, type WatchFilter } from './watch-filter';
import type { WatchCaches } from '../watch-cache/watch-caches';
import { waitForRevision } from './revisions';
import type { WatchHub } from './watch-hub';

/** What a watch reads besides the store: the watch caches, and how long to wait for a revision not reached yet. */
export interface WatchSources {
  caches?: WatchCaches;
  /** The server's fan-out of commits to watches; without it (unit tests) each watch listens to the store. */
  hub?: WatchHub;
  tooLargeResourceVersionWaitMs: number;
  signal?: AbortSignal;
}

const historyPage = 1_000;

export function openWatch(
  storage: Storage,
  rt: ResourceType,
  filter: WatchFilter,
  request: WatchRequest,
  sink: WatchSink,
  sources: WatchSources = { tooLargeResourceVersionWaitMs: 3000 },
): WatchHandle {
  let stopped = false;
  let live = false;
  let lastSeen = 0;
  const pending: ChangeRecord[] = [];

  const deliver = (change: ChangeRecord): void => {
    if (stopped || change.revision <= lastSeen) return;
    lastSeen = change.revision;
    if (!change.key.startsWith(filter.prefix)) return;
    // Selectors and clients see objects in the served version.
    const served: ChangeRecord = {
      ...change,
      object: toServedVersion(rt, change.object),
      ...(change.previous !== undefined ? { previous: toServedVersion(rt, change.previous) } : {}),
    };
    const event = filterChange(filter, served);
    if (event !== undefined && event.type !== 'BOOKMARK' && event.type !== 'ERROR')
      sink.emit(event.type, event.object);
  };

  const listener = (change: ChangeRecord): void => {
    if (stopped) return;
    if (live) deliver(change);
    else pending.push(change);
  };
  const unsubscribe =
    sources.hub?.subscribe(listener, {
      prefix: filter.prefix,
      ...(request.behindClients === true ? { behindClients: true } : {}),
    }) ?? storage.onCommit(listener);

  const stop = (): void => {
    stopped = true;
    pending.length = 0;
    unsubscribe();
  };
  // A failed watch releases its commit listener itself: the failure can come before the caller holds the handle.
  const fail = (status: Parameters<WatchSink['fail']>[0]): void => {
    stop();
    sink.fail(status);
  };

  const start = async (): Promise<void> => {
    if (request.initialEvents) {
      // A streaming list at a given resourceVersion starts from a state at least that new (waiting as a read does).
      if (request.startRevision !== undefined)
        await waitForRevision(
          storage,
          request.startRevision,
          sources.tooLargeResourceVersionWaitMs,
          sources.signal,
        );
      const snapshot = await storage.list({ prefix: filter.prefix });
      for (const item of snapshot.items) {
        if (stopped) return;
        if (filter.key !== undefined && item.key !== filter.key) continue;
        const object = toServedVersion(rt, item.object);
        if (filter.predicate !== undefined && !filter.predicate(object)) continue;
        sink.emit('ADDED', object);
      }
      lastSeen = snapshot.revision;
      sink.initialEventsEnd?.();
    } else {
      const after = request.startRevision ?? 0;
      lastSeen = after;
      if (sources.caches?.started === true) {
        const read = sources.caches.read(filter.prefix, after);
        if ('tooOld' in read) {
          fail(resourceExpired(`too old resource version: ${after} (${read.tooOld})`).status);
          return;
        }
        for (const change of read.changes) deliver(change);
      } else if (!(await replayHistory(storage, after, deliver, () => stopped, fail))) return;
    }
    for (const change of pending.splice(0)) deliver(change);
    live = true;
  };

  const started = start().catch((e: unknown) => {
    if (!stopped) fail(toStatusError(e).status);
  });

  return {
    // Changes of other collections do not reach this watch from the hub. Once live it has seen every change the
    // hub handed out: those before it subscribed through its start (a list, the watch cache or the history, all
    // read after it subscribed), the later ones from the hub, or they were not its collection's.
    lastRevision: () =>
      live && sources.hub !== undefined ? Math.max(lastSeen, sources.hub.deliveredThrough) : lastSeen,
    isLive: () => live,
    started,
    stop,
  };
}

/** Replays the store's history after `after`; false (having failed the watch) when it is compacted. */
async function replayHistory(
  storage: Storage,
  start: number,
  deliver: (change: ChangeRecord) => void,
  stopped: () => boolean,
  fail: WatchSink['fail'],
): Promise<boolean> {
  const compacted = await storage.compactedRevision();
  if (start < compacted) {
    fail(resourceExpired(`too old resource version: ${start} (${compacted})`).status);
    return false;
  }
  // A start the store has not reached yet replays nothing: the live events deliver what comes after it.
  const current = await storage.currentRevision();
  let after = start;
  while (after < current && !stopped()) {
    const page = await storage.changesSince(after, historyPage);
    for (const change of page) deliver(change);
    if (page.length < historyPage) break;
    after = page[page.length - 1]?.revision ?? after;
  }
  return true;
}
