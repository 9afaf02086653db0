/**
 * Non-resource paths: discovery, `/version`, the health endpoints
 * (`/healthz`, `/livez`, `/readyz`, with `verbose` and `exclude`, and one
 * check by name), `/metrics`, OpenAPI and the service-account issuer's
 * discovery document and keys. Everything else is a 404 Status.
 */

import { pathNotFound, methodNotAllowed } from '../machinery/errors';
import type { RequestContext } from './context';
import type { ServerContext } from './server-context';
import { respondValue, baseHeaders, serialize } from './respond';
import { negotiateOutput } from './negotiate';
import { acceptsGzip, gzip } from './gzip';
import { handleOpenIdMetadata, isOpenIdMetadataPath } from './openid-metadata';
import { handleHealth, isHealthEndpoint } from './health/endpoint';
import {
  aggregatedDiscovery,
  apiGroupDocument,
  apiGroupList,
  apiResourceList,
  apiVersions,
} from './discovery';

export const serverVersion = {
  major: '1',
  minor: '27',
  gitVersion: 'v1.27.16',
  gitCommit: 'orch-sandbox',
  gitTreeState: 'clean',
  buildDate: '2024-07-17T00:00:00Z',
  goVersion: 'go1.22.5',
  compiler: 'gc',
  platform: 'js/wasm',
};

function discoveryResponse(
  server: ServerContext,
  ctx: RequestContext,
  legacy: boolean,
  plain: unknown,
): Response {
  const out = negotiateOutput(server.profile, ctx.request.headers.get('accept'), {
    table: false,
    protobuf: false,
    discovery: true,
  });
  ctx.output = out;
  if (out.kind === 'discovery') {
    const body = aggregatedDiscovery(server.profile, server.catalog, legacy);
    const ct = `application/json;g=${server.profile.suffixed('apidiscovery')};v=v2beta1;as=APIGroupDiscoveryList`;
    return new Response(serialize(body, 'json', ctx.pretty), { status: 200, headers: baseHeaders(ctx, ct) });
  }
  return respondValue(ctx, 200, plain);
}

export async function handleNonResource(server: ServerContext, ctx: RequestContext): Promise<Response> {
  const path = ctx.url.pathname.replace(/\/+$/, '') || '/';
  const method = ctx.request.method.toUpperCase();
  if (path.startsWith('/sandbox/')) return server.sandbox(ctx);
  if (isOpenIdMetadataPath(path)) return handleOpenIdMetadata(server, ctx, path);
  if (method !== 'GET' && method !== 'HEAD') {
    if (path === '/api' || path.startsWith('/api/') || path === '/apis' || path.startsWith('/apis/'))
      throw methodNotAllowed();
    throw pathNotFound();
  }
  const parts = path.split('/').filter((p) => p !== '');

  if (parts[0] === 'api') {
    if (parts.length === 1) return discoveryResponse(server, ctx, true, apiVersions(ctx.url.host));
    if (parts.length === 2) {
      const v = server.catalog.servedVersion('', parts[1] ?? '');
      if (v === undefined) throw pathNotFound();
      return respondValue(ctx, 200, apiResourceList('', v, await server.storageVersionHashes()));
    }
    throw pathNotFound();
  }
  if (parts[0] === 'apis') {
    if (parts.length === 1) return discoveryResponse(server, ctx, false, apiGroupList(server.catalog));
    const g = server.catalog.group(parts[1] ?? '');
    if (g === undefined || parts[1] === '') throw pathNotFound();
    if (parts.length === 2) return respondValue(ctx, 200, apiGroupDocument(g));
    if (parts.length === 3) {
      const v = server.catalog.servedVersion(g.name, parts[2] ?? '');
      if (v === undefined) throw pathNotFound();
      return respondValue(ctx, 200, apiResourceList(g.name, v, await server.storageVersionHashes()));
    }
    throw pathNotFound();
  }
  if (path === '/version') return respondValue(ctx, 200, serverVersion);
  if (isHealthEndpoint(parts[0]))
    return handleHealth(server, ctx, parts[0], parts.length > 1 ? parts.slice(1).join('/') : undefined);
  if (path === '/metrics') {
    const text = await server.metricsText();
    // The Prometheus text format's own media type, as the real exporter labels it.
    const headers = baseHeaders(ctx, 'text/plain; version=0.0.4; charset=utf-8');
    if (!acceptsGzip(ctx.request.headers.get('accept-encoding')))
      return new Response(text, { status: 200, headers });
    headers.set('Content-Encoding', 'gzip');
    return new Response(await gzip(text), { status: 200, headers });
  }
  if (parts[0] === 'openapi') return server.openapi(ctx);
  throw pathNotFound();
}
