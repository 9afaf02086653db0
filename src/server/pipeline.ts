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
import { parseRequestInfo, type RequestInfo, type ResourceRequestInfo } from '../http/request-info';
import { wantsPretty, type RequestContext } from '../http/context';
import { respondError } from '../http/respond';
import type { RequestLabels, ServerContext } from '../http/server-context';
import { dispatch } from '../http/dispatch';
import { requestMetricLabelsOf } from '../http/request-labels';
import type { Status } from '../api/meta';
import type { UserInfo } from '../api/authn';
import type { RequestAudit } from './audit';
import { mentionsProtobuf, protobufLibrary } from '../http/protobuf/library';
import { acceptsYaml, yamlLibrary } from '../machinery/decode/yaml-library';
import { afterAnswer } from '../machinery/after-answer';
import { builtInDefinitionsComplete, loadBuiltInDefinitions } from '../registry/builtins';

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
  const url = parsedURL(request.url);
  return { url, info: parseRequestInfo(request.method, url) };
}

/**
 * The URLs parsed lately, by their text: a client asks the same URLs again and again (a poll, a kept GET), and
 * nothing on the request path changes a request's URL or its search parameters (a handler that needs other
 * parameters copies them), so a parsed URL, with the search parameters it made, serves every request for it.
 * Bounded: past the bound the map starts over.
 */
const parsedURLs = new Map<string, URL>();
const maxParsedURLs = 256;

function parsedURL(text: string): URL {
  let url = parsedURLs.get(text);
  if (url === undefined) {
    url = new URL(text);
    if (parsedURLs.size >= maxParsedURLs) parsedURLs.clear();
    parsedURLs.set(text, url);
  }
  return url;
}

/** Answers one request (`decoded`: its `decodeRequest`, when the caller made it); never rejects. */
export function handleRequest(
  deps: PipelineDeps,
  request: Request,
  conn?: ConnectionInfo,
  decoded?: DecodedRequest,
): Promise<Response> {
  const answer = answerRequest(deps, request, conn, decoded);
  return answer instanceof Response ? Promise.resolve(answer) : answer;
}

/** What the stages leave for the request's end: the audit begun, and the clock reading at its start. */
interface Pass {
  deps: PipelineDeps;
  ctx: RequestContext;
  started: number;
  audit: RequestAudit | undefined;
}

/**
 * `handleRequest`'s answer, synchronously when no stage had to wait: a GET answered from memory by a cached
 * token's user takes no turn of the microtask queue between the request and its `Response` (every stage that
 * may wait returns a promise only then, and the rest of the path continues from it). Never throws or rejects.
 */
export function answerRequest(
  deps: PipelineDeps,
  request: Request,
  conn?: ConnectionInfo,
  decoded?: DecodedRequest,
): Response | Promise<Response> {
  const started = performance.now();
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
  const pass: Pass = { deps, ctx, started, audit: undefined };
  let answer: Response | Promise<Response>;
  try {
    // The protobuf codec is loaded on first use: a request that may be answered or sent in protobuf waits for it;
    // so is YAML, for an answer in YAML (a YAML body loads it where it is decoded: most apply bodies are JSON),
    // and the built-in kinds' table printers, for an answer as a Table.
    // The built-in definitions the start does not carry, for every request but a read of what the start's own
    // part describes (mayNeedLazyDefinitions).
    const protobuf = mentionsProtobuf(accept, headers.get('content-type'));
    const yaml = acceptsYaml(accept);
    const table = acceptsTable(accept);
    const definitions = !builtInDefinitionsComplete() && mayNeedLazyDefinitions(info, url, protobuf);
    answer =
      protobuf || yaml || table || definitions
        ? loadLibraries(protobuf, yaml, table, definitions).then(() => authenticate(pass, conn))
        : authenticate(pass, conn);
  } catch (e) {
    return finish(pass, ...failed(ctx, deps, e));
  }
  if (answer instanceof Response) return finish(pass, answer, undefined);
  return answer.then(
    (response) => finish(pass, response, undefined),
    (e: unknown) => finish(pass, ...failed(ctx, deps, e)),
  );
}

async function loadLibraries(
  protobuf: boolean,
  yaml: boolean,
  table: boolean,
  definitions: boolean,
): Promise<void> {
  if (definitions) await loadBuiltInDefinitions();
  if (protobuf) await protobufLibrary.load();
  if (yaml) await yamlLibrary.load();
  if (table) await tablePrinters.load();
}

