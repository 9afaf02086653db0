/**
 * Routing: non-resource paths (discovery, version, health, OpenAPI) to their
 * handlers; resource paths to the storage installed for the resource or
 * subresource, and to the verb's handler when that storage has the
 * capability the method needs (`registry/rest/capabilities.ts`). Unknown
 * paths answer 404, methods the storage cannot serve 405, both as Status
 * bodies — the same facts discovery lists as verbs.
 */

import { methodNotAllowed, pathNotFound } from '../machinery/errors';
import {
  isCollectionDeleter,
  isConnecter,
  isCreater,
  isGetter,
  isGracefulDeleter,
  isLister,
  isNamedCreater,
  isParentUpdater,
  isUpdater,
  isWatcher,
  type RestStorage,
} from '../registry/rest/capabilities';
import type { ResourceType } from '../registry/resource-type';
import type { RequestContext } from './context';
import { pathNameError, type ResourceRequestInfo } from './request-info';
import type { ServerContext } from './server-context';
import { handleNonResource } from './nonresource';
import { negotiateOutput } from './negotiate';
import { handleGet } from './handlers/get';
import { handleList } from './handlers/list';
import { handleCreate } from './handlers/create';
import { handleUpdate } from './handlers/update';
import { patchHandler } from './handlers/patch-library';
import { handleDelete } from './handlers/delete';
import { handleDeleteCollection } from './handlers/deletecollection';
import { handleWatch } from './handlers/watch';
import { handleConnect } from './handlers/connect';
import { decodeProtobufBody } from './protobuf/http';

export interface ResolvedRequest {
  info: ResourceRequestInfo;
  rt: ResourceType;
  /** Namespace from the path for namespaced resources ('' for cluster-scoped ones and all-namespaces paths). */
  namespace: string;
}

/**
 * The handler's answer: a `Response` when the handler had it at once (a GET from kept text), otherwise a promise
 * of it. May throw (an unknown path, a method the storage cannot serve) as well as reject.
 */
