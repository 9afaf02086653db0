/**
 * "Show me": a step done by the app, the way a learner would do it — each
 * request sent through the learner's own (recorded) client as the step's
 * identity, a watch opened in the Watch inspector — so the step's checks
 * see it exactly as they would see the learner's work. Values a later
 * request needs (a resourceVersion, a name the server generated) are
 * captured from an earlier answer with a CEL expression over `response`
 * and written `${name}`. An answer outside the statuses the step expects
 * stops it with the server's Status, shown like every other error.
 */

import type { JsonValue } from '../api/meta';
import { compileDynamicExpression, evaluateDynamic, isCompileError } from '../cel/index';
import { errorFromResponse, withQuery, type ApiClient, type ApiError } from '../client/index';
import { clientProofHeaders, credentialFromPEM, signRequest } from '../client/proof-of-possession';
import { decodeBase64Text } from '../machinery/base64-text';
import type { HttpRequest, LessonStep, ShowMeAction } from './format';
import type { LessonHost } from './host';
import type { InspectorEvent } from './inspector';
import { headerRecord } from './journal';

/** One request "Show me" sent, as the step shows it. */
export interface SentRequest {
  as: string;
  method: string;
  /** Path and query. */
  path: string;
  contentType?: string;
  body?: string;
  status: number;
  /** The watch the inspector opened, instead of a request. */
  watch?: boolean;
}

export interface ShowMeResult {
  sent: SentRequest[];
  /** The answer that stopped it (a status the step did not expect), with the server's Status. */
  error?: ApiError | Error;
}

/** How long a "Show me" watch waits for the events it expects. */
const watchWaitMs = 10_000;

export async function showMe(step: LessonStep, identity: string, host: LessonHost): Promise<ShowMeResult> {
  const sent: SentRequest[] = [];
  const values: Record<string, string> = {};
  for (const action of step.showMe) {
    const as = action.as ?? identity;
    if ('request' in action && action.withCertificate !== undefined) {
      const certificate = substitute(action.withCertificate, values);
      const raw = await certificateRaw(host, certificate.certificate, certificate.key);
      const { response, entry } = await send(raw, substitute(action.request, values), 'its certificate');
      sent.push(entry);
      const failed = await outcome(action, response, values);
      if (failed !== undefined) return { sent, error: failed };
      continue;
    }
    const client = await host.clientFor(as, true);
    if ('watch' in action) {
      const request = substitute(action.watch, values);
      const since = Date.now();
      host.inspector.start(request, client);
      sent.push({
        as,
        method: 'GET',
        path: withQuery(request.path, { ...request.query, watch: 'true' }),
        status: 200,
        watch: true,
      });
      if (action.waitFor !== undefined) {
        const error = await waitForEvents(host, action.waitFor, since);
        if (error !== undefined) return { sent, error };
      }
      continue;
    }
    const { response, entry } = await send(client.raw, substitute(action.request, values), as);
    sent.push(entry);
    const failed = await outcome(action, response, values);
    if (failed !== undefined) return { sent, error: failed };
  }
  return { sent };
}

/** The error that stops "Show me" after an answer (a status the step did not expect, a failed capture), if any. */
async function outcome(
  action: Extract<ShowMeAction, { request: unknown }>,
  response: Response,
  values: Record<string, string>,
): Promise<ApiError | Error | undefined> {
  const expected = action.expectStatus ?? [];
  const ok = expected.length === 0 ? response.ok : expected.includes(response.status);
  const text = await response.clone().text();
  if (!ok) return errorFromResponse(response);
  return capture(action, response, text, values);
}

/**
 * Sends without credentials through the learner's log, each request signed with the certificate's key (the
 * proof of possession the sandbox takes in place of a TLS client certificate), so the server authenticates it
 * as the certificate's subject.
 */
