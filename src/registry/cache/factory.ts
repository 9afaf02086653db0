/**
 * The server's shared informers: one per storage collection, created on
 * first request and shared by every consumer that asks for it, so that the
 * registrar, admission plugins and the authorizer cost one cache and one
 * commit subscription per collection between them. The composition root
 * starts the factory once, resyncs it after the state was replaced
 * underneath (sandbox import), and stops it at close.
 */

import type { GroupResource } from '../../machinery/errors';
import type { Storage } from '../../storage/types';
import { SharedInformer } from './informer';
import type { Lister } from './types';

export class SharedInformerFactory {
  private readonly informers = new Map<string, SharedInformer>();
  private started = false;

  constructor(private readonly storage: Storage) {}

  /**
   * The informer of a storage collection (`ResourceType.storage`: every
   * version of a resource shares one). Once the factory has started, a new
   * informer starts at once; await its `synced` before trusting its lister.
   */
  informerFor(resource: GroupResource): SharedInformer {
    const id = `${resource.group}/${resource.resource}`;
    let informer = this.informers.get(id);
    if (informer === undefined) {
      informer = new SharedInformer(this.storage, { group: resource.group, resource: resource.resource });
      this.informers.set(id, informer);
      if (this.started)
        informer.start().catch((error: unknown) => console.error(`informer ${id} failed to start`, error));
    }
    return informer;
  }

  /** Shorthand for `informerFor(resource).lister`. */
  listerFor(resource: GroupResource): Lister {
    return this.informerFor(resource).lister;
  }

  /** Starts every informer created so far (and later ones as they are created); resolves when all have synced. */
  async start(): Promise<void> {
    this.started = true;
    await Promise.all([...this.informers.values()].map((i) => i.start()));
  }

  /** Resolves when every informer created so far has synced (never, for one that is not started). */
  async waitForCacheSync(): Promise<void> {
    await Promise.all([...this.informers.values()].map((i) => i.synced));
  }

  /**
   * Lists every started informer again and reports the differences to
   * handlers: needed after `Storage.importState` (which emits no commits);
   * after a reset by deletes it finds nothing to do.
   */
  async resync(): Promise<void> {
    await Promise.all([...this.informers.values()].map((i) => i.resync()));
  }

  /** Stops every informer; their listers keep the last state. */
  stop(): void {
    this.started = false;
    for (const informer of this.informers.values()) informer.stop();
  }
}
