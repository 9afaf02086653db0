/**
 * Read access to stored objects for authentication and authorization, as
 * synchronous listers over the server's in-memory caches (the registry's
 * shared informers satisfy this shape). Objects are read-only and in their
 * storage version.
 */

import type { KubeObject } from '../api/meta';

export interface ObjectLister {
  get(namespace: string, name: string): KubeObject | undefined;
  /** Every object, or those of one namespace. */
  list(namespace?: string): KubeObject[];
  /** Objects whose index function returned `value` for the index `indexName` (registered by the lister's owner). */
  byIndex(indexName: string, value: string): KubeObject[];
}
