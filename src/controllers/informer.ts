/**
 * An informer, as controllers of the real system use them: a cache of one
 * collection by namespace/name, kept current by the client's list-then-watch
 * loop (`listWatch`, which owns resuming, relisting on 410 Gone and backoff),
 * reporting adds, updates and deletes to its handlers. A relist replaces the
 * cache and reports the differences, so a handler sees a delete that
 * happened while the watch was down. Talks to the server only through the
 * API client.
 */

import type { KubeObject, WatchEvent } from '../api/meta';
import type { ApiClient } from '../client/client';
import { listWatch, type BackoffPolicy } from '../client/list-watch';
import type { ResourceRef } from '../client/paths';

export interface InformerHandlers {
  add?(obj: KubeObject): void;
  update?(old: KubeObject, obj: KubeObject): void;
  delete?(obj: KubeObject): void;
}

export interface InformerOptions {
  /** Overrides of the list-then-watch backoff (tests shorten it). */
  backoff?: Partial<BackoffPolicy>;
}

export function objectKey(obj: KubeObject): string {
  const m = obj.metadata ?? {};
  return m.namespace !== undefined && m.namespace !== '' ? `${m.namespace}/${m.name ?? ''}` : (m.name ?? '');
}

export class Informer {
  readonly cache = new Map<string, KubeObject>();
  /** Resolves after the first list has been delivered. */
  readonly synced: Promise<void>;
  private readonly abort = new AbortController();
  private markSynced: () => void = () => undefined;

  constructor(
    private readonly client: ApiClient,
    private readonly ref: ResourceRef,
    private readonly handlers: InformerHandlers,
    private readonly options: InformerOptions = {},
  ) {
    this.synced = new Promise((resolve) => (this.markSynced = resolve));
  }

  start(): void {
    void listWatch({
      client: this.client,
      ref: this.ref,
      signal: this.abort.signal,
      list: () => this.relist(),
      handlers: {
        onList: () => this.markSynced(),
        onEvent: (event) => this.apply(event),
      },
      ...(this.options.backoff !== undefined ? { backoff: this.options.backoff } : {}),
    });
  }

  stop(): void {
    this.abort.abort();
  }

  /** Lists, reports what changed against the cache, and returns the list's version to watch from. */
  private async relist(): Promise<string> {
    const list = await this.client.list(this.ref);
    const seen = new Set<string>();
    for (const item of list.items) {
      const key = objectKey(item);
      seen.add(key);
      const old = this.cache.get(key);
      this.cache.set(key, item);
      if (old === undefined) this.handlers.add?.(item);
      else if (old.metadata?.resourceVersion !== item.metadata?.resourceVersion)
        this.handlers.update?.(old, item);
    }
    for (const [key, old] of [...this.cache]) {
      if (seen.has(key)) continue;
      this.cache.delete(key);
      this.handlers.delete?.(old);
    }
    return list.metadata.resourceVersion ?? '';
  }

  private apply(event: WatchEvent & { object: KubeObject }): void {
    if (event.type === 'BOOKMARK') return;
    const obj = event.object;
    const key = objectKey(obj);
    if (event.type === 'DELETED') {
      this.cache.delete(key);
      this.handlers.delete?.(obj);
      return;
    }
    const old = this.cache.get(key);
    this.cache.set(key, obj);
    if (old === undefined) this.handlers.add?.(obj);
    else this.handlers.update?.(old, obj);
  }
}
