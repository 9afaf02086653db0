/**
 * An informer, as controllers of the real system use them: list a
 * collection, then watch from the list's resourceVersion with bookmarks;
 * resume from the last seen version when a watch ends, and start over with
 * a fresh list when the server answers 410 Gone. Keeps a cache by
 * namespace/name and reports adds, updates and deletes (a relist reports
 * the differences). Talks to the server only through the API client.
 */

import type { KubeObject } from '../api/meta';
import type { ApiClient } from '../client/client';
import type { ResourceRef } from '../client/paths';
import { ApiError } from '../client/errors';

export interface InformerHandlers {
  add?(obj: KubeObject): void;
  update?(old: KubeObject, obj: KubeObject): void;
  delete?(obj: KubeObject): void;
}

export function objectKey(obj: KubeObject): string {
  const m = obj.metadata ?? {};
  return m.namespace !== undefined && m.namespace !== '' ? `${m.namespace}/${m.name ?? ''}` : (m.name ?? '');
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(t);
      resolve();
    });
  });
}

export class Informer {
  readonly cache = new Map<string, KubeObject>();
  private readonly abort = new AbortController();
  private syncedResolve: (() => void) | undefined;
  /** Resolves after the first list has been delivered. */
  readonly synced: Promise<void>;
  private resourceVersion = '';

  constructor(
    private readonly client: ApiClient,
    private readonly ref: ResourceRef,
    private readonly handlers: InformerHandlers,
  ) {
    this.synced = new Promise((resolve) => (this.syncedResolve = resolve));
  }

  start(): void {
    void this.run();
  }

  stop(): void {
    this.abort.abort();
  }

  private async run(): Promise<void> {
    const signal = this.abort.signal;
    let backoff = 100;
    while (!signal.aborted) {
      try {
        if (this.resourceVersion === '') await this.relist();
        backoff = 100;
        await this.watch(signal);
      } catch (e) {
        if (signal.aborted) return;
        if (e instanceof ApiError && (e.code === 410 || e.code === 404)) this.resourceVersion = '';
        await sleep(backoff, signal);
        backoff = Math.min(backoff * 2, 5000);
      }
    }
  }

  private async relist(): Promise<void> {
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
    this.resourceVersion = list.metadata.resourceVersion ?? '';
    this.syncedResolve?.();
  }

  private async watch(signal: AbortSignal): Promise<void> {
    const events = this.client.watch(
      this.ref,
      { resourceVersion: this.resourceVersion, allowWatchBookmarks: true },
      signal,
    );
    for await (const event of events) {
      if (event.type === 'ERROR') {
        const status = event.object as { code?: number };
        // 410: our version is gone from the history; anything else: start over too.
        this.resourceVersion = '';
        if (status.code !== 410) throw new Error('watch failed');
        return;
      }
      const obj = event.object as KubeObject;
      const rv = obj.metadata?.resourceVersion;
      if (rv !== undefined) this.resourceVersion = rv;
      if (event.type === 'BOOKMARK') continue;
      const key = objectKey(obj);
      const old = this.cache.get(key);
      if (event.type === 'DELETED') {
        this.cache.delete(key);
        this.handlers.delete?.(obj);
      } else {
        this.cache.set(key, obj);
        if (old === undefined) this.handlers.add?.(obj);
        else this.handlers.update?.(old, obj);
      }
    }
  }
}
