/**
 * A watch on one collection, as the store serves it: it subscribes to
 * commits before reading the starting state, so nothing falls between the
 * initial state (or the replayed history) and the live events; events leave
 * in resourceVersion order, converted to the served version and filtered by
 * the watch's name and selector. A start older than the history fails with
 * 410 Gone. How events are encoded, buffered and timed out is the HTTP
 * layer's business.
 */

import { resourceExpired, toStatusError } from '../../machinery/errors';
import type { ChangeRecord, Storage } from '../../storage/types';
import type { WatchHandle, WatchRequest, WatchSink } from '../rest/capabilities';
import { toServedVersion } from '../conversion';
import type { ResourceType } from '../resource-type';
import { filterChange, type WatchFilter } from './watch-filter';

const historyPage = 1_000;

export function openWatch(
  storage: Storage,
  rt: ResourceType,
  filter: WatchFilter,
  request: WatchRequest,
  sink: WatchSink,
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

  const unsubscribe = storage.onCommit((change) => {
    if (stopped) return;
    if (live) deliver(change);
    else pending.push(change);
  });

  const start = async (): Promise<void> => {
    if (request.initialEvents) {
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
      let after = request.startRevision ?? 0;
      lastSeen = after;
      const compacted = await storage.compactedRevision();
      if (after < compacted) {
        sink.fail(resourceExpired(`too old resource version: ${after} (${compacted})`).status);
        return;
      }
      // A start the store has not reached yet replays nothing: the live events deliver what comes after it.
      const current = await storage.currentRevision();
      while (after < current && !stopped) {
        const page = await storage.changesSince(after, historyPage);
        for (const change of page) deliver(change);
        if (page.length < historyPage) break;
        after = page[page.length - 1]?.revision ?? after;
      }
    }
    for (const change of pending.splice(0)) deliver(change);
    live = true;
  };

  const started = start().catch((e: unknown) => {
    if (!stopped) sink.fail(toStatusError(e).status);
  });

  return {
    lastRevision: () => lastSeen,
    isLive: () => live,
    started,
    stop() {
      stopped = true;
      pending.length = 0;
      unsubscribe();
    },
  };
}
