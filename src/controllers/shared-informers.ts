/**
 * Shared informers, as the controller manager's informer factory: one
 * list-then-watch per resource, whatever the number of controllers that
 * read it, each controller adding its own handlers. The workload
 * controllers all follow Pods; without sharing, every Pod write would be
 * encoded and delivered once per controller. The caches are indexed by
 * namespace, since every workload controller looks at one namespace's
 * objects at a time. Informers list and watch with the controller
 * manager's own credentials (its `list watch` on everything); the
 * controllers write as themselves.
 */

import type { KubeObject } from '../api/meta';
import type { ApiClient } from '../client/client';
import type { ResourceRef } from '../client/paths';
import { Informer, objectKey, type InformerHandlers } from './informer';
import type { Controller } from './types';

/** One resource's informer, shared: a cache with a namespace index and any number of handler sets. */
export class SharedInformer {
  private readonly handlers: InformerHandlers[] = [];
  private readonly namespaces = new Map<string, Map<string, KubeObject>>();
  private readonly informer: Informer;

  constructor(client: ApiClient, ref: ResourceRef) {
    const index = (obj: KubeObject): void => {
      const ns = obj.metadata?.namespace ?? '';
      let byName = this.namespaces.get(ns);
      if (byName === undefined) this.namespaces.set(ns, (byName = new Map()));
      byName.set(obj.metadata?.name ?? '', obj);
    };
    const unindex = (obj: KubeObject): void => {
      const ns = obj.metadata?.namespace ?? '';
      const byName = this.namespaces.get(ns);
      byName?.delete(obj.metadata?.name ?? '');
      if (byName?.size === 0) this.namespaces.delete(ns);
    };
    this.informer = new Informer(client, ref, {
      add: (obj) => {
        index(obj);
        for (const h of this.handlers) h.add?.(obj);
      },
      update: (old, obj) => {
        index(obj);
        for (const h of this.handlers) h.update?.(old, obj);
      },
      delete: (obj) => {
        unindex(obj);
        for (const h of this.handlers) h.delete?.(obj);
      },
      relisted: () => {
        for (const h of this.handlers) h.relisted?.();
      },
    });
  }

  /** Resolves after the first list has been delivered (or once stopped). */
  get synced(): Promise<void> {
    return this.informer.synced;
  }

  /** Handlers added before the factory starts hear every object of the first list as an add. */
  addHandlers(handlers: InformerHandlers): void {
    this.handlers.push(handlers);
  }

  get(namespace: string | undefined, name: string): KubeObject | undefined {
    return this.informer.cache.get(
      objectKey({ metadata: { name, ...(namespace !== undefined ? { namespace } : {}) } }),
    );
  }

  /** The cached objects of one namespace (cluster-scoped objects: `''`). */
  inNamespace(namespace: string): KubeObject[] {
    return [...(this.namespaces.get(namespace)?.values() ?? [])];
  }

  list(): KubeObject[] {
    return [...this.informer.cache.values()];
  }

  start(): void {
    this.informer.start();
  }

  stop(): void {
    this.informer.stop();
  }
}

function refKey(ref: ResourceRef): string {
  return `${ref.group}/${ref.version}/${ref.resource}`;
}

/**
 * The factory: `informer(ref)` returns the one informer of that resource, made on first use. Controllers ask
 * for their informers and add handlers when built; the factory, started after them, starts every informer.
 */
export class SharedInformers implements Controller {
  readonly name = 'shared-informers';
  private readonly informers = new Map<string, SharedInformer>();
  private started = false;
  private stopped = false;

  constructor(private readonly client: ApiClient) {}

  informer(ref: ResourceRef): SharedInformer {
    const key = refKey(ref);
    let informer = this.informers.get(key);
    if (informer === undefined) {
      informer = new SharedInformer(this.client, {
        group: ref.group,
        version: ref.version,
        resource: ref.resource,
      });
      this.informers.set(key, informer);
      if (this.started && !this.stopped) informer.start();
    }
    return informer;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    for (const i of this.informers.values()) i.start();
  }

  stop(): void {
    this.stopped = true;
    for (const i of this.informers.values()) i.stop();
  }

  /** Resolves once every informer made so far has listed. */
  async idle(): Promise<void> {
    if (!this.started) return;
    await Promise.all([...this.informers.values()].map((i) => i.synced));
  }
}
