/**
 * The policy dispatcher: every policy whose matchConstraints cover the
 * request, with every binding of it whose matchResources do, evaluated
 * with the binding's param. As in v1.27, every policy runs; a failed
 * validation is then enforced by the binding's `validationActions` (Deny:
 * refuse, Warn: a `Warning` header, Audit: the `validation_failure` audit
 * annotation); a misconfigured binding (param missing, unknown paramKind)
 * follows the policy's failurePolicy. The first denial becomes the
 * response: `<resource> "<name>" is forbidden: ValidatingAdmissionPolicy
 * '<p>' with binding '<b>' denied request: <message>`, with the
 * validation's reason and its code. One trace step per policy and binding.
 */

import type { AdmissionTraceStep } from '../../api/admission-trace';
import type { JsonObject, JsonValue, StatusReason } from '../../api/meta';
import { celLibrary } from '../../cel';
import { StatusError } from '../../machinery/errors';
import { admissionForbidden } from '../plugins/support/errors';
import type { AdmissionAttributes, AdmissionPluginDeps } from '../types';
import { compilePolicy } from './compile';
import type { AuthorizerAnswers } from '../matching/evaluate';
import { matchResources, type MatchedRequest } from './match';
import { lookupParam } from './params';
import type { PolicySource } from './source';
import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from './types';
import { validatePolicy, type PolicyDecision } from './validate';

type DispatchDeps = Pick<
  AdmissionPluginDeps,
  'profile' | 'resources' | 'namespaces' | 'lister' | 'listersSynced' | 'authorizer'
>;

interface Denial {
  policy: string;
  binding?: string;
  message: string;
  reason?: string;
}

export async function dispatchPolicies(
  a: AdmissionAttributes,
  source: PolicySource,
  deps: DispatchDeps,
): Promise<void> {
  const denials: Denial[] = [];
  const answers: AuthorizerAnswers = new Map();
  const steps: AdmissionTraceStep[] = [];
  for (const { policy, bindings } of await source.hooks()) {
    const name = policy.metadata?.name ?? '';
    const failurePolicy = policy.spec?.failurePolicy ?? 'Fail';
    const started = performance.now();
    const base = { name, type: 'policy', phase: 'validating', configuration: name, failurePolicy } as const;
    const step = (extra: Partial<AdmissionTraceStep> & Pick<AdmissionTraceStep, 'decision'>) =>
      steps.push({ ...base, durationMs: performance.now() - started, ...extra });
    const configError = (message: string, binding?: string) => {
      if (failurePolicy === 'Ignore') {
        step({ decision: 'error', reason: message, ...(binding !== undefined ? { binding } : {}) });
        return;
      }
      const denial: Denial = {
        policy: name,
        ...(binding !== undefined ? { binding } : {}),
        message:
          binding !== undefined
            ? `failed to configure binding: ${message}`
            : `failed to configure policy: ${message}`,
      };
      denials.push(denial);
      step({
        decision: 'denied',
        message: denialMessage(denial),
        ...(binding !== undefined ? { binding } : {}),
      });
    };

    let matched;
    try {
      matched = await matchResources(policy.spec?.matchConstraints, a, deps, 'matchConstraints');
    } catch (e) {
      configError(e instanceof Error ? e.message : String(e));
      continue;
    }
    if (!matched.matched) {
      step({ decision: 'skipped', reason: matched.reason });
      continue;
    }
    if (bindings.length === 0) {
      step({ decision: 'skipped', reason: 'no binding references this policy' });
      continue;
    }
    // The first policy that applies loads the CEL library (loaded on first use, see cel/engine.ts).
    await celLibrary.load();
    const compiled = compilePolicy(policy);
    const published = new Map<string, string[]>();
    for (const binding of bindings) {
      const bindingName = binding.metadata?.name ?? '';
      let bindingMatch;
      try {
        bindingMatch = await matchResources(binding.spec?.matchResources, a, deps, 'matchResources');
      } catch (e) {
        configError(e instanceof Error ? e.message : String(e), bindingName);
        continue;
      }
      if (!bindingMatch.matched) {
        step({ decision: 'skipped', binding: bindingName, reason: bindingMatch.reason });
        continue;
      }
      const param = await lookupParam(policy.spec?.paramKind, binding.spec?.paramRef, deps);
      if ('error' in param) {
        configError(param.error, bindingName);
        continue;
      }
      const result = await validatePolicy(
        compiled,
        failurePolicy,
        {
          object: json(matched.request.object),
          oldObject: json(matched.request.oldObject),
          request: admissionRequest(a, matched.request),
          ...(compiled.withParams ? { params: json(param.param ?? undefined) ?? null } : {}),
        },
        a,
        deps.authorizer,
        answers,
      );
      if (!result.applies) {
        step({ decision: 'skipped', binding: bindingName, reason: 'a match condition was false' });
        continue;
      }
      for (const x of result.annotations) {
        const values = published.get(x.key) ?? [];
        if (!values.includes(x.value)) values.push(x.value);
        published.set(x.key, values);
      }
      step(enforce(a, deps, policy, binding, result.decisions, denials));
    }
    const last = steps[steps.length - 1];
    for (const [key, values] of published) {
      a.annotations?.add(`${name}/${key}`, values.join(', '));
      // The policy's own annotations show on its last step.
      if (last?.configuration === name)
        last.annotations = { ...last.annotations, [`${name}/${key}`]: values.join(', ') };
    }
  }
  for (const s of steps) a.trace?.record(s);
  const first = denials[0];
  if (first !== undefined) throw denialError(a, first);
}

