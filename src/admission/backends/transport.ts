/**
 * The SandboxWebhookTransport: answers calls addressed to a declared
 * backend inside the server, through the same AdmissionReview JSON the
 * real wire carries (the serialized body in, serialized text out, so the
 * learner sees exact bodies), and hands every other address to the
 * fallback (the Node host's HTTPS, or nothing in the browser). A
 * JavaScript backend runs in the host's ScriptRunner under the call's
 * timeout; its failures read as a real server's would: a throw is a 500,
 * a hang is `context deadline exceeded`, garbage is sent back verbatim so
 * the dispatcher reports the real parse error.
 */

import {
  WebhookCallError,
  type WebhookCall,
  type WebhookCallResult,
  type WebhookTransport,
} from '../webhook-transport';
import { callUrl, resolveBackend } from './address';
import { encodePatch, parseReview, replyFor, type ParsedReview } from './review-body';
import { loadCelFor } from './cel';
import { answerWithRules } from './rules';
import { noScriptRunner, type BackendReader, type ScriptRunner, type WebhookBackend } from './types';
import { isPlainObject } from '../../machinery/json';

export interface SandboxTransportOptions {
  backends: BackendReader;
  scriptRunner?: ScriptRunner;
}

export function sandboxTransport(
  fallback: WebhookTransport,
  options: SandboxTransportOptions,
): WebhookTransport {
  const runner = options.scriptRunner ?? noScriptRunner;
  return {
    async call(call) {
      const resolution = resolveBackend(call.clientConfig, await options.backends.list());
      if (resolution.kind === 'elsewhere') return fallback.call(call);
      const url = callUrl(call.clientConfig, call.timeoutMs);
      if (resolution.kind === 'unknown')
        throw new WebhookCallError(
          'unreachable',
          `Post "${url}": dial tcp: lookup ${resolution.host}: no such host`,
        );
      if (call.signal?.aborted === true)
        throw new WebhookCallError('timeout', `Post "${url}": context canceled`);
      return answer(resolution.backend, call, url, runner);
    },
  };
}

async function answer(
  backend: WebhookBackend,
  call: WebhookCall,
  url: string,
  runner: ScriptRunner,
): Promise<WebhookCallResult> {
  const review = parseReview(call.body);
  // What a webhook server answers a body it cannot read; the dispatcher reports it like any bad answer.
  if (review === undefined)
    return {
      status: 400,
      contentType: 'text/plain; charset=utf-8',
      body: 'the body is not an AdmissionReview\n',
    };
  if (backend.kind === 'rules') {
    await loadCelFor(backend);
    return answerWithRules(backend.rules ?? [], review);
  }
  return runScript(backend, call, url, runner, review);
}

async function runScript(
  backend: WebhookBackend,
  call: WebhookCall,
  url: string,
  runner: ScriptRunner,
  review: ParsedReview,
): Promise<WebhookCallResult> {
  const outcome = await runner.run({
    source: backend.source ?? '',
    input: call.body,
    timeoutMs: call.timeoutMs,
  });
  switch (outcome.kind) {
    case 'timeout':
      throw new WebhookCallError('timeout', `Post "${url}": context deadline exceeded`);
    case 'unavailable':
      throw new WebhookCallError(
        'unreachable',
        `Post "${url}": dial tcp: connect: connection refused (JavaScript backend "${backend.name}": ${outcome.message})`,
      );
    case 'threw':
      return { status: 500, contentType: 'text/plain; charset=utf-8', body: `${outcome.message}\n` };
    case 'returned':
      return {
        status: 200,
        contentType: 'application/json',
        body: replyBody(outcome.text, outcome.raw, review),
      };
  }
}

/** The full review as returned, or a bare response wrapped in one; a string or nothing goes out as is. */
function replyBody(text: string | undefined, raw: boolean, review: ParsedReview): string {
  if (text === undefined) return '';
  if (raw) return text;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text;
  }
  if (isPlainObject(value) && !('apiVersion' in value) && !('kind' in value) && !('response' in value))
    return replyFor(review, value);
  // A full review is the learner's contract to keep (uid included): only a patch list is encoded.
  if (isPlainObject(value) && isPlainObject(value.response) && Array.isArray(value.response.patch))
    return JSON.stringify({ ...value, response: encodePatch(value.response) });
  return text;
}
