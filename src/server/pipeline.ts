/**
 * The request pipeline: every request passes these stages, in this order,
 * here and nowhere else.
 *
 *   decode       — request info from method and path, negotiated output
 *   authenticate — who is asking
 *   authorize    — may they
 *   (handler)    — the verb's handler decodes its body and options, reads,
 *                  or builds a write and hands it to `runWrite`, which runs:
 *     defaulting → admission (mutating) → validate → admission (validating) → persist
 *   encode       — the result in the negotiated representation, with
 *                  warnings and Status errors shaped as the real server's.
 */

import type { KubeObject } from '../api/meta';
import type { UserInfo } from '../api/authn';
import {
  invalid,
  notFound,
  staleResourceVersion,
  conflict,
  toStatusError,
  StatusError,
} from '../machinery/errors';
import { newUid, randomSuffix } from '../machinery/ids';
import { deepClone, deepEqual } from '../machinery/json';
import type { AdmissionChain } from '../admission/chain';
import type { AdmissionAttributes, AdmissionOperation } from '../admission/types';
import { groupResource } from '../registry/resource-type';
import { isRevisionMismatch } from '../registry/object-store';
import { prepareForCreate, prepareForUpdate, validateCreate, validateUpdate } from '../registry/strategy';
import { canonicalOrder } from '../registry/canonical';
import { applyDefaults, defaultingContext } from '../registry/defaults';
import { ignoreManagedFieldsTimestamps, objectTypeFor, updateManagedFields } from '../fieldmanager/index';
import { planDelete, shouldRemoveAfterUpdate } from '../registry/deletion';
import { beginDeletion } from '../registry/crd/deletion';
import { parseRequestInfo } from '../http/request-info';
import { wantsPretty, type RequestContext } from '../http/context';
import { respondError } from '../http/respond';
import type { ServerContext, WriteOutcome, WriteRequest } from '../http/server-context';
import { dispatch } from '../http/dispatch';

export interface PipelineDeps {
  server: ServerContext;
  admission: AdmissionChain;
  authenticate(request: Request): Promise<UserInfo>;
  authorize(ctx: RequestContext): Promise<void>;
}

/** Answers one request; never rejects. */
export async function handleRequest(deps: PipelineDeps, request: Request): Promise<Response> {
  // decode
  const url = new URL(request.url);
  const ctx: RequestContext = {
    request,
    url,
    query: url.searchParams,
    info: parseRequestInfo(request.method, url),
    user: { username: '', groups: [] },
    warnings: [],
    auditId: newUid(),
    now: deps.server.now(),
    pretty: wantsPretty(url.searchParams, request.headers.get('user-agent')),
    signal: request.signal,
  };
  let response: Response;
  try {
    // authenticate
    ctx.user = await deps.authenticate(request);
    // authorize
    await deps.authorize(ctx);
    // handler (reads, or writes through runWrite) and encode
    response = await dispatch(deps.server, ctx);
  } catch (e) {
    response = respondError(ctx, deps.server.profile, toStatusError(e));
  }
  recordRequest(deps.server, ctx, response.status);
  return response;
}

/** The verb label of apiserver_request_total, as the real server's CleanVerb spells it. */
function cleanVerb(verb: string, contentType: string | null): string {
  if (verb === 'patch' && (contentType ?? '').startsWith('application/apply-patch')) return 'APPLY';
  const byVerb: Record<string, string> = {
    get: 'GET',
    list: 'LIST',
    watch: 'WATCH',
    create: 'POST',
    update: 'PUT',
    patch: 'PATCH',
    delete: 'DELETE',
    deletecollection: 'DELETE',
  };
  return byVerb[verb] ?? verb.toUpperCase();
}

function recordRequest(server: ServerContext, ctx: RequestContext, code: number): void {
  const info = ctx.info;
  if (!info.isResourceRequest) return;
  server.metrics.recordRequest({
    verb: cleanVerb(info.verb, ctx.request.headers.get('content-type')),
    dryRun: ctx.query.get('dryRun') === 'All',
    group: info.group,
    version: info.version,
    resource: info.resource,
    subresource: info.subresource,
    scope:
      info.name !== ''
        ? 'resource'
        : info.namespace !== '' && info.resource !== 'namespaces'
          ? 'namespace'
          : 'cluster',
    code,
  });
}

