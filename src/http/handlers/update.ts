/**
 * update (PUT to a named object or its status/scale): the body must name
 * the object of the URL; a resourceVersion in it makes the update
 * conditional (stale is 409), without one it is unconditional. Kinds that
 * allow it are created when absent (201).
 */

import type { KubeObject } from '../../api/meta';
import { badRequest } from '../../machinery/errors';
import { deepClone, dropNulls } from '../../machinery/json';
import type { RequestContext } from '../context';
import type { ResolvedRequest } from '../dispatch';
import type { ServerContext } from '../server-context';
import { asObjectOfType, decodeObjectBody, readBodyText } from '../body';
import { negotiateBody } from '../negotiate';
import { parseDryRun } from '../options';
import { enforceFieldValidation, parseFieldValidation, undecodable } from '../field-validation';
import { respondObject } from '../encode';
import { applyScale, scaleOf } from '../subresources/scale';
import { respondValue } from '../respond';
import { ownershipOptions } from '../field-manager-options';
import { writeFor } from './write-request';

export function checkNameAndNamespace(req: ResolvedRequest, obj: KubeObject): void {
  const meta = obj.metadata ?? (obj.metadata = {});
  if ((meta.name ?? '') !== req.info.name)
    throw badRequest(
      `the name of the object (${meta.name ?? ''}) does not match the name on the URL (${req.info.name})`,
    );
  if (req.rt.namespaced) {
    if ((meta.namespace ?? '') === '') meta.namespace = req.namespace;
    else if (meta.namespace !== req.namespace)
      throw badRequest(
        'the namespace of the provided object does not match the namespace sent on the request',
      );
  } else delete meta.namespace;
}

export async function handleUpdate(
  server: ServerContext,
  ctx: RequestContext,
  req: ResolvedRequest,
): Promise<Response> {
  const dryRun = parseDryRun(ctx.query);
  const mode = parseFieldValidation(ctx.query);
  const ownership = ownershipOptions(server, ctx, 'UpdateOptions');
  const format = negotiateBody(server.profile, ctx.request.headers.get('content-type'), false);
  const sub = req.info.subresource;
  const decoded = decodeObjectBody(await readBodyText(ctx.request), format, {
    kind: sub === 'scale' ? 'Scale' : req.rt.kind,
    typed: !req.rt.custom,
  });
  const value = decoded.value;

  if (sub === 'scale') {
    const scaleRt = req.rt.subresources.get('scale');
    const scale = asObjectOfType(value, {
      apiVersion: `${scaleRt?.group ?? 'autoscaling'}/${scaleRt?.version ?? 'v1'}`,
      kind: 'Scale',
    });
    checkNameAndNamespace(req, scale);
    const outcome = await server.runWrite({
      ...writeFor(ctx, req, 'update', dryRun, { subresource: '' }),
      desired: (current) => applyScale(current ?? {}, scale, req.rt),
      fieldManager: { manager: ownership.manager, subresource: 'scale' },
    });
    return respondValue(ctx, 200, scaleOf(server, req.rt, outcome.object));
  }

  const obj = asObjectOfType(value, { apiVersion: req.rt.apiVersion, kind: req.rt.kind });
  // custom resources keep nulls of nullable fields; their decoding drops the others (see CustomResourceFacts)
  if (!req.rt.custom) dropNulls(obj);
  enforceFieldValidation(server.catalog.definitions, req.rt, obj, mode, ctx.warnings, decoded.findings, {
    strictError: undecodable(req.rt),
  });
  checkNameAndNamespace(req, obj);
  const outcome = await server.runWrite({
    ...writeFor(ctx, req, 'update', dryRun, { subresource: sub }),
    desired: () => deepClone(obj),
    createWhenMissing: sub === '' && req.rt.behavior.allowCreateOnUpdate,
    fieldManager: { manager: ownership.manager, subresource: sub },
  });
  return respondObject(server, ctx, outcome.created ? 201 : 200, req.rt, outcome.object);
}
