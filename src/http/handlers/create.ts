/**
 * create (POST to a collection, or to a named object's subresource such as
 * `eviction`): the body decoded (JSON, YAML or protobuf) as an object of
 * the storage's kind, unknown fields handled per fieldValidation, the
 * namespace taken from the path (a body naming another is 400), then the
 * storage's create; 201 with what it returns.
 */

import type { KubeObject } from '../../api/meta';
import { badRequest } from '../../machinery/errors';
import type { Creater, NamedCreater, RestStorage, WriteOptions } from '../../registry/rest/capabilities';
import type { RequestContext } from '../context';
import type { ResolvedRequest } from '../dispatch';
import type { ServerContext } from '../server-context';
import { negotiateBody } from '../negotiate';
import { parseDryRun } from '../options';
import { parseFieldValidation } from '../field-validation';
import { refuseUnencodableObjectAnswer, respondObject } from '../encode';
import { respondValue } from '../respond';
import { ownershipOptions } from '../field-manager-options';
import { optionsObject, requestScope } from '../scope';
import { breathe } from '../../machinery/cooperative';
import { decodeWrittenObject } from './written-object';
import { earlyAnswer } from './create-answer';

export async function handleCreate(
  server: ServerContext,
  ctx: RequestContext,
  req: ResolvedRequest,
  storage: RestStorage & (Creater | NamedCreater),
): Promise<Response> {
  const dryRun = parseDryRun(ctx.query);
  const mode = parseFieldValidation(ctx.query);
  const ownership = ownershipOptions(server, ctx, 'CreateOptions');
  const format = negotiateBody(server.profile, ctx.request.headers.get('content-type'), true);
  refuseUnencodableObjectAnswer(ctx, req.rt);
  const kind = storage.objectKind;
  // Bodies of other kinds (an Eviction, a review) lose their nulls too; field validation is for the resource's own.
  const obj = await decodeWrittenObject(server, ctx, req, storage, format, mode, {
    dropNulls: true,
    validate: kind === undefined,
  });
  ctx.warnings.keep();
  const meta = obj.metadata ?? (obj.metadata = {});
  if (req.rt.namespaced) {
    if ((meta.namespace ?? '') === '') meta.namespace = req.namespace;
    else if (meta.namespace !== req.namespace)
      throw badRequest(
        'the namespace of the provided object does not match the namespace sent on the request',
      );
  } else if (kind === undefined) delete meta.namespace;

  const scope = requestScope(ctx, req, storage, 'create', {
    dryRun,
    options: optionsObject(server.profile, 'CreateOptions', ctx.query),
  });
  // The answer's text is made while the create commits, where the storage allows it (create-answer.ts).
  const early = dryRun ? undefined : earlyAnswer(ctx, req, storage);
  const options: WriteOptions = {
    fieldManager: { manager: ownership.manager },
    ...(early !== undefined ? { issued: (object: Readonly<KubeObject>) => early.issued(object) } : {}),
  };
  let created: KubeObject;
  if (req.info.name !== '' && 'createNamed' in storage && storage.createNamed !== undefined)
    created = await storage.createNamed(scope, req.info.name, obj, options);
  else if ('create' in storage && storage.create !== undefined)
    created = await storage.create(scope, obj, options);
  else throw badRequest('create is not supported');
  await breathe();
  // Storages of other kinds (reviews, evictions) answer with their own object or a Status.
  if (kind !== undefined || created.kind === 'Status') return respondValue(ctx, 201, created);
  const answered = early?.answer(ctx, created);
  if (answered !== undefined) return answered;
  return respondObject(server, ctx, 201, req.rt, created);
}