const maxAttempts = 32;
const maxGenerateNameAttempts = 8;

function attributes(
  w: WriteRequest,
  operation: AdmissionOperation,
  object: KubeObject | undefined,
  oldObject: KubeObject | undefined,
): AdmissionAttributes {
  return {
    operation,
    group: w.rt.group,
    version: w.rt.version,
    kind: w.rt.kind,
    resource: w.rt.resource,
    subresource: w.subresource,
    namespace: w.rt.namespaced ? w.namespace : '',
    name: object?.metadata?.name ?? w.name,
    object,
    oldObject,
    user: w.user,
    dryRun: w.dryRun,
  };
}

/**
 * Runs one write: defaulting → admission (mutating) → validate → admission (validating)
 * → persist, inside an optimistic-concurrency loop that re-reads and
 * retries when another writer got there first (unless the client named the
 * resourceVersion it expects, which makes that a 409).
 */
export async function runWrite(deps: PipelineDeps, w: WriteRequest): Promise<WriteOutcome> {
  if (w.verb === 'delete') return runDelete(deps, w);
  const { server, admission } = deps;
  let generateNameAttempts = 0;
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    const current = w.verb === 'create' ? undefined : await server.store.get(w.rt, w.namespace, w.name);
    if (current === undefined && w.verb !== 'create' && !w.createWhenMissing)
      throw notFound(groupResource(w.rt), w.name);
    const creating = current === undefined;
    const now = server.now();
    const sctx = server.strategy(now);

    let obj = await (w.desired ?? (() => ({}) as KubeObject))(
      current === undefined ? undefined : deepClone(current.object),
    );
    // defaulting: the real server defaults while decoding the body into the kind's type, so before
    // field ownership and admission see the object
    if (!w.rt.custom && w.rt.definition !== undefined)
      applyDefaults(
        server.catalog.definitions,
        w.rt.definition,
        obj,
        defaultingContext(server.profile, server.featureGates),
      );
    // custom resources: decoding prunes unknown fields, drops non-nullable nulls and applies the schema's defaults
    w.rt.crd?.normalize(obj);
    if (!creating) {
      const rv = obj.metadata?.resourceVersion;
      if (rv !== undefined && rv !== '' && rv !== String(current.revision))
        throw staleResourceVersion(groupResource(w.rt), w.name);
    }

    // field ownership: the writer takes what it set or changed (apply recorded it while merging)
    if (w.fieldManager !== undefined && w.fieldManager.recorded !== true) {
      obj = updateManagedFields({
        type: objectTypeFor(w.rt, server.catalog.definitions),
        live: current?.object,
        next: obj,
        manager: w.fieldManager.manager,
        apiVersion: w.rt.apiVersion,
        subresource: w.fieldManager.subresource,
        now,
      });
    }

    // admission (mutating)
    obj =
      (await admission.mutate(attributes(w, creating ? 'CREATE' : 'UPDATE', obj, current?.object))) ?? obj;

    // validate: the strategy's preparation, then every rule
    let errors;
    if (creating) {
      const meta = obj.metadata ?? (obj.metadata = {});
      if ((meta.name ?? '') === '' && (meta.generateName ?? '') !== '')
        meta.name = `${meta.generateName}${randomSuffix()}`;
      prepareForCreate(w.rt, obj, sctx);
      errors = validateCreate(w.rt, obj, sctx);
    } else {
      obj = prepareForUpdate(w.rt, w.subresource, obj, current.object, sctx);
      errors = validateUpdate(w.rt, obj, current.object, sctx);
    }
    if (errors.length > 0)
      throw invalid({ group: w.rt.group, kind: w.rt.kind }, obj.metadata?.name ?? w.name, errors);

    // admission (validating)
    await admission.validate(attributes(w, creating ? 'CREATE' : 'UPDATE', obj, current?.object));
    obj = canonicalOrder(obj);

    // persist
    if (creating) {
      if (w.dryRun) return { object: obj, created: true };
      try {
        const stored = await server.store.create(w.rt, obj);
        return { object: stored.object, created: true };
      } catch (e) {
        const generated = (obj.metadata?.generateName ?? '') !== '' && w.verb === 'create' && w.name === '';
        if (
          e instanceof StatusError &&
          e.reason === 'AlreadyExists' &&
          generated &&
          ++generateNameAttempts < maxGenerateNameAttempts
        ) {
          if (obj.metadata !== undefined) obj.metadata.name = '';
          continue;
        }
        if (e instanceof StatusError && e.reason === 'AlreadyExists' && w.verb !== 'create') continue; // raced with another creator: retry as an update
        throw e;
      }
    }
    if (obj.metadata !== undefined) obj.metadata.resourceVersion = String(current.revision);
    if (w.fieldManager !== undefined) obj = ignoreManagedFieldsTimestamps(obj, current.object);
    if (deepEqual(obj, current.object)) return { object: current.object, created: false };
    if (w.dryRun) return { object: obj, created: false };
    try {
      if (shouldRemoveAfterUpdate(w.rt, obj, current.object)) {
        // The last finalizer of a terminating object is gone: the update completes its deletion.
        const gone = await server.store.delete(w.rt, w.namespace, w.name, current.revision);
        return { object: gone.object, created: false, deleted: true };
      }
      const stored = await server.store.update(w.rt, obj, current.revision);
      return { object: stored.object, created: false };
    } catch (e) {
      if (isRevisionMismatch(e)) continue;
      if (e instanceof StatusError && e.reason === 'NotFound' && w.createWhenMissing) continue;
      throw e;
    }
  }
  throw conflict(groupResource(w.rt), w.name, 'too many concurrent writers; please retry');
}

