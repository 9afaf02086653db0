/**
 * create (POST to a collection): the body decoded (JSON or YAML) as an
 * object of the endpoint's kind, unknown fields handled per
 * fieldValidation, the namespace taken from the path (a body naming
 * another is 400), then the write pipeline; 201 with the stored object.
 */

import { badRequest, methodNotAllowed } from '../../machinery/errors';
import { deepClone, dropNulls } from '../../machinery/json';
import type { RequestContext } from '../context';
import type { ResolvedRequest } from '../dispatch';
import type { ServerContext } from '../server-context';
import { asObjectOfType, decodeObjectBody, readBodyText } from '../body';
import { negotiateBody } from '../negotiate';
import { parseDryRun } from '../options';
import { enforceFieldValidation, parseFieldValidation, undecodable } from '../field-validation';
import { respondObject } from '../encode';
import { ownershipOptions } from '../field-manager-options';
import { writeFor } from './write-request';

export async function handleCreate(
  server: ServerContext,
  ctx: RequestContext,
  req: ResolvedRequest,
): Promise<Response> {
  if (req.info.subresource !== '') throw methodNotAllowed();
  const dryRun = parseDryRun(ctx.query);
  const mode = parseFieldValidation(ctx.query);
  const ownership = ownershipOptions(server, ctx, 'CreateOptions');
  const format = negotiateBody(server.profile, ctx.request.headers.get('content-type'), false);
  const decoded = decodeObjectBody(await readBodyText(ctx.request), format, {
    kind: req.rt.kind,
    typed: !req.rt.custom,
  });
  const obj = asObjectOfType(decoded.value, { apiVersion: req.rt.apiVersion, kind: req.rt.kind });
  // custom resources keep nulls of nullable fields; their decoding drops the others (see CustomResourceFacts)
  if (!req.rt.custom) dropNulls(obj);
  enforceFieldValidation(server.catalog.definitions, req.rt, obj, mode, ctx.warnings, decoded.findings, {
    strictError: undecodable(req.rt),
  });
  const meta = obj.metadata ?? (obj.metadata = {});
  if (req.rt.namespaced) {
    if ((meta.namespace ?? '') === '') meta.namespace = req.namespace;
    else if (meta.namespace !== req.namespace)
      throw badRequest(
        'the namespace of the provided object does not match the namespace sent on the request',
      );
  } else delete meta.namespace;

  const outcome = await server.runWrite({
    ...writeFor(ctx, req, 'create', dryRun, { subresource: '', name: '' }),
    desired: () => deepClone(obj),
    createWhenMissing: true,
    fieldManager: { manager: ownership.manager, subresource: '' },
  });
  return respondObject(server, ctx, 201, req.rt, outcome.object);
}