export function dispatch(server: ServerContext, ctx: RequestContext): Response | Promise<Response> {
  const info = ctx.info;
  if (!info.isResourceRequest) return handleNonResource(server, ctx);

  const rt = server.catalog.lookup(info.group, info.version, info.resource);
  if (rt === undefined) throw pathNotFound();
  const storages = server.rest.storages(rt);
  // A cluster-scoped resource has no route under `namespaces/<ns>/` (not even Namespaces themselves): 404,
  // after authorization as on the real server (its authorizer sees the namespace the path names).
  const pathHasNamespace = info.namespaceInPath;
  if (pathHasNamespace && !rt.namespaced) throw pathNotFound();
  const storage: RestStorage | undefined =
    info.subresource === '' ? storages.main : storages.subresources.get(info.subresource);
  if (storage === undefined) throw pathNotFound();
  // Only connecters (proxy) take a path after the subresource.
  if (info.parts.length > 3 && !isConnecter(storage)) throw pathNotFound();
  const named = info.name !== '';
  if (rt.namespaced && named && !pathHasNamespace) throw pathNotFound();

  const req: ResolvedRequest = { info, rt, namespace: rt.namespaced ? info.namespace : '' };
  ctx.routed = true;
  if (rt.deprecation !== undefined) {
    ctx.warnings.push(rt.deprecation.warning);
    server.metrics.deprecatedApiRequested({
      group: rt.group,
      version: rt.version,
      resource: rt.resource,
      subresource: info.subresource,
      removedRelease: rt.deprecation.removedRelease,
    });
    // The audit event says the API was deprecated (and when it goes), as the real server annotates it.
    ctx.auditAnnotations?.add(server.profile.groupPrefixed('deprecated'), 'true');
    if (rt.deprecation.removedRelease !== '')
      ctx.auditAnnotations?.add(
        server.profile.groupPrefixed('removed-release'),
        rt.deprecation.removedRelease,
      );
  }
  // Decoding and deprecation warnings belong to the request, whatever a write's retries do.
  ctx.warnings.keep();
  const method = ctx.request.method.toUpperCase();
  // The steps below (negotiate, decodeBodyOf, checkName) are module functions, not closures made per request.

  if (named && isConnecter(storage) && storage.connectMethods.includes(method)) {
    checkName(info);
    return handleConnect(server, ctx, req, storage);
  }

  switch (method) {
    case 'GET':
    case 'HEAD':
      if (info.verb === 'watch') {
        if (!isWatcher(storage)) throw methodNotAllowed();
        negotiate(server, ctx, rt, true, true);
        return handleWatch(server, ctx, req, storage);
      }
      if (named) {
        if (!isGetter(storage)) throw methodNotAllowed();
        checkName(info);
        negotiate(server, ctx, rt, info.subresource === '', false);
        return handleGet(server, ctx, req, storage);
      }
      if (!isLister(storage)) throw methodNotAllowed();
      negotiate(server, ctx, rt, true, false);
      return handleList(server, ctx, req, storage);
    case 'POST':
      if (rt.namespaced && !pathHasNamespace) throw methodNotAllowed();
      if (named) {
        if (info.subresource === '' || !isNamedCreater(storage)) throw methodNotAllowed();
        checkName(info);
        negotiate(server, ctx, rt, false, false);
        return decodeBodyOf(server, ctx, rt).then(() => handleCreate(server, ctx, req, storage));
      }
      if (!isCreater(storage)) throw methodNotAllowed();
      negotiate(server, ctx, rt, false, false);
      return decodeBodyOf(server, ctx, rt).then(() => handleCreate(server, ctx, req, storage));
    case 'PUT':
      if (!named || !isUpdater(storage)) throw methodNotAllowed();
      checkName(info);
      negotiate(server, ctx, rt, false, false);
      return decodeBodyOf(server, ctx, rt).then(() => handleUpdate(server, ctx, req, storage));
    case 'PATCH':
      if (!named || !isUpdater(storage) || !isGetter(storage)) throw methodNotAllowed();
      checkName(info);
      negotiate(server, ctx, rt, false, false);
      return patchHandler
        .load()
        .then((m) =>
          m.handlePatch(server, ctx, req, storage, isParentUpdater(storage) ? storage : undefined),
        );
    case 'DELETE':
      if (named) {
        if (!isGracefulDeleter(storage)) throw methodNotAllowed();
        checkName(info);
        negotiate(server, ctx, rt, false, false);
        return handleDelete(server, ctx, req, storage);
      }
      if (rt.namespaced && !pathHasNamespace) throw methodNotAllowed();
      if (!isCollectionDeleter(storage)) throw methodNotAllowed();
      negotiate(server, ctx, rt, false, false);
      return handleDeleteCollection(server, ctx, req, storage);
    default:
      throw methodNotAllowed();
  }
}

/** The answer's representation, from `Accept`. Protobuf is offered for built-in kinds only; custom resources fall back to JSON (or 406). */
function negotiate(
  server: ServerContext,
  ctx: RequestContext,
  rt: ResourceType,
  table: boolean,
  watch: boolean,
): void {
  ctx.output = negotiateOutput(server.profile, ctx.request.headers.get('accept'), {
    table,
    protobuf: !rt.custom,
    watch,
  });
}

async function decodeBodyOf(server: ServerContext, ctx: RequestContext, rt: ResourceType): Promise<void> {
  // A custom resource's scale subresource is a built-in Scale; its other bodies have no message.
  const custom = rt.custom && ctx.info.isResourceRequest && ctx.info.subresource !== 'scale';
  await decodeProtobufBody(ctx, server.profile, custom ? rt.kind : undefined);
  ctx.warnings.keep();
}

/** A name that could not be a storage key (`..`, `a/b`) is refused once routing found the storage, as the real server does. */
function checkName(info: ResourceRequestInfo): void {
  const e = pathNameError(info);
  if (e !== undefined) throw e;
}
