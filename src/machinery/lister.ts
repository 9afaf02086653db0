/**
 * A lister: synchronous reads of one resource's cached objects, as client-go's
 * listers are, below the registry that keeps the caches (registry/cache) and
 * the admission plugins and identities that read them.
 */

import type { KubeObject } from '../api/meta';

/** Synchronous reads of one resource's cache. Results are unordered; every object is frozen. */
export interface Lister {
  /** The object `namespace/name` (namespace '' for cluster-scoped resources). */
  get(namespace: string, name: string): KubeObject | undefined;
  /** Every object, or those of one namespace. */
  list(namespace?: string): KubeObject[];
  /** The objects whose index function `indexName` returned `value`; throws for an unknown index. */
  byIndex(indexName: string, value: string): KubeObject[];
}
