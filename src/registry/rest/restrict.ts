/**
 * A storage that offers only some of another's capabilities — for kinds
 * whose real storage lacks a verb the generic store has (a Namespace cannot
 * be deleted as a collection; ComponentStatus is read-only).
 */

import type { RestStorage } from './capabilities';

type Capability = 'get' | 'list' | 'watch' | 'create' | 'update' | 'delete' | 'deleteCollection';

export function restrict(storage: RestStorage, keep: readonly Capability[]): RestStorage {
  const out: Record<string, unknown> = {};
  const source = storage as Record<string, unknown>;
  for (const name of keep) {
    const fn = source[name];
    if (typeof fn === 'function') out[name] = (fn as (...args: unknown[]) => unknown).bind(storage);
  }
  if (keep.includes('delete')) out.returnsDeletedObject = storage.returnsDeletedObject;
  if (storage.objectKind !== undefined) out.objectKind = storage.objectKind;
  return out as RestStorage;
}
