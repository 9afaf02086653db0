/**
 * The generic store: the REST storage of every stored resource, as the real
 * server's `registry/generic/registry.Store`. It owns what every kind's
 * writes share — the optimistic-concurrency retry loop, preconditions,
 * defaulting, field ownership, the strategy's steps, admission, dry run,
 * the deletion lifecycle — and the reads: get and list with the
 * resourceVersion semantics of the spec's tables, and watch. Subresources
 * that change the same objects (status, finalize, approval) are this store
 * with another strategy.
 */

import type { KubeObject } from '../../api/meta';
import {
  alreadyExists,
  conflict,
  invalid,
  notFound,
  resourceExpired,
  staleResourceVersion,
  StatusError,
} from '../../machinery/errors';
import { randomSuffix } from '../../machinery/ids';
import { breathe, runSliced } from '../../machinery/cooperative';
import { deepClone, deepCloneSliced, deepEqualSliced, dropNulls, isPlainObject } from '../../machinery/json';
import type { DefinitionSet } from '../../machinery/schema';
import type { NamingProfile } from '../../machinery/naming';
import type { Storage, StoredObject } from '../../storage/types';
import type {
  AdmissionAttributes,
  AdmissionInterface,
  AdmissionOperation,
} from '../../machinery/admission/attributes';
import { fieldManagement } from '../../fieldmanager/library';
import type {
  DeleteOptions,
  DeleteResult,
  GetOptions,
  ListRequest,
  ListResponse,
  RestStorage,
  StoredEntryGetter,
  UpdatedObjectInfo,
  UpdateOptions,
  UpdateResult,
  WatchHandle,
  WatchRequest,
  WatchSink,
  WriteOptions,
} from '../rest/capabilities';
import type { RequestScope } from '../rest/scope';
import type { Strategy, StrategyContext } from '../rest/strategy';
import { applyDefaults, defaultingContext } from '../defaults/index';
import { planDelete, shouldRemoveAfterUpdate } from '../deletion';
import { groupResource, type ResourceType } from '../resource-type';
import { isRevisionMismatch, ObjectStore } from './object-store';
import { openWatch } from './watch';
import type { WatchHub } from './watch-hub';
import type { WatchCaches } from '../watch-cache/watch-caches';
import { ContinueExpiredError, waitForRevision } from './revisions';

/** What every store shares: the backend, admission and the server's settings. */
export interface StoreDeps {
  storage: Storage;
  admission: AdmissionInterface;
  definitions: DefinitionSet;
  profile: NamingProfile;
  featureGates: Readonly<Record<string, boolean>>;
  now(): Date;
  /** How long a read at a resourceVersion the server has not reached waits before 504 (real: 3 s). */
  tooLargeResourceVersionWaitMs: number;
  /** The watch caches that serve watches from a past resourceVersion; without them the store's history does. */
  watchCaches?: WatchCaches;
  /** The fan-out of commits to watches; without it each watch listens to the store itself. */
  watchHub?: WatchHub;
}

/** A write of the store: which object, and how the store should treat it. */
interface Write {
  verb: 'create' | 'update';
  name: string;
  namespace: string;
  desired: UpdatedObjectInfo;
  createWhenMissing: boolean;
  fieldManager?: WriteOptions['fieldManager'];
  issued?: WriteOptions['issued'];
}

const maxAttempts = 32;
const maxGenerateNameAttempts = 8;

const expiredContinueMessage =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

export class GenericStore implements RestStorage, StoredEntryGetter {
  readonly objects: ObjectStore;
  readonly returnsDeletedObject: boolean;

  constructor(
    readonly rt: ResourceType,
    readonly strategy: Strategy,
    readonly deps: StoreDeps,
  ) {
    this.objects = new ObjectStore(deps.storage);
    this.returnsDeletedObject = rt.behavior.returnDeletedObject;
  }

  /** The same objects through another strategy (a subresource such as status). */
  withStrategy(strategy: Strategy): GenericStore {
    return new GenericStore(this.rt, strategy, this.deps);
  }

  private namespaceOf(scope: RequestScope): string {
    return this.rt.namespaced ? scope.namespace : '';
  }

  private strategyContext(scope: RequestScope | undefined, now: Date): StrategyContext {
    return {
      now,
      definitions: this.deps.definitions,
      namespaceFinalizer: this.deps.profile.namespaceFinalizer,
      profile: this.deps.profile,
      featureGates: this.deps.featureGates,
      ...(scope !== undefined ? { scope } : {}),
    };
  }

