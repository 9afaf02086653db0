/**
 * The Watch inspector as step checks see it (`events` in CEL): each line it
 * received — ADDED, MODIFIED, DELETED, BOOKMARK and ERROR events with their
 * resourceVersion and object, and the inspector's own REQUEST, RELIST and
 * END lines — and how "Show me" starts a watch in it. In the browser the
 * real inspector view publishes its lines (src/ui/learn adapts it); in Node
 * `ClientWatchInspector` runs the same list, watch and relist-on-410
 * sequence through a client.
 */

import type { JsonValue, KubeObject } from '../api/meta';
import { ApiError, isStatus, withQuery, type ApiClient } from '../client/index';
import { readWatchEvents } from '../client/watch-stream';
import type { WatchRequest } from './format';

export type InspectorEventType =
  'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR' | 'REQUEST' | 'RELIST' | 'END' | 'NOTE';

export interface InspectorEvent {
  /** Epoch milliseconds when it arrived. */
  at: number;
  type: InspectorEventType;
  resourceVersion?: string;
  namespace?: string;
  name?: string;
  /** The event's object (a Status for ERROR). */
  object?: JsonValue;
  /** The HTTP status or Status code of an ERROR. */
  code?: number;
  /** The inspector's words: the request line, "listed 2 objects at resourceVersion 12", why it ended. */
  text?: string;
}

export interface WatchInspector {
  events(): readonly InspectorEvent[];
  subscribe(listener: () => void): () => void;
  /** Starts (or restarts) the watch `request` describes, sent through `client`. */
  start(request: WatchRequest, client: ApiClient): void;
  stop(): void;
}

const maxEvents = 5000;

/** The inspector's sequence through a client, for hosts without the inspector view. */
export class ClientWatchInspector implements WatchInspector {
  private list: InspectorEvent[] = [];
  private readonly listeners = new Set<() => void>();
  private abort: AbortController | undefined;

  events(): readonly InspectorEvent[] {
    return this.list;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  stop(): void {
    this.abort?.abort();
    this.abort = undefined;
  }

  start(request: WatchRequest, client: ApiClient): void {
    this.stop();
    const controller = new AbortController();
    this.abort = controller;
    void this.run(request, client, controller.signal).catch((error: unknown) => {
      if (!controller.signal.aborted)
        this.add({ type: 'END', text: `failed: ${error instanceof Error ? error.message : String(error)}` });
    });
  }

  private add(event: Omit<InspectorEvent, 'at'>): void {
    this.list = [...this.list, { ...event, at: Date.now() }].slice(-maxEvents);
    for (const listener of this.listeners) listener();
  }

  private async relist(request: WatchRequest, client: ApiClient, signal: AbortSignal): Promise<string> {
    const query = selectors(request.query);
    this.add({ type: 'RELIST', text: `GET ${withQuery(request.path, query)}` });
    const answer = await client.send<{ items: KubeObject[]; metadata: { resourceVersion?: string } }>(
      'GET',
      request.path,
      { query, signal },
    );
    const rv = answer.body.metadata.resourceVersion ?? '';
    const n = answer.body.items.length;
    this.add({
      type: 'RELIST',
      resourceVersion: rv,
      text: `listed ${n} object${n === 1 ? '' : 's'} at resourceVersion ${rv}`,
    });
    return rv;
  }

  private async run(request: WatchRequest, client: ApiClient, signal: AbortSignal): Promise<void> {
    let version =
      request.listFirst === true
        ? await this.relist(request, client, signal)
        : request.query?.['resourceVersion'];
    for (;;) {
      const query = {
        ...request.query,
        ...(version !== undefined ? { resourceVersion: version } : {}),
        watch: 'true',
      };
      this.add({ type: 'REQUEST', text: `GET ${withQuery(request.path, query)}` });
      const gone = await this.watchOnce(request.path, query, client, signal);
      if (!gone || request.relistOnGone !== true || signal.aborted) return;
      version = await this.relist(request, client, signal);
    }
  }

  /** One watch; true when it ended with 410 Gone. */
  private async watchOnce(
    path: string,
    query: Record<string, string>,
    client: ApiClient,
    signal: AbortSignal,
  ): Promise<boolean> {
    try {
      const response = await client.raw('GET', withQuery(path, query), { signal });
      if (!response.ok) {
        const body = (await response.json().catch(() => undefined)) as JsonValue | undefined;
        this.add({
          type: 'ERROR',
          code: response.status,
          ...(body !== undefined ? { object: body } : {}),
          text: `HTTP ${response.status}`,
        });
        return response.status === 410;
      }
      for await (const event of readWatchEvents(response)) {
        if (event.type === 'ERROR') {
          const code = isStatus(event.object) ? event.object.code : undefined;
          this.add({
            type: 'ERROR',
            object: event.object as JsonValue,
            ...(code !== undefined ? { code } : {}),
          });
          if (code === 410) return true;
          continue;
        }
        const object = event.object as KubeObject;
        this.add({
          type: event.type,
          resourceVersion: object.metadata?.resourceVersion ?? '',
          ...(object.metadata?.namespace !== undefined ? { namespace: object.metadata.namespace } : {}),
          ...(object.metadata?.name !== undefined ? { name: object.metadata.name } : {}),
          object: object as JsonValue,
        });
      }
      this.add({ type: 'END', text: 'the server ended the stream' });
      return false;
    } catch (error) {
      if (signal.aborted) {
        this.add({ type: 'END', text: 'stopped' });
        return false;
      }
      if (error instanceof ApiError && error.code === 410) {
        this.add({ type: 'ERROR', code: 410, object: error.status as unknown as JsonValue });
        return true;
      }
      throw error;
    }
  }
}

function selectors(query: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of ['labelSelector', 'fieldSelector']) if (query?.[key] !== undefined) out[key] = query[key];
  return out;
}
