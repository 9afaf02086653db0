/**
 * A policy compiled once per stored version (name@resourceVersion): each
 * validation's expression and messageExpression, each audit annotation's
 * valueExpression and each match condition, with `params` declared when
 * the policy has a paramKind. An expression that does not compile is kept
 * with its error: evaluating it fails the request under `failurePolicy:
 * Fail`, as a compilation error does on the real server.
 */

import type { CompiledPolicyExpression } from '../../cel/policy-expressions';
import { compilePolicyExpression } from '../../cel/policy-expressions';
import type { ValidatingAdmissionPolicy } from './types';

export interface CompiledValidation {
  expression: string;
  program: CompiledPolicyExpression;
  message?: string;
  messageProgram?: CompiledPolicyExpression;
  reason?: string;
}

export interface CompiledAuditAnnotation {
  key: string;
  valueExpression: string;
  program: CompiledPolicyExpression;
}

export interface CompiledCondition {
  name: string;
  expression: string;
  program: CompiledPolicyExpression;
}

export interface CompiledPolicy {
  withParams: boolean;
  validations: CompiledValidation[];
  auditAnnotations: CompiledAuditAnnotation[];
  matchConditions: CompiledCondition[];
}

const cache = new Map<string, CompiledPolicy>();

export function compilePolicy(policy: ValidatingAdmissionPolicy): CompiledPolicy {
  const key = `${policy.metadata?.name ?? ''}@${policy.metadata?.resourceVersion ?? ''}`;
  let found = cache.get(key);
  if (found === undefined) {
    found = compileUncached(policy);
    if (cache.size > 500) cache.clear();
    cache.set(key, found);
  }
  return found;
}

function compileUncached(policy: ValidatingAdmissionPolicy): CompiledPolicy {
  const spec = policy.spec ?? {};
  const withParams = spec.paramKind !== undefined;
  return {
    withParams,
    validations: (spec.validations ?? []).map((v) => ({
      expression: v.expression,
      program: compilePolicyExpression(v.expression.trim(), withParams, 'bool'),
      ...(v.message !== undefined ? { message: v.message } : {}),
      ...(v.messageExpression !== undefined && v.messageExpression.trim() !== ''
        ? { messageProgram: compilePolicyExpression(v.messageExpression.trim(), withParams, 'string') }
        : {}),
      ...(v.reason !== undefined ? { reason: v.reason } : {}),
    })),
    auditAnnotations: (spec.auditAnnotations ?? []).map((x) => ({
      key: x.key,
      valueExpression: x.valueExpression,
      program: compilePolicyExpression(x.valueExpression.trim(), withParams, 'string-or-null'),
    })),
    matchConditions: (spec.matchConditions ?? []).map((c) => ({
      name: c.name,
      expression: c.expression,
      program: compilePolicyExpression(c.expression.trim(), withParams, 'bool'),
    })),
  };
}