  /** A built-in kind's defaults, as decoding the body into the kind's type applies them (custom resources: none here). */
  private applyKindDefaults(obj: KubeObject): void {
    const { rt, deps } = this;
    if (!rt.custom && rt.definition !== undefined)
      applyDefaults(deps.definitions, rt.definition, obj, defaultingContext(deps.profile, deps.featureGates));
  }

  /**
   * `object` as `create` prepares it before admission's validation, for a write without a field manager: the
   * kind's defaults, the strategy's `prepareForCreate` and canonical field order (the server's own start-up
   * objects on a new store, written without the create path: server/bootstrap.ts, 0109).
   */
  preparedForCreate(object: KubeObject, now: Date): KubeObject {
    this.applyKindDefaults(object);
    this.strategy.prepareForCreate(object, this.strategyContext(undefined, now));
    return this.strategy.canonicalize(object);
  }

  // ---- reads ----

  async get(scope: RequestScope, name: string, options: GetOptions = {}): Promise<KubeObject> {
    const rv = options.resourceVersion ?? '';
    if (rv !== '' && rv !== '0') await this.waitFor(Number(rv), scope.signal);
    return (await this.objects.mustGet(this.rt, this.namespaceOf(scope), name)).object;
  }

  /**
   * A current read (resourceVersion "" or "0") answered from the storage's memory, uncopied, for a caller that
   * only encodes it: the stored entry (`ObjectStore.peek`), whose served object is `toServedVersion(rt,
   * entry.object)`. `get` has no step of its own beyond that read, so both answer the same object; undefined
   * when memory cannot answer or `rt` is not this store's.
   */
  peekCurrent(rt: ResourceType, namespace: string, name: string): Readonly<StoredObject> | undefined {
    if (rt !== this.rt) return undefined;
    return this.objects.peek(this.rt, this.rt.namespaced ? namespace : '', name);
  }

  /** Resolves once the store has reached `revision`, or fails with 504 after the configured wait. */
  waitFor(revision: number, signal?: AbortSignal): Promise<void> {
    return waitForRevision(this.deps.storage, revision, this.deps.tooLargeResourceVersionWaitMs, signal);
  }

  async list(scope: RequestScope, request: ListRequest): Promise<ListResponse> {
    const { storage } = this.deps;
    let revision: number | undefined;
    let after: string | undefined;
    if (request.continueFrom !== undefined) {
      const pos = request.continueFrom;
      if (pos.revision < (await storage.compactedRevision()))
        throw new ContinueExpiredError(expiredContinueMessage, await storage.currentRevision(), pos.after);
      revision = pos.revision;
      after = pos.after;
    } else if (request.resourceVersion !== '' && request.resourceVersion !== '0') {
      const requested = Number(request.resourceVersion);
      await this.waitFor(requested, scope.signal);
      // Exact when asked, and (for compatibility) when a limit is given without resourceVersionMatch.
      if (
        request.resourceVersionMatch === 'Exact' ||
        (request.resourceVersionMatch === '' && request.limit > 0)
      )
        revision = requested;
    }
    let result;
    try {
      result = await this.objects.list(this.rt, this.namespaceOf(scope), {
        ...(after !== undefined ? { after } : {}),
        ...(request.limit > 0 ? { limit: request.limit } : {}),
        ...(revision !== undefined ? { revision } : {}),
        ...(request.predicate !== undefined ? { predicate: request.predicate } : {}),
        ...(request.predicate !== undefined && request.name !== undefined ? { name: request.name } : {}),
        // RemainingItemCount off: no metadata.remainingItemCount on a page.
        countRemaining:
          request.limit > 0 &&
          request.predicate === undefined &&
          this.deps.featureGates.RemainingItemCount !== false,
      });
    } catch (e) {
      if (e instanceof StatusError && e.code === 410)
        throw resourceExpired('The resourceVersion for the provided list is too old.');
      throw e;
    }
    const last = result.items[result.items.length - 1];
    return {
      items: result.items.map((s) => s.object),
      revision: result.revision,
      ...(request.limit > 0 && result.more && last !== undefined ? { continueAfter: last.key } : {}),
      ...(result.more && result.remaining !== undefined && request.predicate === undefined
        ? { remainingItemCount: result.remaining }
        : {}),
    };
  }