/** Applies a binding's validationActions to its decisions; returns what its trace step says. */
function enforce(
  a: AdmissionAttributes,
  deps: DispatchDeps,
  policy: ValidatingAdmissionPolicy,
  binding: ValidatingAdmissionPolicyBinding,
  decisions: readonly PolicyDecision[],
  denials: Denial[],
): Partial<AdmissionTraceStep> & Pick<AdmissionTraceStep, 'decision'> {
  const policyName = policy.metadata?.name ?? '';
  const bindingName = binding.metadata?.name ?? '';
  const actions = binding.spec?.validationActions ?? ['Deny'];
  const warnings: string[] = [];
  const annotations: Record<string, string> = {};
  let denied: Denial | undefined;
  let firstFailure: PolicyDecision | undefined;
  let ignoredError: PolicyDecision | undefined;
  for (const d of decisions) {
    if (d.action === 'admit') {
      if (d.evaluation === 'error') ignoredError ??= d;
      continue;
    }
    firstFailure ??= d;
    for (const action of actions) {
      if (action === 'Deny') {
        const denial: Denial = {
          policy: policyName,
          binding: bindingName,
          message: d.message,
          ...(d.reason !== undefined ? { reason: d.reason } : {}),
        };
        denials.push(denial);
        denied ??= denial;
      } else if (action === 'Warn') {
        const text = `Validation failed for ValidatingAdmissionPolicy '${policyName}' with binding '${bindingName}': ${d.message}`;
        a.warnings?.add(text);
        warnings.push(text);
      } else if (action === 'Audit') {
        const key = `validation.policy.admission.${deps.profile.groupSuffix}/validation_failure`;
        const value = JSON.stringify([
          {
            message: d.message,
            policy: policyName,
            binding: bindingName,
            expressionIndex: d.index,
            validationActions: actions,
          },
        ]);
        a.annotations?.add(key, value);
        annotations[key] = value;
      }
    }
  }
  const shown = denied !== undefined ? decisions.find((d) => d.message === denied.message) : firstFailure;
  return {
    binding: bindingName,
    decision:
      denied !== undefined
        ? 'denied'
        : ignoredError !== undefined && firstFailure === undefined
          ? 'error'
          : 'allowed',
    ...(denied !== undefined
      ? { message: denialMessage(denied), code: reasonCode(denied.reason ?? 'Invalid') }
      : {}),
    ...(denied === undefined && firstFailure !== undefined
      ? {
          message: firstFailure.message,
          reason: `validation failed; validationActions ${actions.join(', ')}`,
        }
      : {}),
    ...(ignoredError !== undefined && firstFailure === undefined
      ? { reason: `${ignoredError.message} (failurePolicy Ignore)` }
      : {}),
    ...(shown?.expression !== undefined
      ? { rule: shown.expression }
      : ignoredError?.expression !== undefined
        ? { rule: ignoredError.expression }
        : {}),
    ...(warnings.length > 0 ? { warnings } : {}),
    ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
  };
}

function denialMessage(d: Denial): string {
  return d.binding !== undefined
    ? `ValidatingAdmissionPolicy '${d.policy}' with binding '${d.binding}' denied request: ${d.message}`
    : `ValidatingAdmissionPolicy '${d.policy}' denied request: ${d.message}`;
}

/** The real `reasonToCode`: the four reasons a validation may name; anything else is 422. */
function reasonCode(reason: string): number {
  switch (reason) {
    case 'Unauthorized':
      return 401;
    case 'Forbidden':
      return 403;
    case 'RequestEntityTooLarge':
      return 413;
    default:
      return 422;
  }
}

function denialError(a: AdmissionAttributes, d: Denial): StatusError {
  const message = denialMessage(d);
  const base = admissionForbidden(a, message);
  const reason = (d.reason ?? 'Invalid') as StatusReason;
  return new StatusError(reasonCode(reason), reason, base.status.message ?? message, {
    ...base.status.details,
    causes: [...(base.status.details?.causes ?? []), { message }],
  });
}

function json(o: unknown): JsonValue | undefined {
  return o === undefined ? undefined : (o as JsonValue);
}

/** The `request` variable: the AdmissionRequest without its objects, kind and resource as matched. */
function admissionRequest(a: AdmissionAttributes, m: MatchedRequest): JsonObject {
  const requestKind = a.requestKind ?? { group: a.group, version: a.version, kind: a.kind };
  const requestResource = a.requestResource ?? { group: a.group, version: a.version, resource: a.resource };
  const user: JsonObject = { username: a.user.username };
  if (a.user.uid !== undefined && a.user.uid !== '') user.uid = a.user.uid;
  if (a.user.groups !== undefined) user.groups = [...a.user.groups];
  if (a.user.extra !== undefined) user.extra = structuredClone(a.user.extra) as JsonObject;
  return {
    uid: a.uid ?? '',
    kind: { ...m.kind },
    resource: { ...m.resource },
    subResource: a.subresource,
    requestKind: { ...requestKind },
    requestResource: { ...requestResource },
    requestSubResource: a.subresource,
    name: a.name,
    namespace: a.namespace,
    operation: a.operation,
    userInfo: user,
    dryRun: a.dryRun,
  };
}
