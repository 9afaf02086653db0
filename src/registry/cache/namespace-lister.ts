/**
 * Namespaces for admission plugins, read from the shared namespace informer
 * instead of storage: the answer admission's `NamespaceLister` asks for, and
 * a synchronous one for callers that cannot wait. The cache follows commits
 * synchronously, so a namespace is found as soon as its create returns.
 */

import type { KubeObject } from '../../api/meta';
import type { NamespaceLister } from '../../machinery/admission/attributes';
import type { SharedInformerFactory } from './factory';

/** Namespaces are stored in the core group under `namespaces`, in every naming profile. */
export const NAMESPACES = { group: '', resource: 'namespaces' } as const;

export interface NamespaceCache extends NamespaceLister {
  /** The cached namespace now; undefined also before the first sync (check `hasSynced`). */
  getNow(name: string): KubeObject | undefined;
  readonly hasSynced: boolean;
}

/**
 * `get` waits for the informer's first sync, so it never answers "absent"
 * from an empty cache; the factory must therefore be started before any
 * write into a namespace is admitted.
 */
export function namespaceLister(informers: SharedInformerFactory): NamespaceCache {
  const informer = informers.informerFor(NAMESPACES);
  return {
    async get(name) {
      if (!informer.hasSynced) await informer.synced;
      return informer.lister.get('', name);
    },
    getNow: (name) => informer.lister.get('', name),
    get hasSynced() {
      return informer.hasSynced;
    },
  };
}