  watch(scope: RequestScope, request: WatchRequest, sink: WatchSink): WatchHandle {
    const namespace = this.namespaceOf(scope);
    return openWatch(
      this.deps.storage,
      this.rt,
      {
        prefix: this.objects.prefix(this.rt, namespace),
        ...(request.name !== undefined ? { key: this.objects.key(this.rt, namespace, request.name) } : {}),
        ...(request.predicate !== undefined ? { predicate: request.predicate } : {}),
      },
      request,
      sink,
      {
        ...(this.deps.watchCaches !== undefined ? { caches: this.deps.watchCaches } : {}),
        ...(this.deps.watchHub !== undefined ? { hub: this.deps.watchHub } : {}),
        tooLargeResourceVersionWaitMs: this.deps.tooLargeResourceVersionWaitMs,
        ...(scope.signal !== undefined ? { signal: scope.signal } : {}),
      },
    );
  }

  // ---- writes ----

  async create(scope: RequestScope, object: KubeObject, options: WriteOptions): Promise<KubeObject> {
    // Only a generated name is retried (a taken one draws another): then each attempt starts from a copy.
    const pristine = (object.metadata?.generateName ?? '') !== '' ? deepClone(object) : undefined;
    let attempts = 0;
    const result = await this.write(scope, {
      verb: 'create',
      name: '',
      namespace: this.namespaceOf(scope),
      desired: () => (attempts++ === 0 || pristine === undefined ? object : deepClone(pristine)),
      createWhenMissing: true,
      ...(options.fieldManager !== undefined ? { fieldManager: options.fieldManager } : {}),
      ...(options.issued !== undefined ? { issued: options.issued } : {}),
    });
    return result.object;
  }

  update(
    scope: RequestScope,
    name: string,
    objInfo: UpdatedObjectInfo,
    options: UpdateOptions,
  ): Promise<UpdateResult> {
    return this.write(scope, {
      verb: 'update',
      name,
      namespace: this.namespaceOf(scope),
      desired: objInfo,
      createWhenMissing: options.createWhenMissing === true,
      ...(options.fieldManager !== undefined ? { fieldManager: options.fieldManager } : {}),
    });
  }

  private attributes(
    scope: RequestScope,
    operation: AdmissionOperation,
    name: string,
    object: KubeObject | undefined,
    oldObject: KubeObject | undefined,
  ): AdmissionAttributes {
    const rt = this.rt;
    return {
      operation,
      group: rt.group,
      version: rt.version,
      kind: rt.kind,
      resource: rt.resource,
      subresource: scope.subresource,
      namespace: rt.namespaced ? scope.namespace : '',
      name: object?.metadata?.name ?? name,
      object,
      oldObject,
      user: scope.user,
      dryRun: scope.dryRun,
      uid: scope.uid,
      requestKind: scope.requestKind,
      requestResource: scope.requestResource,
      ...(scope.options !== undefined ? { options: scope.options } : {}),
      warnings: scope.warnings,
      ...(scope.annotations !== undefined ? { annotations: scope.annotations } : {}),
      ...(scope.trace !== undefined ? { trace: scope.trace } : {}),
    };
  }

