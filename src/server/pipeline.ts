/**
 * The request pipeline: every request passes these stages, in this order,
 * here and nowhere else.
 *
 *   decode       — request info from method and path
 *   authenticate — who is asking (from the request and its connection)
 *   impersonate  — act as another identity, if allowed (`Impersonate-*`)
 *   authorize    — may they
 *   (handler)    — the verb's handler negotiates the output, decodes the
 *                  body and options, builds the request scope and calls the
 *                  storage of the resource (`registry/rest`); stored kinds'
 *                  writes run in the generic store (`registry/generic/store.ts`):
 *     defaulting → field ownership → admission (mutating) → strategy
 *     (prepare, validate, warnings) → admission (validating) → persist
 *   encode       — the result in the negotiated representation, with
 *                  warnings and Status errors shaped as the real server's.
 */

import { acceptsTable, tablePrinters } from '../http/table-columns/library';
import type { ConnectionInfo } from '../api/connection';
import { toStatusError } from '../machinery/errors';
import { newUid } from '../machinery/ids';
import { AuditAnnotations, Warnings } from '../registry/rest/scope';
import { parseRequestInfo, type RequestInfo } from '../http/request-info';
import { wantsPretty, type RequestContext } from '../http/context';
import { respondError } from '../http/respond';
import type { ServerContext } from '../http/server-context';
import { dispatch } from '../http/dispatch';
import { requestMetricLabelsOf } from '../http/request-labels';
import type { Status } from '../api/meta';
import type { RequestAudit } from './audit';
import { mentionsProtobuf, protobufLibrary } from '../http/protobuf/library';
import { acceptsYaml, yamlLibrary } from '../machinery/decode/yaml-library';
import { turnArrived } from '../machinery/cooperative';
import { afterAnswer } from '../machinery/after-answer';

export interface PipelineDeps {
  server: ServerContext;
  // Each stage answers undefined when it finished at once (the common case: a cached token, no impersonation,
  // a decision from the listers), so a request takes no turn of the microtask queue for it.
  /** Sets `ctx.user` (and warnings) or throws 401. */
  authenticate(ctx: RequestContext, conn: ConnectionInfo | undefined): Promise<void> | undefined;
  /** Replaces `ctx.user` with the impersonated identity when the request asks and may. */
  impersonate(ctx: RequestContext): Promise<void> | undefined;
  /** Throws 403 unless the request's user may do what it asks. */
  authorize(ctx: RequestContext): Promise<void> | undefined;
}

/** A request's URL and request info, decoded once (`decodeRequest`) for whoever looks at them before the pipeline. */
export interface DecodedRequest {
  url: URL;
  info: RequestInfo;
}

/** The pipeline's decode stage, for a caller that needs the request info before `handleRequest` (the gate). */
export function decodeRequest(request: Request): DecodedRequest {
  const url = new URL(request.url);
  return { url, info: parseRequestInfo(request.method, url) };
}

/** Answers one request (`decoded`: its `decodeRequest`, when the caller made it); never rejects. */
export async function handleRequest(
  deps: PipelineDeps,
  request: Request,
  conn?: ConnectionInfo,
  decoded?: DecodedRequest,
): Promise<Response> {
  const started = performance.now();
  // The turn that brought the request counts from here for long work's slices (machinery/cooperative.ts).
  turnArrived();
  // decode
  const { url, info } = decoded ?? decodeRequest(request);
  const headers = request.headers;
  // Read once for the three lazy libraries' checks below.
  const accept = headers.get('accept');
  const ctx: RequestContext = {
    request,
    url,
    query: url.searchParams,
    info,
    user: { username: '', groups: [] },
    warnings: new Warnings(),
    auditAnnotations: new AuditAnnotations(),
    auditId: newUid(),
    now: deps.server.now(),
    pretty: wantsPretty(url.searchParams, headers.get('user-agent')),
    signal: request.signal,
  };
  // Set after the literal, not spread into it: a spread makes every request's context property by property.
  if (conn !== undefined) ctx.conn = conn;
  let response: Response;
  let audit: RequestAudit | undefined;
  let failure: Status | undefined;
  try {
    // The protobuf codec is loaded on first use: a request that may be answered or sent in protobuf waits for it.
    if (mentionsProtobuf(accept, headers.get('content-type'))) await protobufLibrary.load();
    // So is YAML, for an answer in YAML (a YAML body loads it where it is decoded: most apply bodies are JSON).
    if (acceptsYaml(accept)) await yamlLibrary.load();
    // And the built-in kinds' table printers, for an answer as a Table.
    if (acceptsTable(accept)) await tablePrinters.load();
    // authenticate
    const authenticating = deps.authenticate(ctx, conn);
    if (authenticating !== undefined) await authenticating;
    const authenticated = ctx.user;
    // impersonate
    const impersonating = deps.impersonate(ctx);
    if (impersonating !== undefined) await impersonating;
    // audit: the policy sees the authenticated user; the event also names the impersonated one
    audit = deps.server.audit?.begin(ctx, authenticated);
    // authorize
    const authorizing = deps.authorize(ctx);
    if (authorizing !== undefined) await authorizing;
    // The admission trace, for a request admission may see: a read of a resource itself (get, list, watch) never
    // runs admission, so it opens none (a trace records nothing until admission begins one of its passes).
    if (!readsResourceOnly(info))
      ctx.trace = deps.server.traces?.open({
        auditId: ctx.auditId,
        received: ctx.now,
        method: request.method,
        path: `${url.pathname}${url.search}`,
        user: ctx.user.username,
      });
    // handler (through the resource's storage) and encode
    const dispatched = dispatch(deps.server, ctx);
    response = dispatched instanceof Response ? dispatched : await dispatched;
  } catch (e) {
    const err = toStatusError(e);
    failure = err.status;
    response = respondError(ctx, deps.server.profile, err);
  }
  if (audit !== undefined) {
    const finished = audit.finish(response, failure);
    response = finished instanceof Response ? finished : await finished;
  }
  const seconds = (performance.now() - started) / 1000;
  const code = response.status;
  // Counted after the answer (machinery/after-answer.ts), with the duration and code taken now.
  afterAnswer(() => recordRequest(deps.server, ctx, code, seconds));
  // Only an opened trace can hold a record (see above).
  if (ctx.trace !== undefined) deps.server.traces?.finish(ctx.auditId, response.status);
  return response;
}

/** A get, list or watch of a resource itself (no subresource: `exec`, `attach` and the like are admitted). */
function readsResourceOnly(info: RequestInfo): boolean {
  return (
    info.isResourceRequest &&
    info.subresource === '' &&
    (info.verb === 'get' || info.verb === 'list' || info.verb === 'watch')
  );
}

function recordRequest(server: ServerContext, ctx: RequestContext, code: number, seconds: number): void {
  const info = ctx.info;
  // Only routes the server serves are counted (their labels are bounded by what it serves), as the real one does.
  if (!info.isResourceRequest || ctx.routed !== true) return;
  const contentType = ctx.request.headers.get('content-type');
  const dryRun = ctx.query.get('dryRun') === 'All';
  server.metrics.recordRequest(requestMetricLabelsOf(info, contentType, dryRun, code), seconds);
}
