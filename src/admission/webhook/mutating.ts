/**
 * The mutating webhook dispatcher: every matching webhook in order
 * (configurations by name, then their webhooks), each seeing the previous
 * one's patched object; a webhook that cannot be called follows its
 * failure policy, a denial stops the request, and a patch that does not
 * apply is a 500 whatever the policy. Reinvocation as the real server:
 * when a call changes the object, the `IfNeeded` webhooks invoked before
 * it are called again in round 1 (and all of them, if built-in plugins
 * changed the object in between); no webhook is called for the first time
 * in round 1. Each call adds the `mutation.webhook.admission…` and
 * `patch.webhook.admission…` audit annotations and a trace step.
 */

import type { AdmissionTraceStep, JsonPatchOperation } from '../../api/admission-trace';
import type { JsonObject, JsonValue, KubeObject } from '../../api/meta';
import { StatusError } from '../../machinery/errors';
import type { AdmissionAttributes, AdmissionPlugin, AdmissionPluginDeps, AuditLevel } from '../types';
import { callWebhook, type CallContext } from './call';
import { credentialsFor, isExempt, metricCode, reviewOf, sameJson, stepBase } from './common';
import { webhookRejection } from './errors';
import { applyPatch, decodePatch, JsonPatchError } from './json-patch';
import { matchWebhook } from './match';
import { webhookSource, type WebhookSource } from './source';
import type { WebhookEntry } from './types';

const PLUGIN = 'MutatingAdmissionWebhook';

/** What the dispatcher remembers between the two rounds of one write. */
class ReinvokeState {
  /** IfNeeded webhooks called since the object last changed. */
  private previouslyInvoked = new Set<string>();
  /** Webhooks to call in round 1. */
  private readonly reinvoke = new Set<string>();
  lastOutput: KubeObject | undefined;

  requireReinvokingPreviouslyInvoked(): void {
    for (const k of this.previouslyInvoked) this.reinvoke.add(k);
    this.previouslyInvoked = new Set();
  }

  invoked(key: string): void {
    this.previouslyInvoked.add(key);
  }

  shouldReinvoke(key: string): boolean {
    return this.reinvoke.has(key);
  }
}