  /**
   * One create or update: defaulting → field ownership → admission
   * (mutating) → the strategy's preparation and validation → admission
   * (validating) → persist, inside an optimistic-concurrency loop that
   * re-reads and retries when another writer got there first (unless the
   * client named the resourceVersion it expects, which makes that a 409).
   */
  private async write(scope: RequestScope, w: Write): Promise<UpdateResult> {
    const { rt, strategy, deps } = this;
    const { admission } = deps;
    let generateNameAttempts = 0;
    for (let attempt = 0; attempt < maxAttempts; attempt++) {
      scope.warnings.beginAttempt();
      scope.annotations?.beginAttempt();
      const current = w.verb === 'create' ? undefined : await this.objects.get(rt, w.namespace, w.name);
      if (current === undefined && w.verb !== 'create' && !w.createWhenMissing)
        throw notFound(groupResource(rt), w.name);
      const creating = current === undefined;
      const now = deps.now();
      const sctx = this.strategyContext(scope, now);

      // Between phases, a write over a wide object lets other requests run (machinery/cooperative.ts).
      await breathe();
      let obj = await w.desired(current === undefined ? undefined : await deepCloneSliced(current.object));
      await breathe();
      // defaulting: the real server defaults while decoding the body into the kind's type, so before
      // field ownership and admission see the object
      this.applyKindDefaults(obj);
      // custom resources: decoding prunes unknown fields, drops non-nullable nulls and applies the schema's defaults;
      // their metadata is a typed ObjectMeta as every kind's, where a null is the field's zero value
      rt.crd?.normalize(obj);
      if (rt.custom && isPlainObject(obj.metadata)) dropNulls(obj.metadata);
      await breathe();
      if (!creating) {
        const rv = obj.metadata?.resourceVersion;
        // "0" parses to revision 0, which (like none at all) asks for an unconditional update, as on the real server.
        if (rv !== undefined && rv !== '' && rv !== '0' && rv !== String(current.revision))
          throw staleResourceVersion(groupResource(rt), w.name);
      }

      // field ownership: the writer takes what it set or changed (apply recorded it while merging)
      if (w.fieldManager !== undefined && w.fieldManager.recorded !== true) {
        // Loaded with the first such write (a first visit writes none); no turn once it is.
        const fm = fieldManagement.loaded ? fieldManagement.get() : await fieldManagement.load();
        obj = await runSliced(
          fm.updateManagedFieldsWork({
            type: fm.objectTypeFor(rt, deps.definitions),
            live: current?.object,
            next: obj,
            manager: w.fieldManager.manager,
            apiVersion: rt.apiVersion,
            subresource: scope.subresource,
            now,
          }),
        );
        await breathe();
      }

      const operation = creating ? 'CREATE' : 'UPDATE';
      obj = (await admission.mutate(this.attributes(scope, operation, w.name, obj, current?.object))) ?? obj;
      await breathe();

      let errors;
      let warnings: string[];
      if (creating) {
        const meta = obj.metadata ?? (obj.metadata = {});
        if ((meta.name ?? '') === '' && (meta.generateName ?? '') !== '')
          meta.name = `${meta.generateName}${randomSuffix()}`;
        strategy.prepareForCreate(obj, sctx);
      } else obj = strategy.prepareForUpdate(obj, current.object, sctx);
      // What the write reserves (a Service's addresses) is kept only if it is stored (the `finally` below).
      let txn = strategy.beginWrite?.(obj, current?.object, sctx);
      let stored = false;
      try {
        await breathe();
        if (creating) {
          errors = await strategy.validate(obj, sctx);
          await breathe();
          warnings = errors.length === 0 ? strategy.warningsOnCreate(obj, sctx) : [];
        } else {
          errors = await strategy.validateUpdate(obj, current.object, sctx);
          await breathe();
          warnings = errors.length === 0 ? strategy.warningsOnUpdate(obj, current.object, sctx) : [];
        }
        if (errors.length > 0)
          throw invalid({ group: rt.group, kind: rt.kind }, obj.metadata?.name ?? w.name, errors);
        for (const text of warnings) scope.warnings.add(text);
        await breathe();

        await admission.validate(this.attributes(scope, operation, w.name, obj, current?.object));
        obj = strategy.canonicalize(obj);
        await breathe();

        // persist
        if (creating) {
          if (scope.dryRun) {
            // A dry run stores nothing but answers as the write would: a taken name is 409, as on the real server.
            const name = obj.metadata?.name ?? '';
            if (
              name !== '' &&
              (await this.objects.get(rt, w.namespace || (obj.metadata?.namespace ?? ''), name)) !== undefined
            )
              throw alreadyExists(groupResource(rt), name);
            return { object: obj, created: true };
          }
          try {
            // What is stored is what this answers (a create's answer is its stored object as is).
            const created = await this.objects.create(rt, obj, w.issued);
            stored = true;
            return { object: created.object, created: true };
          } catch (e) {
            const generated = (obj.metadata?.generateName ?? '') !== '' && w.verb === 'create';
            if (
              e instanceof StatusError &&
              e.reason === 'AlreadyExists' &&
              generated &&
              ++generateNameAttempts < maxGenerateNameAttempts
            )
              continue;
            // raced with another creator: retry as an update
            if (e instanceof StatusError && e.reason === 'AlreadyExists' && w.verb !== 'create') continue;
            throw e;
          }
        }
        if (obj.metadata !== undefined) obj.metadata.resourceVersion = String(current.revision);
        if (w.fieldManager !== undefined) {
          const fm = fieldManagement.loaded ? fieldManagement.get() : await fieldManagement.load();
          obj = await runSliced(fm.ignoreManagedFieldsTimestampsWork(obj, current.object));
        }
        await breathe();
        if (await deepEqualSliced(obj, current.object)) return { object: current.object, created: false };
        await breathe();
        if (scope.dryRun) return { object: obj, created: false };
        try {
          if (shouldRemoveAfterUpdate(rt, obj, current.object)) {
            // The last finalizer of a terminating object is gone: the update completes its deletion.
            const gone = await this.objects.delete(rt, w.namespace, w.name, current.revision);
            // Nothing of the update is kept: what it newly reserved goes back, then all the object held.
            txn?.revert();
            txn = undefined;
            strategy.afterDelete?.(gone.object);
            return { object: gone.object, created: false };
          }
          const updated = await this.objects.update(rt, obj, current.revision);
          stored = true;
          return { object: updated.object, created: false };
        } catch (e) {
          if (isRevisionMismatch(e)) continue;
          if (e instanceof StatusError && e.reason === 'NotFound' && w.createWhenMissing) continue;
          throw e;
        }
      } finally {
        // Stored: the reservation stands (and what the update gave up is released); anything else gives it back.
        if (stored) txn?.commit();
        else txn?.revert();
      }
    }
    throw conflict(groupResource(rt), w.name, 'too many concurrent writers; please retry');
  }

