/**
 * The list-then-watch loop every live view runs, as client-go's reflector
 * does: list, watch from the list's resourceVersion, resume the watch from
 * the last seen version when the stream ends, and list again on 410 Gone
 * (the history was compacted past that version, or the state was replaced).
 * Failures back off and retry; the loop ends only when `signal` aborts.
 */

import type { KubeObject, Status, WatchEvent } from '../api/meta';
import type { ApiClient } from './client';
import { ApiError, isStatus } from './errors';
import type { QueryParams, ResourceRef } from './paths';

export interface ListWatchHandlers {
  /** A full state: the first list and every relist. Replace what you hold. */
  onList(resourceVersion: string): void;
  /** ADDED, MODIFIED, DELETED or BOOKMARK, in order. */
  onEvent(event: WatchEvent & { object: KubeObject }): void;
  /** The watch answered 410 Gone; a relist follows at once. */
  onGone?(status: Status): void;
  /** A failure; the loop retries after `retryInMs`. */
  onError?(error: unknown, retryInMs: number): void;
  /** The watch is open (after a list or a resume) at this version. */
  onWatching?(resourceVersion: string): void;
}

export interface ListWatchOptions {
  client: ApiClient;
  ref: ResourceRef;
  /** Selectors and the like, sent with the list and the watch. */
  query?: QueryParams;
  /** Performs the list (e.g. as a Table) and returns its resourceVersion. */
  list: (signal: AbortSignal) => Promise<string>;
  /** The Accept header of the watch (e.g. Tables, so each event carries its rendered row). */
  accept?: string;
  handlers: ListWatchHandlers;
  signal: AbortSignal;
}

const maxBackoffMs = 10_000;

export async function listWatch(options: ListWatchOptions): Promise<void> {
  const { client, ref, query, handlers, signal } = options;
  let resourceVersion: string | undefined;
  let backoff = 500;
  while (!signal.aborted) {
    try {
      if (resourceVersion === undefined) {
        resourceVersion = await options.list(signal);
        handlers.onList(resourceVersion);
      }
      handlers.onWatching?.(resourceVersion);
      const events = client.watch(
        ref,
        { ...query, resourceVersion, allowWatchBookmarks: true },
        signal,
        options.accept,
      );
      for await (const event of events) {
        if (event.type === 'ERROR') {
          const status = isStatus(event.object) ? event.object : undefined;
          if (status?.code === 410) {
            handlers.onGone?.(status);
            resourceVersion = undefined;
            break;
          }
          throw new ApiError(
            status ?? { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 500 },
          );
        }
        const object = event.object as KubeObject;
        const version = object.metadata?.resourceVersion;
        if (version !== undefined && version !== '') resourceVersion = version;
        handlers.onEvent({ type: event.type, object });
      }
      backoff = 500;
    } catch (error) {
      if (signal.aborted) return;
      if (error instanceof ApiError && error.code === 410) {
        handlers.onGone?.(error.status);
        resourceVersion = undefined;
        continue;
      }
      handlers.onError?.(error, backoff);
      await sleep(backoff, signal);
      backoff = Math.min(backoff * 2, maxBackoffMs);
    }
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
