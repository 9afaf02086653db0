/**
 * Opens the worker's storage: the IndexedDB database named after the naming
 * profile, through the Dexie backend. IndexedDB outlives the worker, which the
 * browser stops when idle, so every restart reopens the same state. Current
 * reads of single objects are served from memory while this worker holds the
 * store's writer lease (a Web Lock, asked for on a BroadcastChannel), so that
 * the next version of the worker during an update, or any other context
 * writing the same database, takes it over before it writes (read-cache.ts).
 */

import { createDexieStorage } from '../../../storage/dexie/dexie-storage';
import { withReadCache } from '../../../storage/read-cache/read-cache';
import { createWriterLease, type LockManagerLike } from '../../../storage/read-cache/writer-lease';
import type { Storage } from '../../../storage/types';

export function openStorage(name: string): Storage {
  const storage = createDexieStorage({ name });
  const locks = (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator?.locks;
  // Without Web Locks (browsers before 2022) another context's writes could not be held off: every read goes to IndexedDB.
  if (locks === undefined) return storage;
  const lease = createWriterLease({
    name: `orch-writer:${name}`,
    locks,
    channel: new BroadcastChannel(`orch-writer:${name}`),
  });
  return withReadCache(storage, lease);
}
