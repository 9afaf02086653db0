/**
 * Encoding of API results: single objects and lists in the negotiated
 * representation — JSON or YAML as they are, a server-rendered Table
 * (default columns Name and Created At), or object metadata only
 * (PartialObjectMetadata). Items of built-in lists carry no apiVersion and
 * kind, as in the real server; custom resource items keep theirs. Objects
 * arrive from the storages already in the served version.
 */

import type { KubeObject, ListMeta } from '../api/meta';
import type { ResourceType } from '../registry/resource-type';
import type { RequestContext } from './context';
import { respondValue, respondValueSliced } from './respond';
import type { ServerContext } from './server-context';
import { tableFor } from './table';
import { partialObjectMetadata, partialShapeMismatch } from './partial-metadata';

function partial(
  server: ServerContext,
  ctx: RequestContext,
  metaVersion: string,
  obj: KubeObject,
): KubeObject {
  return partialObjectMetadata(server.profile, metaVersion, obj, ctx.conn?.trimsManagedFields === true);
}

export async function respondObject(
  server: ServerContext,
  ctx: RequestContext,
  status: number,
  rt: ResourceType,
  obj: KubeObject,
): Promise<Response> {
  const out = ctx.output;
  if (out?.kind === 'table')
    return respondValue(
      ctx,
      status,
      tableFor(server, ctx, rt, [obj], { resourceVersion: obj.metadata?.resourceVersion }),
    );
  // A Status (a delete's answer) is passed through whatever the client asked for, as the real transform does.
  if (out?.kind === 'partial' && !(obj.kind === 'Status' && obj.apiVersion === 'v1')) {
    if (out.partialAs === 'PartialObjectMetadataList') throw partialShapeMismatch(rt, out.partialAs);
    return respondValue(ctx, status, partial(server, ctx, out.metaVersion ?? 'v1', obj));
  }
  return respondValueSliced(ctx, status, obj);
}

/**
 * Refuses, before a write, an answer the write could not encode: a single object asked for as
 * PartialObjectMetadataList. The real server commits the write and then answers this 406, so the
 * client is told its write failed when it did not; here nothing is written (decision 0065).
 */
export function refuseUnencodableObjectAnswer(ctx: RequestContext, rt: ResourceType): void {
  const out = ctx.output;
  if (out?.kind === 'partial' && out.partialAs === 'PartialObjectMetadataList')
    throw partialShapeMismatch(rt, out.partialAs);
}

export function respondList(
  server: ServerContext,
  ctx: RequestContext,
  rt: ResourceType,
  items: KubeObject[],
  metadata: ListMeta,
): Response {
  const out = ctx.output;
  if (out?.kind === 'table') return respondValue(ctx, 200, tableFor(server, ctx, rt, items, metadata));
  if (out?.kind === 'partial') {
    if (out.partialAs === 'PartialObjectMetadata') throw partialShapeMismatch(rt, out.partialAs);
    const v = out.metaVersion ?? 'v1';
    return respondValue(ctx, 200, {
      kind: 'PartialObjectMetadataList',
      apiVersion: `${server.profile.metaGroup}/${v}`,
      metadata,
      items: items.map((o) => partial(server, ctx, v, o)),
    });
  }
  return respondValue(ctx, 200, {
    kind: rt.listKind,
    apiVersion: rt.apiVersion,
    metadata,
    items: items.map((o) => listItem(rt, o)),
  });
}

/** A list item: built-in kinds drop apiVersion/kind (the list names them); custom resources keep them. */
export function listItem(rt: ResourceType, obj: KubeObject): KubeObject {
  if (rt.custom) return obj;
  if (obj.apiVersion === undefined && obj.kind === undefined) return obj;
  const { apiVersion: _a, kind: _k, ...rest } = obj;
  return rest;
}
