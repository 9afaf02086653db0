/**
 * A webhook's `matchConditions` (CEL, gate AdmissionWebhookMatchConditions):
 * compiled once per configuration version, evaluated in order with
 * `object`, `oldObject`, `request` and `authorizer`. As in v1.27, a false
 * condition skips the webhook whatever the others did; errors, when no
 * condition is false, skip it under `failurePolicy: Ignore` and fail the
 * call under `Fail`. The server's authorizer answers asynchronously and
 * CEL asks synchronously, so an expression that consults it is evaluated
 * again once the questions it asked are answered.
 */

import type { JsonObject, JsonValue } from '../../api/meta';
import type { Authorizer } from '../../auth/authorizer';
import {
  compileAdmissionExpression,
  isCompileError,
  RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS,
  type CompiledExpression,
} from '../../cel';
import {
  conditionFailure,
  evaluateWithAuthorizer,
  joinConditionErrors,
  type AuthorizerAnswers,
} from '../matching/evaluate';
import type { AdmissionAttributes } from '../types';
import type { MatchCondition } from './types';

const options = { authorizer: true } as const;

export interface CompiledCondition {
  name: string;
  expression: string;
  compiled?: CompiledExpression;
  /** The compile error, when the stored expression does not compile (a configuration stored before the gate). */
  error?: string;
}

export type ConditionsResult =
  { kind: 'match' } | { kind: 'skip'; condition?: string } | { kind: 'error'; message: string };

const compiledCache = new Map<string, CompiledCondition>();

export function compileConditions(conditions: readonly MatchCondition[]): CompiledCondition[] {
  return conditions.map((c) => {
    let found = compiledCache.get(c.expression);
    if (found === undefined) {
      const compiled = compileAdmissionExpression(c.expression, options);
      found = isCompileError(compiled)
        ? { name: c.name, expression: c.expression, error: compiled.message }
        : { name: c.name, expression: c.expression, compiled };
      if (compiledCache.size > 1000) compiledCache.clear();
      compiledCache.set(c.expression, found);
    }
    return { ...found, name: c.name };
  });
}

export async function evaluateConditions(
  conditions: readonly CompiledCondition[],
  input: { object: JsonValue | undefined; oldObject: JsonValue | undefined; request: JsonObject },
  a: AdmissionAttributes,
  authorizer: Authorizer,
  failurePolicy: 'Ignore' | 'Fail',
): Promise<ConditionsResult> {
  const answers: AuthorizerAnswers = new Map();
  const errors: string[] = [];
  for (const c of conditions) {
    if (c.compiled === undefined) {
      errors.push(`compilation failed: ${c.error ?? ''}`);
      continue;
    }
    const outcome = await evaluateWithAuthorizer(
      c.compiled,
      input,
      a,
      authorizer,
      answers,
      RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS,
    );
    if (outcome.status === 'ok') {
      if (outcome.value === false) return { kind: 'skip', condition: c.name };
      if (outcome.value !== true)
        errors.push(`expression '${c.expression}' resulted in error: no such overload`);
    } else errors.push(conditionFailure(c.expression, outcome) ?? '');
  }
  if (errors.length === 0) return { kind: 'match' };
  if (failurePolicy === 'Ignore') return { kind: 'skip' };
  return { kind: 'error', message: joinConditionErrors(errors) };
}
