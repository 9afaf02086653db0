/**
 * The SandboxWebhookTransport: answers calls addressed to a declared
 * backend inside the server, through the same AdmissionReview JSON the
 * real wire carries (the serialized body in, serialized text out, so the
 * learner sees exact bodies), and hands every other address to the
 * fallback (the Node host's HTTPS, or nothing in the browser). A
 * JavaScript backend runs in the host's ScriptRunner under the call's
 * timeout; its failures read as a real server's would: a throw is a 500,
 * a hang is `context deadline exceeded`, garbage is sent back verbatim so
 * the dispatcher reports the real parse error. How a backend answers
 * (`answer.ts`) is loaded with the first call to one.
 */

import { WebhookCallError, type WebhookTransport } from '../webhook-transport';
import { callUrl, resolveBackend } from './address';
import { backendCalls } from './library';
import { noScriptRunner, type BackendReader, type ScriptRunner } from './types';

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
      // The answering code (review bodies, rules, scripts) is loaded with the first call to a backend.
      const { answer } = await backendCalls.load();
      return answer(resolution.backend, call, url, runner);
    },
  };
}
