/**
 * How a declared backend answers one call, inside the server: the review
 * read from the body, then the backend's rules (CEL `when` and patches) or
 * its JavaScript in the host's ScriptRunner, each outcome in a real webhook
 * server's terms. Loaded with the first call to a backend
 * (`backend-calls.lazy.ts`); the transport only resolves the address.
 */

import { WebhookCallError, type WebhookCall, type WebhookCallResult } from '../webhook-transport';
import { encodePatch, parseReview, replyFor, type ParsedReview } from './review-body';
import { loadCelFor } from './cel';
import { answerWithRules } from './rules';
import type { ScriptRunner, WebhookBackend } from './types';
import { isPlainObject } from '../../machinery/json';

export async function answer(
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
