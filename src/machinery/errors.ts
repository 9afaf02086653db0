/**
 * Status errors: the failures the server answers with, shaped and worded as
 * the real API server shapes them (kind Status, reason, details, code), so
 * that clients that switch on reason or parse messages behave the same. Every
 * error path of the server throws one of these; anything else becomes an
 * InternalError at the edge.
 */

import type { Status, StatusCause, StatusDetails, StatusReason } from '../api/meta';
import { aggregateFieldErrors, type FieldError, fieldErrorBody } from './field-errors';

/** A group and a plural resource, e.g. `{ group: 'apps', resource: 'deployments' }`. */
export interface GroupResource {
  group: string;
  resource: string;
}

/** `deployments.apps`, or `configmaps` for the core group. */
function qualifiedResource(gr: GroupResource): string {
  return gr.group === '' ? gr.resource : `${gr.resource}.${gr.group}`;
}

export class StatusError extends Error {
  readonly status: Status;
  /** Extra response headers (e.g. Retry-After). */
  readonly headers: Record<string, string>;

  constructor(
    code: number,
    reason: StatusReason | undefined,
    message: string,
    details?: StatusDetails,
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'StatusError';
    this.status = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message,
      ...(reason !== undefined ? { reason } : {}),
      ...(details !== undefined ? { details } : {}),
      code,
    };
    this.headers = headers;
  }

  get code(): number {
    return this.status.code;
  }

  get reason(): StatusReason | undefined {
    return this.status.reason;
  }
}

function grDetails(gr: GroupResource, name?: string): StatusDetails {
  return {
    ...(name !== undefined && name !== '' ? { name } : {}),
    ...(gr.group !== '' ? { group: gr.group } : {}),
    kind: gr.resource,
  };
}

export function notFound(gr: GroupResource, name: string): StatusError {
  return new StatusError(
    404,
    'NotFound',
    `${qualifiedResource(gr)} "${name}" not found`,
    grDetails(gr, name),
  );
}

export function alreadyExists(gr: GroupResource, name: string): StatusError {
  return new StatusError(
    409,
    'AlreadyExists',
    `${qualifiedResource(gr)} "${name}" already exists`,
    grDetails(gr, name),
  );
}

export function conflict(gr: GroupResource, name: string, why: string): StatusError {
  return new StatusError(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${qualifiedResource(gr)} "${name}": ${why}`,
    grDetails(gr, name),
  );
}

/** The optimistic-concurrency failure of an update carrying a stale resourceVersion. */
export function staleResourceVersion(gr: GroupResource, name: string): StatusError {
  return conflict(
    gr,
    name,
    'the object has been modified; please apply your changes to the latest version and try again',
  );
}

export function forbidden(gr: GroupResource | undefined, name: string, why: string): StatusError {
  let message: string;
  if (gr === undefined || (gr.group === '' && gr.resource === '')) message = `forbidden: ${why}`;
  else if (name === '') message = `${qualifiedResource(gr)} is forbidden: ${why}`;
  else message = `${qualifiedResource(gr)} "${name}" is forbidden: ${why}`;
  return new StatusError(403, 'Forbidden', message, gr === undefined ? undefined : grDetails(gr, name));
}

/** A group and a kind, e.g. `{ group: 'apps', kind: 'Deployment' }`. */
export interface GroupKind {
  group: string;
  kind: string;
}

/** 422 Invalid with one cause per field error. */
export function invalid(gk: GroupKind, name: string, errors: FieldError[]): StatusError {
  const qualifiedKind = gk.group === '' ? gk.kind : `${gk.kind}.${gk.group}`;
  const causes: StatusCause[] = errors.map((e) => ({
    reason: e.type,
    message: fieldErrorBody(e),
    field: e.field,
  }));
  const aggregate = aggregateFieldErrors(errors);
  const message =
    aggregate === ''
      ? `${qualifiedKind} "${name}" is invalid`
      : `${qualifiedKind} "${name}" is invalid: ${aggregate}`;
  return new StatusError(422, 'Invalid', message, {
    ...(name !== '' ? { name } : {}),
    ...(gk.group !== '' ? { group: gk.group } : {}),
    // StatusDetails' fields are omitempty: a patch's error, of no kind, has none.
    ...(gk.kind !== '' ? { kind: gk.kind } : {}),
    causes,
  });
}

export function badRequest(message: string): StatusError {
  return new StatusError(400, 'BadRequest', message);
}

/** 405 for a method that has no meaning on a path (e.g. POST to a named object). */
export function methodNotAllowed(): StatusError {
  return new StatusError(
    405,
    'MethodNotAllowed',
    'the server does not allow this method on the requested resource',
    {},
  );
}

export function notAcceptable(accepted: readonly string[]): StatusError {
  return new StatusError(
    406,
    'NotAcceptable',
    `only the following media types are accepted: ${accepted.join(', ')}`,
  );
}

export function unsupportedMediaType(accepted: readonly string[]): StatusError {
  return new StatusError(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
  );
}

/** 410 Gone with reason Expired: a resourceVersion or continue token older than the history. */
export function resourceExpired(message: string): StatusError {
  return new StatusError(410, 'Expired', message);
}

/** The answer to a resourceVersion the server has not reached yet. */
export function tooLargeResourceVersion(
  requested: number,
  current: number,
  retryAfterSeconds = 1,
): StatusError {
  return new StatusError(
    504,
    'Timeout',
    `Timeout: Too large resource version: ${requested}, current: ${current}`,
    {
      causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
      retryAfterSeconds,
    },
    { 'Retry-After': String(retryAfterSeconds) },
  );
}

export function requestEntityTooLarge(message: string): StatusError {
  return new StatusError(413, 'RequestEntityTooLarge', `Request entity too large: ${message}`);
}

export function internalError(error: unknown): StatusError {
  const text = error instanceof Error ? error.message : String(error);
  return new StatusError(500, 'InternalError', `Internal error occurred: ${text}`, {
    causes: [{ message: text }],
  });
}

/** 404 for a path the server does not serve. */
export function pathNotFound(): StatusError {
  return new StatusError(404, 'NotFound', 'the server could not find the requested resource', {});
}

/** Any thrown value as a StatusError (unknown failures become InternalError). */
export function toStatusError(error: unknown): StatusError {
  return error instanceof StatusError ? error : internalError(error);
}