async function runDelete(deps: PipelineDeps, w: WriteRequest): Promise<WriteOutcome> {
  const { server, admission } = deps;
  const gr = groupResource(w.rt);
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    const current = await server.store.mustGet(w.rt, w.namespace, w.name);
    const meta = current.object.metadata ?? {};
    const pre = w.deleteOptions?.preconditions;
    if (pre?.uid !== undefined && pre.uid !== meta.uid)
      throw conflict(
        gr,
        w.name,
        `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${meta.uid ?? ''}`,
      );
    if (pre?.resourceVersion !== undefined && pre.resourceVersion !== meta.resourceVersion)
      throw conflict(
        gr,
        w.name,
        `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${meta.resourceVersion ?? ''}`,
      );

    // admission (mutating, then validating) sees the object being deleted as oldObject
    await admission.mutate(attributes(w, 'DELETE', undefined, current.object));
    await admission.validate(attributes(w, 'DELETE', undefined, current.object));

    // a CRD's first delete adds its cleanup finalizer and the Terminating condition
    const target = beginDeletion(server.profile, w.rt, current.object, server.now());
    const plan = planDelete(w.rt, target, w.deleteOptions ?? {}, server.now());
    if (plan.kind === 'unchanged') return { object: current.object, created: false, deleted: false };
    if (plan.kind === 'terminate') {
      if (w.dryRun) return { object: plan.object, created: false, deleted: false };
      try {
        const stored = await server.store.update(w.rt, canonicalOrder(plan.object), current.revision);
        return { object: stored.object, created: false, deleted: false };
      } catch (e) {
        if (isRevisionMismatch(e)) continue;
        throw e;
      }
    }
    if (w.dryRun) return { object: current.object, created: false, deleted: true };
    try {
      const gone = await server.store.delete(w.rt, w.namespace, w.name, current.revision);
      return { object: gone.object, created: false, deleted: true };
    } catch (e) {
      if (isRevisionMismatch(e)) continue;
      throw e;
    }
  }
  throw conflict(gr, w.name, 'too many concurrent writers; please retry');
}
