/**
 * A small typed client for the API over any `fetch`: the page's own (answered
 * by the service worker), a server's `fetch` function handed in directly, or
 * Node's against a remote host. Every method maps to one request; failures
 * throw `ApiError` carrying the server's Status body.
 */

import type { KubeList, KubeObject, Status, WatchEvent } from '../api/meta';
import { discover } from './discovery';
import type { Discovery } from './discovery-types';
import { errorFromResponse } from './errors';
import { resourcePath, withQuery, type QueryParams, type ResourceRef } from './paths';
import { readWatchEvents } from './watch-stream';
import { parseWarnings } from './warnings';

export type FetchFunction = (request: Request) => Promise<Response>;

export interface ClientOptions {
  /** Prefix of every request URL, e.g. `https://127.0.0.1:6443`; empty means relative to the page. */
  baseUrl?: string;
  /** How requests are sent; default the global `fetch`. */
  fetch?: FetchFunction;
  /** Headers sent with every request (e.g. `authorization`). */
  headers?: Record<string, string>;
}

/** The patch flavours the API accepts, by their content type. */
export type PatchContentType =
  | 'application/json-patch+json'
  | 'application/merge-patch+json'
  | 'application/strategic-merge-patch+json'
  | 'application/apply-patch+yaml';

/** A reference that names one object. */
export type ObjectRef = ResourceRef & { name: string };

/** What `send` sends besides method and path. */
export interface SendOptions {
  /** Sent as is when a string, as JSON otherwise. */
  body?: unknown;
  /** Content type of the body; default `application/json`. */
  contentType?: string;
  /** Default `application/json`. */
  accept?: string;
  query?: QueryParams;
  signal?: AbortSignal;
}

/** A successful answer with what the verb methods leave out: status and headers. */
export interface ApiResponse<T> {
  status: number;
  headers: Headers;
  /** The texts of the `Warning` header (unknown fields, deprecated APIs). */
  warnings: string[];
  body: T;
}

export interface ApiClient {
  /** Groups, versions and resources the server serves. */
  discovery(): Promise<Discovery>;
  get<T extends KubeObject = KubeObject>(ref: ObjectRef, query?: QueryParams): Promise<T>;
  list<T extends KubeObject = KubeObject>(ref: ResourceRef, query?: QueryParams): Promise<KubeList<T>>;
  /** POSTs `object` to the collection `ref` names (its `name`, if any, is ignored). */
  create<T extends KubeObject = KubeObject>(ref: ResourceRef, object: T, query?: QueryParams): Promise<T>;
  update<T extends KubeObject = KubeObject>(ref: ObjectRef, object: T, query?: QueryParams): Promise<T>;
  /** Returns the deleted object (or the object with a deletionTimestamp while finalizers run), or a Success Status. */
  delete(ref: ObjectRef, options?: KubeObject, query?: QueryParams): Promise<KubeObject | Status>;
  /** `patch` is sent as is when it is a string (YAML for apply), as JSON otherwise. */
  patch<T extends KubeObject = KubeObject>(
    ref: ObjectRef,
    patch: unknown,
    contentType: PatchContentType,
    query?: QueryParams,
  ): Promise<T>;
  /**
   * Watch events of a collection until `signal` aborts or the server ends the stream; `accept` asks for
   * another form of the event objects (e.g. one-row Tables).
   */
  watch(
    ref: ResourceRef,
    query?: QueryParams,
    signal?: AbortSignal,
    accept?: string,
  ): AsyncIterable<WatchEvent>;
  /** One request with the answer's status, headers and warnings; non-2xx throws `ApiError` (which carries warnings too). */
  send<T = unknown>(method: string, path: string, options?: SendOptions): Promise<ApiResponse<T>>;
  /** Sends one request to an API path and returns the raw response (no error mapping). */
  raw(
    method: string,
    path: string,
    init?: { body?: string; headers?: Record<string, string>; signal?: AbortSignal },
  ): Promise<Response>;
}

export function createClient(options: ClientOptions = {}): ApiClient {
  const baseUrl = options.baseUrl ?? '';
  const transport: FetchFunction = options.fetch ?? ((request) => globalThis.fetch(request));
  const commonHeaders = options.headers ?? {};

  const raw: ApiClient['raw'] = (method, path, init = {}) => {
    const headers = new Headers({ accept: 'application/json', ...commonHeaders, ...init.headers });
    const requestInit: RequestInit = { method, headers };
    if (init.body !== undefined) requestInit.body = init.body;
    if (init.signal !== undefined) requestInit.signal = init.signal;
    return transport(new Request(absolute(baseUrl, path), requestInit));
  };

  const send: ApiClient['send'] = async <T>(method: string, path: string, options: SendOptions = {}) => {
    const headers: Record<string, string> = {};
    const init: { body?: string; headers: Record<string, string>; signal?: AbortSignal } = { headers };
    if (options.accept !== undefined) headers['accept'] = options.accept;
    if (options.body !== undefined) {
      init.body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['content-type'] = options.contentType ?? 'application/json';
    }
    if (options.signal !== undefined) init.signal = options.signal;
    const response = await raw(method, withQuery(path, options.query), init);
    if (!response.ok) throw await errorFromResponse(response, method);
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      warnings: parseWarnings(response.headers.get('warning')),
      body: (text === '' ? undefined : JSON.parse(text)) as T,
    };
  };

  async function call<T>(
    method: string,
    path: string,
    body?: unknown,
    contentType = 'application/json',
  ): Promise<T> {
    const options: SendOptions = { contentType };
    if (body !== undefined) options.body = body;
    return (await send<T>(method, path, options)).body;
  }

  const collection = (ref: ResourceRef): ResourceRef => {
    const { name: _name, subresource: _subresource, ...rest } = ref;
    return rest;
  };

  return {
    discovery: () =>
      discover(
        async <T>(path: string, accept?: string) =>
          (await send<T>('GET', path, accept !== undefined ? { accept } : {})).body,
      ),
    get: (ref, query) => call('GET', withQuery(resourcePath(ref), query)),
    list: (ref, query) => call('GET', withQuery(resourcePath(collection(ref)), query)),
    create: (ref, object, query) => call('POST', withQuery(resourcePath(collection(ref)), query), object),
    update: (ref, object, query) => call('PUT', withQuery(resourcePath(ref), query), object),
    delete: (ref, deleteOptions, query) => call('DELETE', withQuery(resourcePath(ref), query), deleteOptions),
    patch: (ref, patch, contentType, query) =>
      call('PATCH', withQuery(resourcePath(ref), query), patch, contentType),
    watch: (ref, query, signal, accept) => ({
      async *[Symbol.asyncIterator]() {
        const path = withQuery(resourcePath(collection(ref)), { ...query, watch: true });
        const response = await raw('GET', path, {
          ...(signal !== undefined ? { signal } : {}),
          ...(accept !== undefined ? { headers: { accept } } : {}),
        });
        if (!response.ok) throw await errorFromResponse(response, 'GET');
        yield* readWatchEvents(response);
      },
    }),
    send,
    raw,
  };
}

function absolute(baseUrl: string, path: string): string {
  if (baseUrl !== '') return baseUrl.replace(/\/+$/, '') + path;
  // A relative Request URL resolves against the document or worker; elsewhere (Node) there is nothing to resolve against.
  return path;
}
