/**
 * Turns a store change into the event one watcher sees: changes outside the
 * watched collection are dropped, and with a selector an object that starts
 * matching arrives as ADDED and one that stops matching as DELETED (with its
 * previous content at the change's resourceVersion), as the real watch
 * cache does.
 */

import type { KubeObject, WatchEventType } from '../../api/meta';
import type { ChangeRecord } from '../../storage/types';

export interface WatchFilter {
  prefix: string;
  /** Exact key for a watch on one object (fieldSelector metadata.name, legacy /watch/<name>). */
  key?: string;
  predicate?: (obj: KubeObject) => boolean;
}

export interface FilteredEvent {
  type: WatchEventType;
  object: KubeObject;
  revision: number;
}

function withRevision(obj: KubeObject, revision: number): KubeObject {
  return { ...obj, metadata: { ...(obj.metadata ?? {}), resourceVersion: String(revision) } };
}

export function filterChange(filter: WatchFilter, change: ChangeRecord): FilteredEvent | undefined {
  if (!change.key.startsWith(filter.prefix)) return undefined;
  if (filter.key !== undefined && change.key !== filter.key) return undefined;
  const p = filter.predicate;
  if (p === undefined) return { type: change.type, object: change.object, revision: change.revision };
  if (change.type === 'ADDED')
    return p(change.object) ? { type: 'ADDED', object: change.object, revision: change.revision } : undefined;
  const before = change.previous !== undefined && p(change.previous);
  if (change.type === 'DELETED')
    return before ? { type: 'DELETED', object: change.object, revision: change.revision } : undefined;
  const now = p(change.object);
  if (now && before) return { type: 'MODIFIED', object: change.object, revision: change.revision };
  if (now && !before) return { type: 'ADDED', object: change.object, revision: change.revision };
  if (!now && before && change.previous !== undefined)
    return {
      type: 'DELETED',
      object: withRevision(change.previous, change.revision),
      revision: change.revision,
    };
  return undefined;
}