/**
 * Whether a request may read a built-in definition the worker's start does not carry (registry/builtins.ts):
 * all but a read of the core group's objects themselves or their status (their definitions, with meta's, are
 * the start's part), discovery, health, metrics and the sandbox's own reads. A write may reach any group's
 * kinds (admission's policies and their parameters, a namespace's deletion, a subresource's body), OpenAPI
 * documents and the state export hold every group's, and the protobuf codec indexes them all when made.
 */
export function mayNeedLazyDefinitions(info: RequestInfo, url: URL, protobuf: boolean): boolean {
  if (protobuf) return true;
  // A non-resource request's verb is its method's name (`head` too); a resource request's HEAD is a `get`.
  const read = info.verb === 'get' || info.verb === 'head' || info.verb === 'list' || info.verb === 'watch';
  if (!read) return true;
  if (info.isResourceRequest)
    return info.group !== '' || (info.subresource !== '' && info.subresource !== 'status');
  // The sandbox's other answers are its own JSON, not shaped as kinds (no negotiated output).
  const path = url.pathname;
  return path.startsWith('/openapi') || path.startsWith('/sandbox/v1/export');
}

/** A stage's failure as its Status answer. */
function failed(ctx: RequestContext, deps: PipelineDeps, e: unknown): [Response, Status] {
  const err = toStatusError(e);
  return [respondError(ctx, deps.server.profile, err), err.status];
}

// The stages, in order: each calls the next at once when it finished at once, or once its promise resolved.

function authenticate(pass: Pass, conn: ConnectionInfo | undefined): Response | Promise<Response> {
  const authenticating = pass.deps.authenticate(pass.ctx, conn);
  if (authenticating !== undefined) return authenticating.then(() => impersonate(pass));
  return impersonate(pass);
}

function impersonate(pass: Pass): Response | Promise<Response> {
  const authenticated = pass.ctx.user;
  const impersonating = pass.deps.impersonate(pass.ctx);
  if (impersonating !== undefined) return impersonating.then(() => authorize(pass, authenticated));
  return authorize(pass, authenticated);
}

function authorize(pass: Pass, authenticated: UserInfo): Response | Promise<Response> {
  const { deps, ctx } = pass;
  // audit: the policy sees the authenticated user; the event also names the impersonated one
  pass.audit = deps.server.audit?.begin(ctx, authenticated);
  const authorizing = deps.authorize(ctx);
  if (authorizing !== undefined) return authorizing.then(() => handle(pass));
  return handle(pass);
}

function handle(pass: Pass): Response | Promise<Response> {
  const { deps, ctx } = pass;
  // The admission trace, for a request admission may see: a read of a resource itself (get, list, watch) never
  // runs admission, so it opens none (a trace records nothing until admission begins one of its passes).
  if (!readsResourceOnly(ctx.info))
    ctx.trace = deps.server.traces?.open({
      auditId: ctx.auditId,
      received: ctx.now,
      method: ctx.request.method,
      path: `${ctx.url.pathname}${ctx.url.search}`,
      user: ctx.user.username,
    });
  // handler (through the resource's storage) and encode
  return dispatch(deps.server, ctx);
}

/** The audit's finish, the request's metrics (after the answer) and its trace's end. */
function finish(pass: Pass, answered: Response, failure: Status | undefined): Response | Promise<Response> {
  if (pass.audit !== undefined) {
    const finished = pass.audit.finish(answered, failure);
    if (!(finished instanceof Response)) return finished.then((response) => account(pass, response));
    return account(pass, finished);
  }
  return account(pass, answered);
}

function account(pass: Pass, response: Response): Response {
  const { deps, ctx } = pass;
  const seconds = (performance.now() - pass.started) / 1000;
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
  // Only a patch's verb label reads the content type (an apply is `APPLY`).
  const contentType = info.verb === 'patch' ? ctx.request.headers.get('content-type') : null;
  const dryRun = ctx.query.get('dryRun') === 'All';
  server.metrics.recordRequest(labelsOf(info, contentType, dryRun, code), seconds);
}

/** The last labels made for a request info (kept per path, see `parseRequestInfo`), handed out again while they fit. */
const lastLabels = new WeakMap<
  ResourceRequestInfo,
  { contentType: string | null; dryRun: boolean; code: number; labels: RequestLabels }
>();

/** `requestMetricLabelsOf`, the same object for a repeated request (the metrics keep their label sets by it). */
function labelsOf(
  info: ResourceRequestInfo,
  contentType: string | null,
  dryRun: boolean,
  code: number,
): RequestLabels {
  const last = lastLabels.get(info);
  if (last !== undefined && last.contentType === contentType && last.dryRun === dryRun && last.code === code)
    return last.labels;
  const labels = Object.freeze(requestMetricLabelsOf(info, contentType, dryRun, code));
  lastLabels.set(info, { contentType, dryRun, code, labels });
  return labels;
}
