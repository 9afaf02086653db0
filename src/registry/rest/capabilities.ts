/**
 * The capabilities a REST storage may have, in the shape of the real
 * server's `rest` package: each served resource and each subresource is one
 * storage object implementing the ones it supports. The dispatcher accepts
 * a method on a path only when the storage behind it has the matching
 * capability, and discovery's verbs are derived from the same facts
 * (`verbsOf`), so the two cannot disagree.
 *
 * | capability        | verb(s)            | HTTP                         |
 * |-------------------|--------------------|------------------------------|
 * | Getter            | get                | GET on a name                |
 * | Lister            | list               | GET on a collection          |
 * | Watcher           | watch              | GET …?watch=1                |
 * | Creater           | create             | POST to a collection         |
 * | NamedCreater      | create             | POST to a name/subresource   |
 * | Updater           | update (+ patch with Getter) | PUT, PATCH         |
 * | GracefulDeleter   | delete             | DELETE on a name             |
 * | CollectionDeleter | deletecollection   | DELETE on a collection       |
 * | Connecter         | per connect method | log, exec, attach, proxy, …  |
 *
 * One capability serves no verb: a StoredEntryGetter's current GET answer is
 * its stored entry as is, so the HTTP layer may keep that answer's text per
 * entry.
 */

import type { StreamSession } from '../../api/node-agent';
import type { KubeObject, Status } from '../../api/meta';
import type { StoredObject } from '../../storage/types';
import type { DeleteRequestOptions } from '../deletion';
import type { ResourceType } from '../resource-type';
import type { RequestScope } from './scope';

/** A list request after the HTTP layer decoded it (the continue token into a position). */
export interface ListRequest {
  /** `resourceVersion` as sent ('' when absent). */
  resourceVersion: string;
  resourceVersionMatch: string;
  /** Page size; 0 for everything. */
  limit: number;
  /** From a continue token: the snapshot revision and the last key already returned. */
  continueFrom?: { revision: number; after: string };
  predicate?: (object: KubeObject) => boolean;
  /** The only name `predicate` can accept (a `metadata.name=` field selector): a hint, the predicate decides. */
  name?: string;
}

export interface ListResponse {
  items: KubeObject[];
  /** The snapshot's revision. */
  revision: number;
  /** Key of the last item when more follow (a page). */
  continueAfter?: string;
  remainingItemCount?: number;
}

export interface WatchRequest {
  /** Only this object (a watch on a name, or a `metadata.name` field selector). */
  name?: string;
  predicate?: (object: KubeObject) => boolean;
  /** Send the current state as ADDED events first. */
  initialEvents: boolean;
  /** Replay changes after this revision (Start at Exact). */
  startRevision?: number;
  /**
   * The watcher is an in-process component (`ConnectionInfo.behindClients`): its live events may wait for a
   * pause in the clients' requests (registry/generic/watch-hub.ts).
   */
  behindClients?: boolean;
}

export type WatchEmit = (type: 'ADDED' | 'MODIFIED' | 'DELETED', object: KubeObject) => void;

/** An open watch: events go to `emit` in revision order; `fail` ends it with an ERROR Status. */
export interface WatchHandle {
  /** The revision of the last event or snapshot delivered (for bookmarks). */
  lastRevision(): number;
  /** True once initial events and replayed history are delivered and live events flow. */
  isLive(): boolean;
  /** Resolves when the initial events (or the replay) have been delivered. */
  readonly started: Promise<void>;
  stop(): void;
}

export interface WatchSink {
  emit: WatchEmit;
  /** The watch cannot continue (history compacted, watcher fell behind): send this Status and close. */
  fail(status: Status): void;
  /** The initial events are all sent (before any later change): a streaming list marks this with a bookmark. */
  initialEventsEnd?(): void;
}

/** The object a PUT or PATCH wants, computed from the stored one (absent when there is none); called again on each optimistic retry. */
export type UpdatedObjectInfo = (current: KubeObject | undefined) => KubeObject | Promise<KubeObject>;

