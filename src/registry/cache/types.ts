/**
 * The read side of the in-server informers, as their consumers see it: a
 * synchronous lister over one resource's cached objects, the event handlers
 * that hear every change, and index functions. Objects handed out are the
 * cache's own, deep-frozen, in their storage version (convert with
 * `toServedVersion` from `../conversion` when a served version is needed).
 */

import type { KubeObject } from '../../api/meta';

export type { Lister } from '../../machinery/lister';

/**
 * Hears the cache change, synchronously, after the cache holds the change
 * (a handler reading the lister sees the new state). A handler that throws
 * is logged; the others still run.
 */
export interface InformerEventHandler {
  add?(object: KubeObject): void;
  update?(previous: KubeObject, object: KubeObject): void;
  /** The last state the cache held. */
  delete?(object: KubeObject): void;
}

/** The values an object is indexed under (e.g. a RoleBinding's role). Must be pure: it runs again on removal. */
export type IndexFunc = (object: KubeObject) => readonly string[];
