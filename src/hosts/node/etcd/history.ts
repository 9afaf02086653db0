/**
 * The change history between two etcd revisions, read the way etcd keeps
 * it: a watch from the first revision whose events are collected up to the
 * last one (etcd replays its retained history to a watch that starts in the
 * past). A start before etcd's compaction cancels the watch with a compact
 * revision, which becomes etcd's "required revision has been compacted" and
 * the caller turns into 410.
 */

import { StorageError } from '../../../storage/types';
import type { EtcdKvClient } from './kv-client';
import type { WatchEvent, WatchResponse } from './kv-wire';
import { openWatch, type WatchStream } from './watch-stream';

const historyTimeoutMs = 15_000;

/** Events with etcd revisions in [from, to], oldest first; at most `limit` events under `objectPrefix` when given. */
export async function readHistory(
  kv: EtcdKvClient,
  range: { start: string; end: string },
  from: number,
  to: number,
  limit?: number,
  objectPrefix?: string,
): Promise<WatchEvent[]> {
  if (from > to || (limit !== undefined && limit <= 0)) return [];
  const events: WatchEvent[] = [];
  let full = Infinity;
  let watch: WatchStream | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      const done = (error?: Error): void => {
        clearTimeout(timer);
        watch?.close();
        if (error) reject(error);
        else resolve();
      };
      const onResponse = (response: WatchResponse): void => {
        if (response.canceled) return done(cancelError(response));
        for (const event of response.events) {
          const revision = event.kv.mod_revision;
          if (revision > to || revision > full) return done();
          if (objectPrefix === undefined || event.kv.key.toString().startsWith(objectPrefix))
            events.push(event);
          // A page never ends inside a revision (a transaction's changes go together).
          if (limit !== undefined && events.length >= limit) full = revision;
        }
        if (full !== Infinity) return done();
        // A revision's events all come in one response, so its last event ends the read.
        const last = response.events.at(-1);
        if (last && last.kv.mod_revision >= to) done();
      };
      watch = openWatch(kv, range, from, { onResponse, onEnd: done });
      // Set after the watch opened (opening throws on a closed client); `done` only runs later, from the stream.
      const timer = setTimeout(
        () => done(new StorageError('Internal', `etcd: reading the history from ${from} timed out`)),
        historyTimeoutMs,
      );
    });
  } finally {
    watch?.close();
  }
  return events;
}

/** etcd cancels a watch whose start is compacted with the compact revision and, in etcd 3.4, no reason. */
function cancelError(response: WatchResponse): Error {
  const reason =
    response.cancel_reason ||
    (response.compact_revision > 0 ? 'etcdserver: mvcc: required revision has been compacted' : 'canceled');
  return new Error(`Watcher canceled: ${reason}`);
}