  async delete(scope: RequestScope, name: string, options: DeleteOptions): Promise<DeleteResult> {
    const { rt, deps, strategy } = this;
    const gr = groupResource(rt);
    const namespace = this.namespaceOf(scope);
    for (let attempt = 0; attempt < maxAttempts; attempt++) {
      const current = await this.objects.mustGet(rt, namespace, name);
      const meta = current.object.metadata ?? {};
      const pre = options.preconditions;
      if (pre?.uid !== undefined && pre.uid !== meta.uid)
        throw conflict(
          gr,
          name,
          `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${meta.uid ?? ''}`,
        );
      if (pre?.resourceVersion !== undefined && pre.resourceVersion !== meta.resourceVersion)
        throw conflict(
          gr,
          name,
          `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${meta.resourceVersion ?? ''}`,
        );

      // admission (mutating, then validating) sees the object being deleted as oldObject
      await deps.admission.mutate(this.attributes(scope, 'DELETE', name, undefined, current.object));
      await deps.admission.validate(this.attributes(scope, 'DELETE', name, undefined, current.object));

      const now = deps.now();
      const target = strategy.beginDelete(current.object, this.strategyContext(scope, now));
      const plan = planDelete(rt, target, options, now);
      if (plan.kind === 'unchanged') return { object: current.object, deleted: false };
      if (plan.kind === 'terminate') {
        if (scope.dryRun) return { object: plan.object, deleted: false };
        try {
          const stored = await this.objects.update(rt, strategy.canonicalize(plan.object), current.revision);
          return { object: stored.object, deleted: false };
        } catch (e) {
          if (isRevisionMismatch(e)) continue;
          throw e;
        }
      }
      if (scope.dryRun) return { object: current.object, deleted: true };
      try {
        const gone = await this.objects.delete(rt, namespace, name, current.revision);
        strategy.afterDelete?.(gone.object);
        return { object: gone.object, deleted: true };
      } catch (e) {
        if (isRevisionMismatch(e)) continue;
        throw e;
      }
    }
    throw conflict(gr, name, 'too many concurrent writers; please retry');
  }

  /** Deletes what the selectors match, each through `delete` (so admission and finalizers apply), answering with the list as it was. */
  async deleteCollection(
    scope: RequestScope,
    options: DeleteOptions,
    predicate: ((object: KubeObject) => boolean) | undefined,
  ): Promise<ListResponse> {
    const listed = await this.objects.list(
      this.rt,
      this.namespaceOf(scope),
      predicate !== undefined ? { predicate } : {},
    );
    for (const item of listed.items) {
      const m = item.object.metadata ?? {};
      try {
        await this.delete(
          { ...scope, namespace: m.namespace ?? '', name: m.name ?? '' },
          m.name ?? '',
          options,
        );
      } catch (e) {
        // Deleted meanwhile by someone else: that is the outcome we wanted.
        if (!(e instanceof StatusError && e.code === 404)) throw e;
      }
    }
    return { items: listed.items.map((s) => s.object), revision: listed.revision };
  }
}