/** Field ownership for a write: the manager, and whether the write already recorded it (apply does, while merging). */
export interface FieldManagerOption {
  manager: string;
  recorded?: boolean;
}

export interface WriteOptions {
  fieldManager?: FieldManagerOption;
  /**
   * A create's object as it will be stored and answered, handed over while its commit is in flight, so that the
   * caller can encode its answer meanwhile (decision 0086). Only a storage whose answer is the stored object as
   * is calls it (the resource's own generic store); it is no success: only the create's result says that, and
   * when it succeeds its object equals what the last call saw. The object must not be changed.
   */
  issued?: (object: Readonly<KubeObject>) => void;
}

export interface UpdateOptions extends WriteOptions {
  /** Create the object when it is absent (PUT on kinds that allow it, apply). */
  createWhenMissing?: boolean;
}

export interface DeleteOptions extends DeleteRequestOptions {
  preconditions?: { uid?: string; resourceVersion?: string };
}

export interface UpdateResult {
  object: KubeObject;
  created: boolean;
}

export interface DeleteResult {
  object: KubeObject;
  /** True when the object is gone; false when it is terminating (finalizers, grace period). */
  deleted: boolean;
}

/** What a Connecter answers: a status, and a body for the ones that stream. */
export interface ConnectResponse {
  status: number;
  contentType?: string;
  /** The answer's body; a stream for a followed log. */
  body?: string | ReadableStream<Uint8Array>;
  /** An exec or attach stream to carry once the connection switched protocols (see http/handlers/connect.ts). */
  upgrade?: {
    session: StreamSession;
    streams: { stdin: boolean; stdout: boolean; stderr: boolean; tty: boolean };
  };
}

export interface GetOptions {
  /** `resourceVersion` as sent: '' or '0' any, else not older than (waiting for it, then 504). */
  resourceVersion?: string;
}

export interface Getter {
  get(scope: RequestScope, name: string, options?: GetOptions): Promise<KubeObject>;
}

export interface Lister {
  list(scope: RequestScope, request: ListRequest): Promise<ListResponse>;
}

export interface Watcher {
  watch(scope: RequestScope, request: WatchRequest, sink: WatchSink): WatchHandle;
}

export interface Creater {
  create(scope: RequestScope, object: KubeObject, options: WriteOptions): Promise<KubeObject>;
}

/** Creates through a named object's subresource (TokenRequest, Eviction, Binding). */
export interface NamedCreater {
  createNamed(
    scope: RequestScope,
    name: string,
    object: KubeObject,
    options: WriteOptions,
  ): Promise<KubeObject>;
}

export interface Updater {
  update(
    scope: RequestScope,
    name: string,
    objInfo: UpdatedObjectInfo,
    options: UpdateOptions,
  ): Promise<UpdateResult>;
}

export interface GracefulDeleter {
  delete(scope: RequestScope, name: string, options: DeleteOptions): Promise<DeleteResult>;
  /** DELETE answers with the deleted object (true) or a Status naming it. */
  readonly returnsDeletedObject: boolean;
}

export interface CollectionDeleter {
  deleteCollection(
    scope: RequestScope,
    options: DeleteOptions,
    predicate: ((object: KubeObject) => boolean) | undefined,
  ): Promise<ListResponse>;
}

/** Subresources that proxy to a node agent (log, exec, attach, portforward, proxy). */
export interface Connecter {
  /** HTTP methods the subresource accepts. */
  readonly connectMethods: readonly string[];
  connect(
    scope: RequestScope,
    name: string,
    method: string,
    query: URLSearchParams,
  ): Promise<ConnectResponse>;
}

/**
 * A storage whose objects are a view of another object (Scale of a
 * workload): apply merges into the parent, recording ownership there under
 * the subresource, so managedFields stay on the one stored object.
 */