export function mutatingWebhookPlugin(
  deps: AdmissionPluginDeps,
  source: WebhookSource = webhookSource(deps, 'mutating'),
): AdmissionPlugin {
  const ctx: CallContext = { deps, credentials: credentialsFor(deps) };
  const suffix = deps.profile.groupSuffix;
  return {
    name: PLUGIN,
    recordsOwnSteps: true,
    async admit(a) {
      if (isExempt(a, suffix)) return undefined;
      const hooks = await source.webhooks();
      if (hooks.length === 0) return undefined;
      const reinvocation = a.reinvocation;
      let state = reinvocation?.values.get(PLUGIN) as ReinvokeState | undefined;
      if (state === undefined) {
        state = new ReinvokeState();
        reinvocation?.values.set(PLUGIN, state);
      }
      const round = reinvocation?.isReinvoke === true ? 1 : 0;
      if (
        round === 1 &&
        state.lastOutput !== undefined &&
        !sameJson(state.lastOutput as JsonValue, a.object as JsonValue)
      )
        // Built-in plugins changed the object in round 1: every IfNeeded webhook gets another look.
        state.requireReinvokingPreviouslyInvoked();
      let object = a.object;
      try {
        for (const entry of hooks) {
          const result = await runOne(entry, { ...a, object }, round, state);
          if (result !== undefined) object = result;
        }
      } finally {
        state.lastOutput = object;
      }
      return object === a.object ? undefined : object;
    },
  };

  /** One webhook: returns the patched object when it changed. */
  async function runOne(
    entry: WebhookEntry,
    a: AdmissionAttributes,
    round: number,
    state: ReinvokeState,
  ): Promise<KubeObject | undefined> {
    const { spec } = entry;
    const started = performance.now();
    const elapsed = () => performance.now() - started;
    // The audit annotations this call added, shown in its trace step.
    const added: Record<string, string> = {};
    const annotate = (key: string, value: string, level: AuditLevel = 'Metadata') => {
      a.annotations?.add(key, value, level);
      added[key] = value;
    };
    const record = (step: Partial<AdmissionTraceStep>) =>
      a.trace?.record({
        ...stepBase(entry, 'mutating', elapsed()),
        decision: 'allowed',
        round,
        ...(Object.keys(added).length > 0 ? { annotations: added } : {}),
        ...step,
      });
    const match = await matchWebhook(spec, a, deps);
    if (!match.matched) {
      record({ decision: 'skipped', reason: match.reason });
      return undefined;
    }
    if (round === 1 && !state.shouldReinvoke(entry.key)) {
      record({
        decision: 'skipped',
        reason: 'not reinvoked: the object did not change after it ran, or it is not IfNeeded',
        rule: match.rule,
      });
      return undefined;
    }
    const outcome = await callWebhook(spec, match.request, ctx);
    if (outcome.kind === 'skipped') {
      record({ decision: 'skipped', reason: outcome.reason, rule: match.rule });
      return undefined;
    }
    const observe = (rejected: boolean) =>
      deps.metrics.observeWebhook(
        { name: spec.name, operation: a.operation, rejected, type: 'admit' },
        elapsed() / 1000,
      );
    const reject = (
      error: StatusError,
      errorType: 'calling_webhook_error' | 'no_error' | 'apiserver_internal_error',
      code: number,
      step: Partial<AdmissionTraceStep>,
    ): never => {
      deps.metrics.webhookRejection({
        name: spec.name,
        operation: a.operation,
        type: 'admit',
        errorType,
        rejectionCode: metricCode(code),
      });
      observe(true);
      record({
        decision: 'denied',
        message: error.status.message ?? '',
        code: error.code,
        rule: match.rule,
        ...step,
      });
      throw error;
    };
    const ifNeeded = spec.reinvocationPolicy === 'IfNeeded';
    if (outcome.kind === 'refused') return reject(outcome.error, 'apiserver_internal_error', 0, {});
    if (outcome.kind === 'failed') {
      if (ifNeeded) state.invoked(entry.key);
      if (spec.failurePolicy === 'Ignore') {
        observe(false);
        record({
          decision: 'error',
          message: outcome.error.message,
          reason: 'failurePolicy Ignore',
          rule: match.rule,
          ...reviewOf(outcome.review),
        });
        return undefined;
      }
      return reject(
        outcome.error.toStatusError(),
        'calling_webhook_error',
        outcome.error.code,
        reviewOf(outcome.review),
      );
    }
    const { result, review } = outcome;
    const annotationKey = (kind: 'mutation' | 'patch') =>
      `${kind}.webhook.admission.${suffix}/round_${round}_index_${entry.index}`;
    for (const w of result.warnings) a.warnings?.add(w);
    for (const [k, v] of Object.entries(result.auditAnnotations)) annotate(`${spec.name}/${k}`, v);
    const warnings = result.warnings.length > 0 ? { warnings: result.warnings } : {};
    const mutation = (mutated: boolean) =>
      annotate(
        annotationKey('mutation'),
        JSON.stringify({ configuration: entry.configuration, webhook: spec.name, mutated }),
        'Metadata',
      );
    if (!result.allowed) {
      mutation(false);
      const error = webhookRejection(spec.name, result.status);
      return reject(error, 'no_error', error.code, { ...warnings, ...reviewOf(review) });
    }
    let ops: JsonPatchOperation[] = [];
    let patched: KubeObject | undefined;
    const internal = (message: string) =>
      new StatusError(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] });
    if (result.patch !== undefined) {
      try {
        ops = decodePatch(result.patch) as JsonPatchOperation[];
        if (ops.length > 0) {
          if (match.request.object === undefined)
            throw new JsonPatchError(
              `admission webhook "${spec.name}" attempted to modify the object, which is not supported for this operation`,
            );
          patched = applyPatch(match.request.object as JsonValue, ops) as KubeObject;
          if (patched === null || typeof patched !== 'object' || Array.isArray(patched))
            throw new JsonPatchError('json: cannot unmarshal into Go value of type map[string]interface {}');
        }
      } catch (e) {
        if (!(e instanceof JsonPatchError)) throw e;
        mutation(false);
        return reject(internal(e.message), 'apiserver_internal_error', 0, {
          ...warnings,
          ...reviewOf(review),
        });
      }
    }
    const changed =
      patched !== undefined && !sameJson(match.request.object as JsonValue, patched as JsonValue);
    mutation(changed);
    observe(false);
    if (patched === undefined || ops.length === 0) {
      if (ifNeeded) state.invoked(entry.key);
      record({ rule: match.rule, ...warnings, ...reviewOf(review) });
      return undefined;
    }
    annotate(
      annotationKey('patch'),
      JSON.stringify({
        configuration: entry.configuration,
        webhook: spec.name,
        patch: ops,
        patchType: 'JSONPatch',
      }),
      'Request',
    );
    // A webhook matched through an equivalent version patched that version: back to the request's.
    const requestApiVersion = a.group === '' ? a.version : `${a.group}/${a.version}`;
    const back =
      patched.apiVersion === requestApiVersion
        ? patched
        : (deps.resources.convert(patched, requestApiVersion) ?? patched);
    record({
      decision: changed ? 'patched' : 'allowed',
      rule: match.rule,
      patch: ops,
      ...(changed ? { before: (a.object ?? {}) as JsonObject, after: back as JsonObject } : {}),
      ...warnings,
      ...reviewOf(review),
    });
    if (changed) {
      // Those called before saw an older object; this one joins the list only after, as on the real server.
      state.requireReinvokingPreviouslyInvoked();
      if (a.reinvocation !== undefined) a.reinvocation.shouldReinvoke = true;
    }
    if (ifNeeded) state.invoked(entry.key);
    return changed ? back : undefined;
  }
}
