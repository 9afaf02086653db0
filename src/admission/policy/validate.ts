/**
 * One policy evaluated for one binding and its param, as v1.27's validator
 * does: match conditions first (a false one: nothing to validate), then
 * every validation with one shared cost budget, the messageExpressions of
 * the failed ones, then the audit annotations. Each failed validation is a
 * decision carrying its message (messageExpression, else message, else
 * `failed expression: <expression>`) and reason (default Invalid); errors
 * deny under `failurePolicy: Fail` and admit under `Ignore`.
 */

import type { Authorizer } from '../../auth/authorizer';
import { MAX_MESSAGE_EXPRESSION_BYTES, RUNTIME_CEL_COST_BUDGET } from '../../cel';
import type { AdmissionAttributes } from '../types';
import type { CompiledPolicy } from './compile';
import type { CompiledPolicyExpression } from '../../cel/policy-expressions';
import {
  conditionFailure,
  evaluateWithAuthorizer,
  joinConditionErrors,
  type AuthorizerAnswers,
  type ExpressionInput as PolicyInput,
} from '../matching/evaluate';

export interface PolicyDecision {
  action: 'admit' | 'deny';
  evaluation: 'admit' | 'deny' | 'error';
  message: string;
  reason?: string;
  /** The validation's position (the audit annotation's `expressionIndex`) and its expression. */
  index: number;
  expression?: string;
}

export interface ValidateResult {
  /** False when a match condition was false: the policy does not apply. */
  applies: boolean;
  decisions: PolicyDecision[];
  annotations: { key: string; value: string }[];
}

const OUT_OF_BUDGET =
  'validation failed due to running out of cost budget, no further validation rules will be run';

export async function validatePolicy(
  policy: CompiledPolicy,
  failurePolicy: 'Ignore' | 'Fail',
  input: PolicyInput,
  a: AdmissionAttributes,
  authorizer: Authorizer,
  answers: AuthorizerAnswers,
): Promise<ValidateResult> {
  const onError = failurePolicy === 'Ignore' ? 'admit' : 'deny';
  const errorResult = (message: string): ValidateResult => ({
    applies: true,
    decisions: [{ action: onError, evaluation: 'error', message, index: 0 }],
    annotations: [],
  });
  const run = (program: CompiledPolicyExpression, budget: number) =>
    'error' in program
      ? Promise.resolve({ status: 'error' as const, message: program.error, cost: 0, compile: true })
      : evaluateWithAuthorizer(program.compiled, input, a, authorizer, answers, budget);

  const conditionErrors: string[] = [];
  for (const c of policy.matchConditions) {
    const r = await run(c.program, RUNTIME_CEL_COST_BUDGET);
    if (r.status === 'ok' && r.value === false) return { applies: false, decisions: [], annotations: [] };
    const failure = r.status === 'error' && 'compile' in r ? r.message : conditionFailure(c.expression, r);
    if (failure !== undefined) conditionErrors.push(failure);
  }
  if (conditionErrors.length > 0) return errorResult(joinConditionErrors(conditionErrors));

  let budget = RUNTIME_CEL_COST_BUDGET;
  const decisions: PolicyDecision[] = [];
  const failed: number[] = [];
  for (const [index, v] of policy.validations.entries()) {
    const r = await run(v.program, budget);
    if (r.status === 'cost-exceeded' && r.budget) return errorResult(OUT_OF_BUDGET);
    budget -= r.cost;
    const expression = v.expression;
    if (r.status === 'error')
      decisions.push({
        action: onError,
        evaluation: 'error',
        message:
          'compile' in r
            ? `compilation error: ${r.message}`
            : `expression '${expression}' resulted in error: ${r.message}`,
        index,
        expression,
      });
    else if (r.status === 'cost-exceeded')
      decisions.push({
        action: onError,
        evaluation: 'error',
        message: `expression '${expression}' resulted in error: operation cancelled: actual cost limit exceeded`,
        index,
        expression,
      });
    else if (r.value === true)
      decisions.push({ action: 'admit', evaluation: 'admit', message: '', index, expression });
    else {
      decisions.push({
        action: 'deny',
        evaluation: 'deny',
        message: '',
        reason: v.reason ?? 'Invalid',
        index,
        expression,
      });
      failed.push(index);
    }
  }
  // Messages of failed validations, from what budget the validations left.
  for (const index of failed) {
    const v = policy.validations[index];
    const d = decisions[index];
    if (v === undefined || d === undefined) continue;
    let message = '';
    if (v.messageProgram !== undefined) {
      const r = await run(v.messageProgram, budget);
      if (r.status === 'cost-exceeded' && r.budget)
        return errorResult(`failed messageExpression: ${OUT_OF_BUDGET}`);
      budget -= r.cost;
      if (r.status === 'ok' && typeof r.value === 'string') {
        message = r.value.trim();
        // Excessively long or multi-line messages fall back to the static message.
        if (new TextEncoder().encode(message).length > MAX_MESSAGE_EXPRESSION_BYTES || message.includes('\n'))
          message = '';
      }
    }
    if (message === '' && v.message !== undefined) message = v.message.trim();
    if (message === '') message = `failed expression: ${v.expression.trim()}`;
    d.message = message;
  }

  const annotations: { key: string; value: string }[] = [];
  for (const x of policy.auditAnnotations) {
    const r = await run(x.program, RUNTIME_CEL_COST_BUDGET);
    if (r.status === 'ok') {
      if (r.value === null || r.value === undefined) continue;
      if (typeof r.value === 'string') {
        const value = r.value.trim();
        if (value !== '') annotations.push({ key: x.key, value: value.slice(0, 10 * 1024) });
        continue;
      }
    }
    if (failurePolicy === 'Ignore') continue;
    const message =
      r.status === 'ok'
        ? `valueExpression '${x.valueExpression}' resulted in unsupported return type: ${typeof r.value}. Return type must be either string or null.`
        : r.status === 'error'
          ? 'compile' in r
            ? `compilation error: ${r.message}`
            : `expression '${x.valueExpression}' resulted in error: ${r.message}`
          : `expression '${x.valueExpression}' resulted in error: operation cancelled: actual cost limit exceeded`;
    decisions.push({
      action: 'deny',
      evaluation: 'error',
      message,
      index: decisions.length,
      expression: x.valueExpression,
    });
  }
  return { applies: true, decisions, annotations };
}