export interface ParentUpdater {
  updateParent(
    scope: RequestScope,
    name: string,
    parent: UpdatedObjectInfo,
    options: UpdateOptions,
  ): Promise<KubeObject>;
  /** The view of a stored parent. */
  present(parent: KubeObject): KubeObject;
}

/**
 * A Getter whose answer to a current read (resourceVersion "" or "0") is the stored entry as is: the served
 * object is the stored one, or a shallow copy naming its version, and `get` has no step of its own beyond
 * that read. `peekCurrent` hands out the stored entry, uncopied (the served object is `toServedVersion(rt,
 * entry.object)`, made only when needed), so the answer's text may be kept per entry
 * (http/handlers/get-from-memory.ts): undefined when memory cannot answer, or when the storage does not
 * serve `rt` itself. A storage that wraps or replaces `get` must not offer it (`restrict` does not pass it on).
 */
export interface StoredEntryGetter {
  peekCurrent(rt: ResourceType, namespace: string, name: string): Readonly<StoredObject> | undefined;
}

/** The kind a storage serves when it differs from its resource's (Scale, Eviction, TokenRequest, …). */
export interface KindOverride {
  readonly objectKind?: { group: string; version: string; kind: string };
}

export type RestStorage = Partial<
  Getter &
    Lister &
    Watcher &
    Creater &
    NamedCreater &
    Updater &
    GracefulDeleter &
    CollectionDeleter &
    Connecter &
    ParentUpdater &
    StoredEntryGetter
> &
  KindOverride;

export const isGetter = (s: RestStorage): s is RestStorage & Getter => typeof s.get === 'function';
export const isLister = (s: RestStorage): s is RestStorage & Lister => typeof s.list === 'function';
export const isWatcher = (s: RestStorage): s is RestStorage & Watcher => typeof s.watch === 'function';
export const isCreater = (s: RestStorage): s is RestStorage & Creater => typeof s.create === 'function';
export const isNamedCreater = (s: RestStorage): s is RestStorage & NamedCreater =>
  typeof s.createNamed === 'function';
export const isUpdater = (s: RestStorage): s is RestStorage & Updater => typeof s.update === 'function';
export const isGracefulDeleter = (s: RestStorage): s is RestStorage & GracefulDeleter =>
  typeof s.delete === 'function';
export const isCollectionDeleter = (s: RestStorage): s is RestStorage & CollectionDeleter =>
  typeof s.deleteCollection === 'function';
export const isConnecter = (s: RestStorage): s is RestStorage & Connecter =>
  typeof s.connect === 'function' && Array.isArray(s.connectMethods);
export const isParentUpdater = (s: RestStorage): s is RestStorage & ParentUpdater =>
  typeof s.updateParent === 'function';
export const isStoredEntryGetter = (s: RestStorage): s is RestStorage & StoredEntryGetter =>
  typeof s.peekCurrent === 'function';

const connectVerbs: Record<string, string> = {
  GET: 'get',
  HEAD: 'get',
  POST: 'create',
  PUT: 'update',
  PATCH: 'patch',
  DELETE: 'delete',
};

/** The verbs discovery lists for a storage, as the real installer derives them from its interfaces. */
export function verbsOf(s: RestStorage): Set<string> {
  const verbs = new Set<string>();
  if (isGetter(s)) verbs.add('get');
  if (isLister(s)) verbs.add('list');
  if (isWatcher(s)) verbs.add('watch');
  if (isCreater(s) || isNamedCreater(s)) verbs.add('create');
  if (isUpdater(s)) verbs.add('update');
  // PATCH reads the object, patches it and writes it back: a Getter that is also an Updater.
  if (isUpdater(s) && isGetter(s)) verbs.add('patch');
  if (isGracefulDeleter(s)) verbs.add('delete');
  if (isCollectionDeleter(s)) verbs.add('deletecollection');
  if (isConnecter(s))
    for (const m of s.connectMethods) if (connectVerbs[m] !== undefined) verbs.add(connectVerbs[m]);
  return verbs;
}
