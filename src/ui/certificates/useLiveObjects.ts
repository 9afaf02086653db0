/**
 * A collection's objects, live (list, then watch), for the request list
 * and the account picker. When the identity changes and the new one may not
 * list them, the last objects stay visible beside the 403 — marked stale —
 * so the learner can still try to act on a request as that identity and
 * see why it is refused. Deleted objects are remembered by name, so the
 * detail can say a request was garbage-collected rather than just vanish.
 */

import { useEffect, useRef, useState } from 'react';
import type { KubeObject } from '../../api/meta';
import { listWatch, resourcePath, type ResourceRef } from '../../client/index';
import { useClient } from '../client-context';

export interface LiveObjects<T extends KubeObject> {
  items: T[];
  /** The last failure, until a list succeeds again. */
  error: unknown;
  /** The items were listed by an earlier identity or attempt, and the last list failed. */
  stale: boolean;
  loaded: boolean;
  /** Names deleted while watched, with their last state. */
  deleted: Map<string, T>;
}

/** How many deleted objects are remembered: a long session's garbage-collected requests would grow it without end. */
export const rememberedDeletions = 200;

function byName<T extends KubeObject>(a: T, b: T): number {
  return (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? '');
}

export function useLiveObjects<T extends KubeObject>(ref: ResourceRef | undefined): LiveObjects<T> {
  const client = useClient();
  const [state, setState] = useState<LiveObjects<T>>({
    items: [],
    error: undefined,
    stale: false,
    loaded: false,
    deleted: new Map(),
  });
  const key = ref === undefined ? '' : JSON.stringify(ref);
  const lastKey = useRef(key);
  useEffect(() => {
    // Another collection: forget the old one's objects (a new identity keeps them, marked stale on failure).
    if (lastKey.current !== key)
      setState({ items: [], error: undefined, stale: false, loaded: false, deleted: new Map() });
    lastKey.current = key;
    if (ref === undefined) return;
    const abort = new AbortController();
    let current = new Map<string, T>();
    const publish = (deletedNow?: T) =>
      setState((previous) => {
        const deleted = new Map(previous.deleted);
        for (const name of current.keys()) deleted.delete(name);
        if (deletedNow?.metadata?.name !== undefined) {
          // Re-inserted so the map's order is the order of deletion and the oldest go first.
          deleted.delete(deletedNow.metadata.name);
          deleted.set(deletedNow.metadata.name, deletedNow);
        }
        for (const name of deleted.keys()) {
          if (deleted.size <= rememberedDeletions) break;
          deleted.delete(name);
        }
        return {
          items: [...current.values()].sort(byName),
          error: undefined,
          stale: false,
          loaded: true,
          deleted,
        };
      });
    void listWatch({
      client,
      ref,
      signal: abort.signal,
      list: async (signal) => {
        const list = await client.send<{ metadata: { resourceVersion?: string }; items: T[] }>(
          'GET',
          resourcePath(ref),
          { signal },
        );
        current = new Map(list.body.items.map((item) => [item.metadata?.name ?? '', item]));
        return list.body.metadata.resourceVersion ?? '';
      },
      handlers: {
        onList: () => publish(),
        onEvent: (event) => {
          const name = event.object.metadata?.name;
          if (name === undefined || event.type === 'BOOKMARK') return;
          if (event.type === 'DELETED') {
            current.delete(name);
            publish(event.object as T);
          } else {
            current.set(name, event.object as T);
            publish();
          }
        },
        onError: (error) =>
          setState((previous) => ({ ...previous, error, stale: previous.items.length > 0, loaded: true })),
      },
    });
    return () => abort.abort();
    // key stands for ref.
  }, [client, key]);
  return state;
}