async function certificateRaw(
  host: LessonHost,
  certificatePEM: string,
  keyPEM: string,
): Promise<ApiClient['raw']> {
  // A `[]byte` field such as a CSR's status.certificate is JSON base64 of the PEM: either form is taken.
  const pem = certificatePEM.includes('-----BEGIN')
    ? certificatePEM
    : decodeBase64Text(certificatePEM.trim());
  const credential = await credentialFromPEM(pem, keyPEM);
  const anonymous = await host.clientFor('anonymous', true);
  const raw: ApiClient['raw'] = async (method, path, init = {}) => {
    // The proof covers method, path and query, a timestamp and the body's digest, all sent as they are here.
    const signed = await signRequest(
      new Request(new URL(path, 'http://sandbox.invalid'), {
        method,
        ...(init.body !== undefined ? { body: init.body } : {}),
      }),
      credential,
    );
    const proof: Record<string, string> = {};
    for (const name of Object.values(clientProofHeaders)) proof[name] = signed.headers.get(name) ?? '';
    return anonymous.raw(method, path, { ...init, headers: { ...init.headers, ...proof } });
  };
  return raw;
}

async function send(
  raw: ApiClient['raw'],
  request: HttpRequest,
  as: string,
): Promise<{ response: Response; entry: SentRequest }> {
  const headers: Record<string, string> = { ...request.headers };
  let body: string | undefined;
  if (request.body !== undefined) {
    body = typeof request.body === 'string' ? request.body : JSON.stringify(request.body, null, 2);
    headers['content-type'] = request.contentType ?? 'application/json';
  }
  if (request.accept !== undefined) headers['accept'] = request.accept;
  const path = withQuery(request.path, request.query);
  const response = await raw(request.method, path, {
    ...(body !== undefined ? { body } : {}),
    headers,
  });
  const entry: SentRequest = { as, method: request.method, path, status: response.status };
  if (body !== undefined) {
    entry.body = body;
    entry.contentType = headers['content-type']!;
  }
  return { response, entry };
}

/** Runs the action's captures over its answer; an error when one fails. */
function capture(
  action: Extract<ShowMeAction, { request: unknown }>,
  response: Response,
  text: string,
  values: Record<string, string>,
): Error | undefined {
  if (action.capture === undefined) return undefined;
  let body: JsonValue = text;
  try {
    body = JSON.parse(text) as JsonValue;
  } catch {
    // Not JSON: captures read the text.
  }
  const headers = headerRecord(response.headers);
  for (const [name, source] of Object.entries(action.capture)) {
    const compiled = compileDynamicExpression(['response'], source);
    if (isCompileError(compiled)) return new Error(`capture ${name}: ${compiled.message}`);
    const result = evaluateDynamic(compiled, { response: { status: response.status, headers, body } });
    if (result.status !== 'ok')
      return new Error(
        `capture ${name} (${source}) failed: ${'message' in result ? result.message : 'over its cost budget'}`,
      );
    values[name] = String(result.value);
  }
  return undefined;
}

/** `value` with `${name}` replaced by the captured values, in every string. */
function substitute<T>(value: T, values: Record<string, string>): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string')
      return v.replace(/\$\{([a-zA-Z_][a-zA-Z0-9_]*)\}/g, (m, name: string) => values[name] ?? m);
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v === 'object' && v !== null)
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}

/** Resolves when `condition` holds over the inspector's events since `since`, or with an error after a while. */
function waitForEvents(host: LessonHost, condition: string, since: number): Promise<Error | undefined> {
  const compiled = compileDynamicExpression(['events'], condition, 'bool');
  if (isCompileError(compiled)) return Promise.resolve(new Error(`waitFor: ${compiled.message}`));
  const holds = () => {
    const events: InspectorEvent[] = host.inspector.events().filter((e) => e.at >= since);
    const result = evaluateDynamic(compiled, { events: events as unknown as JsonValue });
    return result.status === 'ok' && result.value === true;
  };
  return new Promise((resolve) => {
    if (holds()) {
      resolve(undefined);
      return;
    }
    const done = (error: Error | undefined) => {
      clearTimeout(timer);
      unsubscribe();
      resolve(error);
    };
    const timer = setTimeout(
      () => done(new Error(`the Watch inspector did not see what the step expects (${condition})`)),
      watchWaitMs,
    );
    const unsubscribe = host.inspector.subscribe(() => {
      if (holds()) done(undefined);
    });
  });
}
