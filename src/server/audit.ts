/**
 * Audit for one server: the policy (`--audit-policy-file`; the browser's
 * workshop setting), the sinks (the Node host's `--audit-log-path`, the
 * sandbox's live audit log) and, per request, the recorder the pipeline
 * drives — RequestReceived before authorization, ResponseStarted when a
 * watch begins streaming, ResponseComplete with status, annotations and the
 * bodies the level asks for.
 */

import type { UserInfo } from '../api/authn';
import type { JsonValue, Status } from '../api/meta';
import { AuditLog, type AuditSink } from '../audit/log';
import type { AuditPolicy } from '../audit/policy';
import { AuditRecorder, type AuditedResponse, type AuditRequest } from '../audit/recorder';
import type { RequestContext } from '../http/context';
import { requestAttributesOf } from '../http/request-info';
import type { AuditStarter } from '../http/server-context';
import type { NamingProfile } from '../machinery/naming';
import { watchEventsOf, withWatchEvents } from '../machinery/watch-objects';

export interface RequestAudit {
  /** The response to send; a promise only when a body the level records must be read first. */
  finish(response: Response, failure?: Status): Response | Promise<Response>;
}

export interface ServerAudit extends AuditStarter {
  /** The live log the sandbox API serves. */
  readonly log: AuditLog;
  /** Replaces the policy (workshop settings); undefined stops auditing. */
  setPolicy(policy: AuditPolicy | undefined): void;
  readonly policy: AuditPolicy | undefined;
}

function isJson(contentType: string | null): boolean {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase().endsWith('json') === true;
}

async function jsonOf(text: Promise<string>): Promise<JsonValue | undefined> {
  try {
    const t = await text;
    return t === '' ? undefined : (JSON.parse(t) as JsonValue);
  } catch {
    return undefined;
  }
}

export function createServerAudit(
  profile: NamingProfile,
  initial: AuditPolicy | undefined,
  sinks: readonly AuditSink[],
  now: () => Date,
): ServerAudit {
  const log = new AuditLog();
  let policy = initial;
  const apiVersion = `audit.${profile.groupSuffix}/v1`;
  return {
    log,
    get policy() {
      return policy;
    },
    setPolicy(p) {
      policy = p;
    },
    begin(ctx: RequestContext, authenticated: UserInfo): RequestAudit | undefined {
      if (policy === undefined) return undefined;
      const impersonated = ctx.user !== authenticated ? ctx.user : undefined;
      const userAgent = ctx.request.headers.get('user-agent');
      // The optional fields set one by one rather than spread into the literal (every request makes one).
      const request: AuditRequest = {
        auditId: ctx.auditId,
        received: ctx.now,
        method: ctx.request.method,
        requestURI: `${ctx.url.pathname}${ctx.url.search}`,
        user: authenticated,
        // What the policy matches besides the user: the authorization attributes (`attributesOf`), made once per
        // distinct request info.
        attributes: requestAttributesOf(ctx.info),
      };
      if (userAgent !== null) request.userAgent = userAgent;
      if (ctx.conn?.remote !== undefined) request.sourceIPs = [ctx.conn.remote.address];
      if (impersonated !== undefined) request.impersonatedUser = impersonated;
      if (ctx.info.isResourceRequest) request.apiVersion = ctx.info.version;
      const recorder = new AuditRecorder(policy, log, sinks, apiVersion, request, now);
      if (recorder.level === 'None') return undefined;
      recorder.received();
      // A copy of the body is read only when the level records it (the handler reads the original).
      const requestBody =
        recorder.wantsRequestBody &&
        ctx.request.body !== null &&
        isJson(ctx.request.headers.get('content-type'))
          ? jsonOf(ctx.request.clone().text())
          : undefined;
      return new RecordedRequest(ctx, recorder, requestBody);
    },
  };
}

/** One request's audit from its RequestReceived on (an object rather than closures: every request makes one). */
class RecordedRequest implements RequestAudit {
  constructor(
    private readonly ctx: RequestContext,
    private readonly recorder: AuditRecorder,
    /** A copy of the request's body, read when the level records it. */
    private readonly requestBody: Promise<JsonValue | undefined> | undefined,
  ) {}

  finish(response: Response, failure?: Status): Response | Promise<Response> {
    const { ctx, recorder, requestBody } = this;
    const longRunning = ctx.info.verb === 'watch' && failure === undefined && response.body !== null;
    if (longRunning) return this.streaming(response);
    const readsResponse =
      recorder.wantsResponseBody && isJson(response.headers.get('content-type')) && response.body !== null;
    // Bodies are awaited only when recorded: a GET at Metadata level answers without a turn of the microtask
    // queue here.
    if (!readsResponse && requestBody === undefined)
      return this.complete(response, failure, undefined, undefined);
    return (async () => {
      const responseBody = readsResponse ? await jsonOf(response.clone().text()) : undefined;
      return this.complete(
        response,
        failure,
        responseBody,
        requestBody === undefined ? undefined : await requestBody,
      );
    })();
  }

  private complete(
    response: Response,
    failure: Status | undefined,
    responseBody: JsonValue | undefined,
    body: JsonValue | undefined,
  ): Response {
    // The optional fields set one by one rather than spread into the literal (every request makes one).
    const audited: AuditedResponse = { code: response.status };
    if (failure !== undefined)
      audited.status = {
        ...(failure.status !== undefined ? { status: failure.status } : {}),
        ...(failure.message !== undefined ? { message: failure.message } : {}),
        ...(failure.reason !== undefined ? { reason: failure.reason } : {}),
      };
    if (responseBody !== undefined) audited.body = responseBody;
    this.recorder.completed(audited, this.ctx.auditAnnotations, body);
    return response;
  }

  /** A watch: ResponseStarted now, ResponseComplete when the stream ends (the client went away or the server closed it). */
  private streaming(response: Response): Response {
    const { ctx, recorder } = this;
    recorder.started(response.status, ctx.auditAnnotations);
    const body = response.body;
    if (body === null) return response;
    let finished = false;
    const once = (): void => {
      if (!finished) {
        finished = true;
        recorder.completed({ code: response.status }, ctx.auditAnnotations, undefined);
      }
    };
    const tracked = body.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({ flush: once }));
    ctx.signal.addEventListener('abort', once, { once: true });
    const wrapped = new Response(tracked, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    // An in-process client's events travel beside the body (machinery/watch-objects.ts): they go along.
    const objects = watchEventsOf(response);
    return objects !== undefined ? withWatchEvents(wrapped, objects) : wrapped;
  }
}

// What hosts need to read the audit flags (they import the server, never the audit layer).
export { AuditPolicyError, parseAuditPolicy, type AuditPolicy } from '../audit/policy';
export type { AuditSink } from '../audit/log';
