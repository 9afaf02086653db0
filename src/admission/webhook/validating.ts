/**
 * The validating webhook dispatcher: every matching webhook called at once
 * on the final object (validating webhooks cannot change it); any
 * rejection fails the request, a webhook that cannot be called follows
 * its failure policy. When several fail, the first in configuration order
 * is reported (the real server reports whichever it heard from first).
 * Steps are recorded in configuration order once all have answered.
 */

import type { AdmissionTraceStep } from '../../api/admission-trace';
import { toStatusError, type StatusError } from '../../machinery/errors';
import type { AdmissionAttributes, AdmissionPlugin, AdmissionPluginDeps } from '../types';
import { callWebhook, type CallContext } from './call';
import { credentialsFor, isExempt, metricCode, reviewOf, stepBase } from './common';
import { webhookRejection } from './errors';
import { matchWebhook } from './match';
import { webhookSource, type WebhookSource } from './source';
import type { WebhookEntry } from './types';

interface Outcome {
  step: AdmissionTraceStep;
  error?: StatusError;
}

export function validatingWebhookPlugin(
  deps: AdmissionPluginDeps,
  source: WebhookSource = webhookSource(deps, 'validating'),
): AdmissionPlugin {
  const ctx: CallContext = { deps, credentials: credentialsFor(deps) };
  const suffix = deps.profile.groupSuffix;
  return {
    name: 'ValidatingAdmissionWebhook',
    recordsOwnSteps: true,
    async validate(a) {
      if (isExempt(a, suffix)) return;
      const hooks = await source.webhooks();
      if (hooks.length === 0) return;
      const outcomes = await Promise.all(hooks.map((entry) => runOne(entry, a)));
      for (const o of outcomes) a.trace?.record(o.step);
      const failed = outcomes.find((o) => o.error !== undefined);
      if (failed?.error !== undefined) throw failed.error;
    },
  };

  async function runOne(entry: WebhookEntry, a: AdmissionAttributes): Promise<Outcome> {
    const { spec } = entry;
    const started = performance.now();
    const step = (s: Partial<AdmissionTraceStep>): AdmissionTraceStep => ({
      ...stepBase(entry, 'validating', performance.now() - started),
      decision: 'allowed',
      ...s,
    });
    const match = await matchWebhook(spec, a, deps).catch((e: unknown) => toStatusError(e));
    if (!('matched' in match))
      return {
        step: step({ decision: 'denied', message: match.status.message ?? '', code: match.code }),
        error: match,
      };
    if (!match.matched) return { step: step({ decision: 'skipped', reason: match.reason }) };
    const outcome = await callWebhook(spec, match.request, ctx);
    if (outcome.kind === 'skipped')
      return { step: step({ decision: 'skipped', reason: outcome.reason, rule: match.rule }) };
    const seconds = () => (performance.now() - started) / 1000;
    const rejected = (
      error: StatusError,
      errorType: 'calling_webhook_error' | 'no_error' | 'apiserver_internal_error',
      code: number,
      extra: Partial<AdmissionTraceStep>,
    ): Outcome => {
      deps.metrics.webhookRejection({
        name: spec.name,
        operation: a.operation,
        type: 'validating',
        errorType,
        rejectionCode: metricCode(code),
      });
      deps.metrics.observeWebhook(
        { name: spec.name, operation: a.operation, rejected: true, type: 'validating' },
        seconds(),
      );
      return {
        step: step({
          decision: 'denied',
          message: error.status.message ?? '',
          code: error.code,
          rule: match.rule,
          ...extra,
        }),
        error,
      };
    };
    if (outcome.kind === 'refused') return rejected(outcome.error, 'apiserver_internal_error', 0, {});
    if (outcome.kind === 'failed') {
      if (spec.failurePolicy === 'Ignore') {
        deps.metrics.observeWebhook(
          { name: spec.name, operation: a.operation, rejected: false, type: 'validating' },
          seconds(),
        );
        return {
          step: step({
            decision: 'error',
            message: outcome.error.message,
            reason: 'failurePolicy Ignore',
            rule: match.rule,
            ...reviewOf(outcome.review),
          }),
        };
      }
      return rejected(
        outcome.error.toStatusError(),
        'calling_webhook_error',
        outcome.error.code,
        reviewOf(outcome.review),
      );
    }
    const { result, review } = outcome;
    for (const w of result.warnings) a.warnings?.add(w);
    for (const [k, v] of Object.entries(result.auditAnnotations)) a.annotations?.add(`${spec.name}/${k}`, v);
    const warnings = result.warnings.length > 0 ? { warnings: result.warnings } : {};
    if (!result.allowed) {
      const error = webhookRejection(spec.name, result.status);
      return rejected(error, 'no_error', error.code, { ...warnings, ...reviewOf(review) });
    }
    deps.metrics.observeWebhook(
      { name: spec.name, operation: a.operation, rejected: false, type: 'validating' },
      seconds(),
    );
    return { step: step({ rule: match.rule, ...warnings, ...reviewOf(review) }) };
  }
}
