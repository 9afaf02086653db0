/**
 * Routing: non-resource paths (discovery, version, health, OpenAPI) to their
 * handlers, resource paths to the verb's handler after checking that the
 * resource, scope, subresource and method exist — unknown paths answer 404
 * and unsupported methods 405, both as Status bodies.
 */

import { methodNotAllowed, pathNotFound } from '../machinery/errors';
import type { RequestContext } from './context';
import type { ResourceRequestInfo } from './request-info';
import type { ServerContext } from './server-context';
import type { ResourceType } from '../registry/resource-type';
import { handleNonResource } from './nonresource';
import { negotiateOutput } from './negotiate';
import { handleGet } from './handlers/get';
import { handleList } from './handlers/list';
import { handleCreate } from './handlers/create';
import { handleUpdate } from './handlers/update';
import { handlePatch } from './handlers/patch';
import { handleDelete } from './handlers/delete';
import { handleDeleteCollection } from './handlers/deletecollection';
import { handleWatch } from './handlers/watch';
import { decodeProtobufBody } from './protobuf/http';

export interface ResolvedRequest {
  info: ResourceRequestInfo;
  rt: ResourceType;
  /** Namespace from the path for namespaced resources ('' for cluster-scoped ones and all-namespaces paths). */
  namespace: string;
}

export async function dispatch(server: ServerContext, ctx: RequestContext): Promise<Response> {
  const info = ctx.info;
  if (!info.isResourceRequest) return handleNonResource(server, ctx);

  const rt = server.catalog.lookup(info.group, info.version, info.resource);
  if (rt === undefined) throw pathNotFound();
  const pathHasNamespace = info.parts.length > 0 && info.resource !== 'namespaces' && info.namespace !== '';
  if (pathHasNamespace && !rt.namespaced) throw pathNotFound();
  if (info.subresource !== '' && !rt.subresources.has(info.subresource)) throw pathNotFound();
  if (info.parts.length > 3) throw pathNotFound();
  const named = info.name !== '';
  if (rt.namespaced && named && !pathHasNamespace) throw pathNotFound();

  const req: ResolvedRequest = { info, rt, namespace: rt.namespaced ? info.namespace : '' };
  if (rt.deprecation !== undefined) {
    ctx.warnings.push(rt.deprecation.warning);
    server.metrics.deprecatedApiRequested({
      group: rt.group,
      version: rt.version,
      resource: rt.resource,
      subresource: info.subresource,
      removedRelease: rt.deprecation.removedRelease,
    });
  }
  const method = ctx.request.method.toUpperCase();
  const verbs =
    info.subresource === '' ? rt.verbs : (rt.subresources.get(info.subresource)?.verbs ?? new Set<string>());
  const allow = (verb: string): void => {
    if (!verbs.has(verb)) throw methodNotAllowed();
  };
  const output = (table: boolean, watch = false) => {
    // Protobuf is offered for built-in kinds only; custom resources fall back to JSON (or 406).
    ctx.output = negotiateOutput(server.profile, ctx.request.headers.get('accept'), {
      table,
      protobuf: !rt.custom,
      watch,
    });
  };

  switch (method) {
    case 'GET':
    case 'HEAD':
      if (info.verb === 'watch') {
        allow('watch');
        output(true, true);
        return handleWatch(server, ctx, req);
      }
      if (named) {
        allow('get');
        output(info.subresource === '');
        return handleGet(server, ctx, req);
      }
      allow('list');
      output(true);
      return handleList(server, ctx, req);
    case 'POST':
      if (rt.namespaced && !pathHasNamespace) throw methodNotAllowed();
      if (named && info.subresource === '') throw methodNotAllowed();
      allow('create');
      output(false);
      if (!rt.custom) await decodeProtobufBody(ctx, server.profile);
      return handleCreate(server, ctx, req);
    case 'PUT':
      if (!named) throw methodNotAllowed();
      allow('update');
      output(false);
      if (!rt.custom) await decodeProtobufBody(ctx, server.profile);
      return handleUpdate(server, ctx, req);
    case 'PATCH':
      if (!named) throw methodNotAllowed();
      allow('patch');
      output(false);
      return handlePatch(server, ctx, req);
    case 'DELETE':
      if (named) {
        allow('delete');
        output(false);
        return handleDelete(server, ctx, req);
      }
      if (rt.namespaced && !pathHasNamespace) throw methodNotAllowed();
      allow('deletecollection');
      output(false);
      return handleDeleteCollection(server, ctx, req);
    default:
      throw methodNotAllowed();
  }
}
