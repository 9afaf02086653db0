/**
 * Two writers on one IndexedDB (fake-indexeddb), as a tab's service worker and its next version are during
 * an update: each handle is the browser's storage stack — a read cache over Dexie under the writer lease
 * they share — so tests of the read cache and of what the HTTP layer keeps beside it open the same thing.
 */

import { indexedDB, IDBKeyRange } from 'fake-indexeddb';
import { createDexieStorage } from '../../src/storage/dexie/dexie-storage';
import { type ReadCachedStorage, withReadCache } from '../../src/storage/read-cache/read-cache';
import {
  createWriterLease,
  type ChannelLike,
  type LockManagerLike,
} from '../../src/storage/read-cache/writer-lease';
import type { Storage } from '../../src/storage/types';

/** Node's BroadcastChannel (its typings name the DOM's listener types differently). */
export function channelOf(name: string): ChannelLike {
  const channel = new BroadcastChannel(name);
  return {
    postMessage: (message) => channel.postMessage(message),
    addEventListener: (type, listener) => channel.addEventListener(type, listener as never),
    close: () => channel.close(),
  };
}

/** `inner` behind a read cache under the writer lease `name`, which every handle given the same `locks` shares. */
export function leased(inner: Storage, locks: LockManagerLike, name: string): ReadCachedStorage {
  return withReadCache(
    inner,
    createWriterLease({ name, locks, channel: channelOf(name) }),
  ) as ReadCachedStorage;
}

/** One writer of the IndexedDB `db`: its handles share the lease `lease-<db>` through `locks`. */
export function writerOf(db: string, locks: LockManagerLike): ReadCachedStorage {
  return leased(createDexieStorage({ name: db, indexedDB, IDBKeyRange }), locks, `lease-${db}`);
}
