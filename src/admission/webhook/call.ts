/**
 * One webhook call, as both dispatchers make it: the dry-run check, the
 * match conditions, version negotiation, the AdmissionReview sent through
 * the transport with the configuration's timeout and the credentials for
 * its address, and the answer checked. Failures are worded as the real
 * server words them after `failed calling webhook "<name>": `.
 */

import type { JsonObject, JsonValue } from '../../api/meta';
import { celLibrary } from '../../cel';
import { StatusError } from '../../machinery/errors';
import { WebhookCallError } from '../webhook-transport';
import type { AdmissionPluginDeps } from '../types';
import { compileConditions, evaluateConditions } from './conditions';
import type { CredentialsResolver } from './credentials';
import { CallingWebhookError } from './errors';
import {
  buildReview,
  InvalidResponseError,
  negotiateVersion,
  verifyResponse,
  type ReviewResult,
  type VersionedRequest,
} from './review';
import type { WebhookSpec } from './types';

export interface ReviewBodies {
  request: JsonValue;
  response?: JsonValue;
  responseText?: string;
}

export type CallOutcome =
  | { kind: 'skipped'; reason: string }
  | { kind: 'answered'; result: ReviewResult; review: ReviewBodies }
  | { kind: 'failed'; error: CallingWebhookError; review?: ReviewBodies }
  /** Refused before any call (a dry run to a webhook with side effects). */
  | { kind: 'refused'; error: StatusError };

export interface CallContext {
  deps: Pick<AdmissionPluginDeps, 'profile' | 'featureGates' | 'authorizer' | 'transport'>;
  credentials: CredentialsResolver;
}

export async function callWebhook(
  spec: WebhookSpec,
  v: VersionedRequest,
  ctx: CallContext,
): Promise<CallOutcome> {
  const a = v.attributes;
  const suffix = ctx.deps.profile.groupSuffix;
  if (a.dryRun && spec.sideEffects !== 'None' && spec.sideEffects !== 'NoneOnDryRun')
    return {
      kind: 'refused',
      error: new StatusError(400, 'BadRequest', `admission webhook "${spec.name}" does not support dry run`),
    };
  const version = negotiateVersion(spec.admissionReviewVersions);
  const uid = crypto.randomUUID();
  const review = buildReview(suffix, version ?? 'v1', uid, v);
  const conditions = spec.matchConditions ?? [];
  if (conditions.length > 0 && ctx.deps.featureGates.AdmissionWebhookMatchConditions === true) {
    const request = { ...(review.request as JsonObject) };
    delete request.object;
    delete request.oldObject;
    delete request.options;
    // Match conditions are CEL: the library is loaded on first use (see cel/engine.ts).
    await celLibrary.load();
    const outcome = await evaluateConditions(
      compileConditions(conditions),
      { object: v.object as JsonValue | undefined, oldObject: v.oldObject as JsonValue | undefined, request },
      a,
      ctx.deps.authorizer,
      spec.failurePolicy ?? 'Fail',
    );
    if (outcome.kind === 'skip')
      return {
        kind: 'skipped',
        reason:
          outcome.condition !== undefined
            ? `match condition "${outcome.condition}" false`
            : 'match condition error (failurePolicy Ignore)',
      };
    if (outcome.kind === 'error')
      return {
        kind: 'failed',
        error: new CallingWebhookError(
          spec.name,
          `failed to evaluate match condition: ${outcome.message}`,
          500,
        ),
      };
  }
  if (version === undefined)
    return {
      kind: 'failed',
      error: new CallingWebhookError(
        spec.name,
        'could not create admission objects: webhook does not accept known AdmissionReview versions',
      ),
    };
  const bodies: ReviewBodies = { request: review };
  let answer;
  try {
    answer = await ctx.deps.transport.call({
      clientConfig: spec.clientConfig,
      body: JSON.stringify(review),
      timeoutMs: (spec.timeoutSeconds ?? 10) * 1000,
      ...credentialsOf(ctx, spec),
    });
  } catch (e) {
    const message = e instanceof WebhookCallError || e instanceof Error ? e.message : String(e);
    return {
      kind: 'failed',
      error: new CallingWebhookError(spec.name, `failed to call webhook: ${message}`),
      review: bodies,
    };
  }
  bodies.responseText = answer.body;
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.body);
    bodies.response = parsed as JsonValue;
    delete bodies.responseText;
  } catch {
    parsed = undefined;
  }
  if (answer.status < 200 || answer.status > 299) {
    const status = parsed as { kind?: unknown; message?: unknown; code?: unknown } | undefined;
    const text =
      status?.kind === 'Status' && typeof status.message === 'string'
        ? status.message
        : `an error on the server (${JSON.stringify(answer.body.trim())}) has prevented the request from succeeding`;
    return {
      kind: 'failed',
      error: new CallingWebhookError(spec.name, `failed to call webhook: ${text}`, answer.status),
      review: bodies,
    };
  }
  if (parsed === undefined)
    return {
      kind: 'failed',
      error: new CallingWebhookError(
        spec.name,
        `failed to call webhook: couldn't get version/kind; json parse error: ${goJsonError(answer.body)}`,
      ),
      review: bodies,
    };
  if (parsed === null || typeof parsed !== 'object' || (parsed as { kind?: unknown }).kind === undefined)
    return {
      kind: 'failed',
      error: new CallingWebhookError(
        spec.name,
        `failed to call webhook: Object 'Kind' is missing in '${answer.body}'`,
      ),
      review: bodies,
    };
  try {
    return { kind: 'answered', result: verifyResponse(suffix, version, uid, parsed), review: bodies };
  } catch (e) {
    if (!(e instanceof InvalidResponseError)) throw e;
    return {
      kind: 'failed',
      error: new CallingWebhookError(spec.name, `received invalid webhook response: ${e.message}`),
      review: bodies,
    };
  }
}

function credentialsOf(ctx: CallContext, spec: WebhookSpec) {
  const credentials = ctx.credentials.resolve(spec.clientConfig);
  return credentials === undefined ? {} : { credentials };
}

/** The first problem Go's JSON decoder reports for a body that is not JSON. */
function goJsonError(body: string): string {
  const trimmed = body.replace(/^\s+/, '');
  if (trimmed === '') return 'unexpected end of JSON input';
  const c = trimmed[0] ?? '';
  return `invalid character '${c}' looking for beginning of value`;
}
