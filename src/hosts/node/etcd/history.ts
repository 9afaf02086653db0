/**
 * The change history between two etcd revisions, read the way etcd keeps
 * it: a watch from the first revision whose events are collected up to the
 * last one (etcd replays its retained history to a watch that starts in the
 * past). A start before etcd's compaction cancels the watch with etcd's
 * "required revision has been compacted", which the caller turns into 410.
 */

import { Range, type Etcd3, type IKeyValue, type IWatchResponse } from 'etcd3';
import { StorageError } from '../../../storage/types';

export interface HistoryEvent {
  type: 'Put' | 'Delete';
  kv: IKeyValue;
  prev_kv?: IKeyValue;
}

const historyTimeoutMs = 15_000;

/** Events with etcd revisions in [from, to], oldest first; at most `limit` events under `objectPrefix` when given. */
export async function readHistory(
  client: Etcd3,
  range: { start: string; end: string },
  from: number,
  to: number,
  limit?: number,
  objectPrefix?: string,
): Promise<HistoryEvent[]> {
  if (from > to || (limit !== undefined && limit <= 0)) return [];
  const watcher = client
    .watch()
    .inRange(new Range(range.start, range.end))
    .withPreviousKV()
    .startRevision(String(from))
    .watcher();
  const events: HistoryEvent[] = [];
  let full = Infinity;
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new StorageError('Internal', `etcd: reading the history from ${from} timed out`)),
        historyTimeoutMs,
      );
      const done = (error?: Error): void => {
        clearTimeout(timer);
        if (error) reject(error);
        else resolve();
      };
      watcher.on('error', (error: Error) => done(error));
      watcher.on('data', (response: IWatchResponse) => {
        for (const event of response.events as HistoryEvent[]) {
          const revision = Number(event.kv.mod_revision);
          if (revision > to || revision > full) return done();
          if (objectPrefix === undefined || event.kv.key.toString().startsWith(objectPrefix))
            events.push(event);
          // A page never ends inside a revision (a transaction's changes go together).
          if (limit !== undefined && events.length >= limit) full = revision;
        }
        if (full !== Infinity) return done();
        // A revision's events all come in one response, so its last event ends the read.
        const last = response.events.at(-1);
        if (last && Number(last.kv.mod_revision) >= to) done();
      });
    });
  } finally {
    await watcher.cancel().catch(() => undefined);
  }
  return events;
}
