/**
 * An informer, as controllers of the real system use them: a cache of one
 * collection by namespace/name, kept current by the client's list-then-watch
 * loop (`listWatch`, which owns resuming, relisting on 410 Gone and backoff),
 * reporting adds, updates and deletes to its handlers. A relist replaces the
 * cache and reports the differences, so a handler sees a delete that
 * happened while the watch was down. Talks to the server only through the
 * API client.
 */

import type { KubeList, KubeObject, WatchEvent } from '../api/meta';
import type { ApiClient } from './client';
import { ApiError } from './errors';
import { listWatch, type BackoffPolicy } from './list-watch';
import { resourcePath, withQuery, type QueryParams, type ResourceRef } from './paths';

export interface InformerHandlers {
  add?(obj: KubeObject): void;
  update?(old: KubeObject, obj: KubeObject): void;
  delete?(obj: KubeObject): void;
  /** After each list (the first and every relist) has been applied. */
  relisted?(): void;
}

export interface InformerOptions {
  /** Overrides of the list-then-watch backoff (tests shorten it). */
  backoff?: Partial<BackoffPolicy>;
  /** Selectors sent with the list and the watch: the informer sees only what they select. */
  query?: QueryParams;
  /**
   * Which objects the cache keeps (default all). Handlers still hear of every object; one not kept is not
   * compared on a relist (it is reported as added again), so a controller that needs only a few objects of a
   * large collection holds those, not the collection.
   */
  retain?: (obj: KubeObject) => boolean;
  /**
   * Metadata only (client-go's metadata informer), given the meta group (`meta.k8s.io` or the profile's):
   * the list and the watch ask for PartialObjectMetadata, so a controller that reads only metadata is not
   * sent whole objects (a ConfigMap of 100,000 keys).
   */
  metadataOnly?: string;
}

/** client-go's pager default. */
const pageSize = 500;

export function objectKey(obj: KubeObject): string {
  const m = obj.metadata ?? {};
  return m.namespace !== undefined && m.namespace !== '' ? `${m.namespace}/${m.name ?? ''}` : (m.name ?? '');
}

export class Informer {
  readonly cache = new Map<string, KubeObject>();
  /** Resolves after the first list has been delivered, or once the informer is stopped. */
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
      ...(this.options.query !== undefined ? { query: this.options.query } : {}),
      ...(this.options.metadataOnly !== undefined
        ? { accept: `application/json;as=PartialObjectMetadata;g=${this.options.metadataOnly};v=v1` }
        : {}),
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
    // Whoever waits for the first list (a controller's idle()) is not left waiting on a stopped informer.
    this.markSynced();
  }

  /**
   * Lists in pages of `pageSize`, as client-go's pager does, reporting what changed against the cache, and
   * returns the list's version to watch from. Pages let the requests that arrive meanwhile in the same
   * process (a worker just started over a large store) be served between them, instead of after one list of
   * the whole collection; and only one page is held at a time. A continue token that expired mid-way (a
   * compaction) falls back to one unpaged list, as the pager does.
   */
  private async relist(): Promise<string> {
    const seen = new Set<string>();
    let token: string | undefined;
    let resourceVersion = '';
    do {
      let list;
      try {
        list = await this.list({
          ...this.options.query,
          limit: pageSize,
          ...(token !== undefined ? { continue: token } : {}),
        });
      } catch (e) {
        if (!(token !== undefined && e instanceof ApiError && e.code === 410)) throw e;
        // The whole list again, at a newer revision: what the earlier pages showed may be gone by now.
        seen.clear();
        list = await this.list(this.options.query);
      }
      for (const item of list.items) {
        const key = objectKey(item);
        seen.add(key);
        const old = this.cache.get(key);
        this.keep(key, item);
        if (old === undefined) this.handlers.add?.(item);
        else if (old.metadata?.resourceVersion !== item.metadata?.resourceVersion)
          this.handlers.update?.(old, item);
      }
      resourceVersion = list.metadata.resourceVersion ?? '';
      token =
        list.metadata.continue !== undefined && list.metadata.continue !== ''
          ? list.metadata.continue
          : undefined;
    } while (token !== undefined);
    for (const [key, old] of [...this.cache]) {
      if (seen.has(key)) continue;
      this.cache.delete(key);
      this.handlers.delete?.(old);
    }
    this.handlers.relisted?.();
    return resourceVersion;
  }

  private async list(query: QueryParams | undefined): Promise<KubeList> {
    const group = this.options.metadataOnly;
    if (group === undefined) return this.client.list(this.ref, query);
    const accept = `application/json;as=PartialObjectMetadataList;g=${group};v=v1`;
    const path = withQuery(resourcePath({ ...this.ref, name: undefined }), query);
    return (await this.client.send<KubeList>('GET', path, { accept })).body;
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
    this.keep(key, obj);
    if (old === undefined) this.handlers.add?.(obj);
    else this.handlers.update?.(old, obj);
  }

  private keep(key: string, obj: KubeObject): void {
    if (this.options.retain === undefined || this.options.retain(obj)) this.cache.set(key, obj);
    else this.cache.delete(key);
  }
}
