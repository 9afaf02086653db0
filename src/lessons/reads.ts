/**
 * What a check reads, turned into CEL variables, and when to read it again.
 * Objects and lists are kept by a list-then-watch per collection (the
 * client's reflector loop), so a change to what a check names re-evaluates
 * it at once; the request log, the admission trace of the learner's last
 * write, the Watch inspector's events, plain GETs and access reviews are
 * read again whenever a request completes or an event arrives. A read that
 * fails (forbidden, not found, not served) says why, in words the step shows.
 */

import type { JsonValue, KubeObject } from '../api/meta';
import {
  ApiError,
  listWatch,
  parseApiVersion,
  resourcePath,
  type ApiClient,
  type ResourceRef,
} from '../client/index';
import type { NamingProfile } from '../machinery/naming';
import type { CheckRead, CollectionReference, ObjectReference } from './format';
import type { InspectorEvent } from './inspector';
import { headerRecord, type JournalEntry } from './journal';

/** The variables a read bound, and why it could not read, if it could not. */
export interface ReadResult {
  values: Record<string, JsonValue | undefined>;
  problem?: string;
}

/** The largest number of items a check's list read keeps. */
export const MAX_LIST_ITEMS = 500;

/** One collection kept current by a list and a watch. */
export class CollectionCache {
  private readonly items = new Map<string, KubeObject>();
  private error: unknown;
  private synced = false;
  private abort = new AbortController();

  constructor(
    private readonly client: ApiClient,
    readonly ref: ResourceRef,
    private readonly query: Record<string, string>,
    private readonly onChange: () => void,
  ) {
    this.run();
  }

  private run(): void {
    const signal = this.abort.signal;
    void listWatch({
      client: this.client,
      ref: this.ref,
      query: this.query,
      signal,
      list: async (sig) => {
        const list = await this.client.list(this.ref, { ...this.query, limit: MAX_LIST_ITEMS });
        if (sig.aborted) return list.metadata.resourceVersion ?? '';
        this.items.clear();
        for (const item of list.items) this.items.set(keyOf(item), item);
        this.error = undefined;
        this.synced = true;
        return list.metadata.resourceVersion ?? '';
      },
      handlers: {
        onList: () => this.onChange(),
        onEvent: (event) => {
          if (event.type === 'BOOKMARK') return;
          if (event.type === 'DELETED') this.items.delete(keyOf(event.object));
          else this.items.set(keyOf(event.object), event.object);
          this.onChange();
        },
        onError: (error) => {
          this.error = error;
          this.synced = false;
          this.onChange();
        },
      },
    });
  }

  /** After a failure, tries again now instead of after the backoff (the learner just did something). */
  retry(): void {
    if (this.error === undefined) return;
    this.abort.abort();
    this.abort = new AbortController();
    this.error = undefined;
    this.run();
  }

  stop(): void {
    this.abort.abort();
  }

  state(): { items: KubeObject[]; error: unknown; synced: boolean } {
    return { items: [...this.items.values()], error: this.error, synced: this.synced };
  }
}

function keyOf(object: KubeObject): string {
  return `${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''}`;
}

/** The collection an object or list read watches. */
export function collectionOf(read: ObjectReference | CollectionReference): {
  ref: ResourceRef;
  query: Record<string, string>;
} {
  const { group, version } = parseApiVersion(read.apiVersion);
  const ref: ResourceRef = { group, version, resource: read.resource };
  if (read.namespace !== undefined && read.namespace !== '') ref.namespace = read.namespace;
  const query: Record<string, string> = {};
  if ('name' in read) query['fieldSelector'] = `metadata.name=${read.name}`;
  else {
    if (read.labelSelector !== undefined) query['labelSelector'] = read.labelSelector;
    if (read.fieldSelector !== undefined) query['fieldSelector'] = read.fieldSelector;
  }
  return { ref, query };
}

/** A cache's state as the variables of an object read. */
export function objectResult(read: ObjectReference, cache: CollectionCache): ReadResult | undefined {
  const { items, error, synced } = cache.state();
  if (error !== undefined) return { values: { object: null }, problem: readProblem(error, describe(read)) };
  if (!synced) return undefined;
  const object = items.find((i) => i.metadata?.name === read.name);
  if (object === undefined)
    return { values: { object: null }, problem: `${describe(read)} does not exist (yet)` };
  return { values: { object: withKind(object, read.apiVersion) as JsonValue } };
}

/** A cache's state as the variables of a list read. */
export function listResult(read: CollectionReference, cache: CollectionCache): ReadResult | undefined {
  const { items, error, synced } = cache.state();
  if (error !== undefined) return { values: { items: [] }, problem: readProblem(error, describe(read)) };
  if (!synced) return undefined;
  const sorted = items.sort((a, b) => keyOf(a).localeCompare(keyOf(b)));
  return {
    values: { items: sorted.map((i) => withKind(i, read.apiVersion)) as JsonValue },
  };
}

/** A list's items carry no kind; checks read them as they read a single object. */
function withKind(object: KubeObject, apiVersion: string): KubeObject {
  return { apiVersion, ...object };
}

/** `configmaps "answer" in namespace lesson-objects`. */
export function describe(read: ObjectReference | CollectionReference): string {
  const where =
    read.namespace !== undefined && read.namespace !== '' ? ` in namespace ${read.namespace}` : '';
  return 'name' in read ? `${read.resource} "${read.name}"${where}` : `${read.resource}${where}`;
}

/** Why a read failed, in the words a step shows. */
export function readProblem(error: unknown, what: string): string {
  if (error instanceof ApiError) {
    if (error.code === 403) return `not allowed to read ${what}: ${error.message}`;
    if (error.code === 404) return `${what} cannot be read: the server does not serve it (${error.message})`;
    return `reading ${what} failed with HTTP ${error.code}: ${error.message}`;
  }
  return `reading ${what} failed: ${error instanceof Error ? error.message : String(error)}`;
}

/** A GET of any path, as `response`. */
export async function httpResult(client: ApiClient, path: string): Promise<ReadResult> {
  try {
    const response = await client.raw('GET', path);
    const text = await response.text();
    let body: JsonValue = text;
    try {
      body = JSON.parse(text) as JsonValue;
    } catch {
      // Not JSON (healthz, metrics): the text.
    }
    const headers = headerRecord(response.headers);
    const result: ReadResult = { values: { response: { status: response.status, headers, body } } };
    if (response.status === 403) result.problem = `not allowed to read ${path}`;
    return result;
  } catch (error) {
    return { values: { response: null }, problem: readProblem(error, path) };
  }
}

/** Whether `question.user` may do something, asked as the observer with a SubjectAccessReview. */
export async function accessResult(
  client: ApiClient,
  profile: NamingProfile,
  read: Extract<CheckRead, { access: unknown }>['access'],
): Promise<ReadResult> {
  const group = profile.suffixed('authorization');
  const attributes: Record<string, string> = {
    verb: read.verb,
    resource: read.resource,
    group: read.group ?? '',
  };
  if (read.subresource !== undefined) attributes['subresource'] = read.subresource;
  if (read.namespace !== undefined) attributes['namespace'] = read.namespace;
  if (read.name !== undefined) attributes['name'] = read.name;
  try {
    const answer = await client.create<KubeObject & { status?: { allowed?: boolean; reason?: string } }>(
      { group, version: 'v1', resource: 'subjectaccessreviews' },
      {
        apiVersion: `${group}/v1`,
        kind: 'SubjectAccessReview',
        spec: { user: read.user, groups: read.groups ?? [], resourceAttributes: attributes },
      },
    );
    return { values: { allowed: answer.status?.allowed === true, reason: answer.status?.reason ?? '' } };
  } catch (error) {
    return { values: { allowed: false, reason: '' }, problem: readProblem(error, 'an access review') };
  }
}

/** The requests since `since`, as `requests`. */
export function requestsResult(entries: readonly JournalEntry[], since: number): ReadResult {
  return { values: { requests: entries.filter((e) => e.at >= since) as unknown as JsonValue } };
}

/** The Watch inspector's events since `since`, as `events`. */
export function eventsResult(events: readonly InspectorEvent[], since: number): ReadResult {
  return { values: { events: events.filter((e) => e.at >= since) as unknown as JsonValue } };
}

const writeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The learner's last write since `since` (whose path contains `pathContains`), by its Audit-Id. */
export function lastWrite(
  entries: readonly JournalEntry[],
  since: number,
  pathContains: string | undefined,
): JournalEntry | undefined {
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i]!;
    if (e.at < since) break;
    if (!writeMethods.has(e.method) || e.responseHeaders['audit-id'] === undefined) continue;
    if (e.path.startsWith('/sandbox/')) continue;
    if (pathContains !== undefined && !e.path.includes(pathContains)) continue;
    return e;
  }
  return undefined;
}

/** The admission trace of a write, as `trace` (null before any write). */
export async function traceResult(client: ApiClient, write: JournalEntry | undefined): Promise<ReadResult> {
  if (write === undefined) return { values: { trace: null }, problem: 'no write since the lesson started' };
  const id = write.responseHeaders['audit-id']!;
  try {
    const answer = await client.send<JsonValue>('GET', `/sandbox/v1/traces/${encodeURIComponent(id)}`);
    return { values: { trace: answer.body } };
  } catch (error) {
    return {
      values: { trace: null },
      problem: readProblem(error, `the trace of ${write.method} ${write.path}`),
    };
  }
}

/** The path of an object reference. */
export function objectPath(read: ObjectReference): string {
  const { group, version } = parseApiVersion(read.apiVersion);
  const ref: ResourceRef & { name: string } = { group, version, resource: read.resource, name: read.name };
  if (read.namespace !== undefined && read.namespace !== '') ref.namespace = read.namespace;
  return resourcePath(ref);
}
