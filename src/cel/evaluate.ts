/**
 * Evaluates compiled expressions under a cost limit: one expression
 * (`evaluateExpression`), one rule (`evaluateRule`), and all rules of a
 * schema node against a value as the real server does it (`validateRules`):
 * transition rules only with an old value, each rule within the per-call
 * limit, all of them within the budget the caller threads through the whole
 * object, failures worded as the server words them, and `messageExpression`
 * evaluated for the failure message.
 */

import type { JsonValue } from '../api/meta';
import {
  MAX_MESSAGE_EXPRESSION_BYTES,
  PER_CALL_LIMIT,
  RUNTIME_CEL_COST_BUDGET,
  CostTracker,
  withTracker,
} from './cost';
import { toCel } from './convert';
import { CostLimitError } from './errors';
import type { CompiledExpression } from './program';
import type { CompiledRule, RuleEnvironment } from './rules';

export type EvalResult =
  | { status: 'ok'; value: unknown; cost: number }
  | { status: 'error'; message: string; cost: number }
  /** Stopped: over the per-call limit (`budget` false) or over the caller's remaining budget (`budget` true). */
  | { status: 'cost-exceeded'; budget: boolean; cost: number };

/** Evaluates with CEL values already bound; the cost limit is the smaller of the per-call limit and `budget`. */
export function evaluateExpression(
  compiled: CompiledExpression,
  variables: Record<string, unknown>,
  budget: number = PER_CALL_LIMIT,
): EvalResult {
  const tracker =
    budget < PER_CALL_LIMIT ? new CostTracker(budget, 'budget') : new CostTracker(PER_CALL_LIMIT, 'per-call');
  try {
    const value = withTracker(tracker, () => compiled.program(variables));
    return { status: 'ok', value, cost: tracker.cost };
  } catch (error) {
    if (error instanceof CostLimitError)
      return { status: 'cost-exceeded', budget: error.limit === 'budget', cost: tracker.cost };
    return { status: 'error', message: runtimeMessage(error), cost: tracker.cost };
  }
}

/** The engine's error text, worded as cel-go words runtime errors. */
export function runtimeMessage(error: unknown): string {
  const e = error as { summary?: string; message?: string };
  const text = e.summary ?? e.message ?? String(error);
  return text
    .replace(/^No such key: index out of bounds, index (-?\d+).*$/, 'index out of bounds: $1')
    .replace(/^No such key: /, 'no such key: ')
    .replace(/^integer overflow: .*$/, 'integer overflow');
}

/** `self` and `oldSelf` of a rule, as JSON data of the schema node. */
export interface RuleActivation {
  self: JsonValue;
  /** Present on update when the node existed before (absent or undefined otherwise). */
  oldSelf?: JsonValue;
}

export interface BoundActivation {
  self: unknown;
  oldSelf?: unknown;
  [variable: string]: unknown;
}

/** Converts JSON data to CEL values of the rule environment's types (once per node, shared by its rules). */
export function bind(environment: RuleEnvironment, activation: RuleActivation): BoundActivation {
  const bound: BoundActivation = { self: toCel(activation.self, environment.selfType) };
  if (activation.oldSelf !== undefined) bound.oldSelf = toCel(activation.oldSelf, environment.selfType);
  return bound;
}

export type RuleOutcome =
  | { kind: 'pass'; cost: number }
  /** A transition rule without an old value: not evaluated. */
  | { kind: 'skipped'; cost: 0 }
  | { kind: 'fail'; message: string; reason: string; fieldPath?: string; cost: number }
  /** Evaluation failed or ran out of cost; `stop` means no further rule may run for this object. */
  | { kind: 'error'; message: string; stop: boolean; cost: number };

/** Evaluates one rule within `budget` (the remaining per-object budget), including its message expression on failure. */
export function evaluateRule(
  compiled: CompiledRule,
  activation: RuleActivation | BoundActivation,
  budget: number = RUNTIME_CEL_COST_BUDGET,
  bound = false,
): RuleOutcome {
  const vars = bound
    ? (activation as BoundActivation)
    : bind(compiled.environment, activation as RuleActivation);
  if (compiled.usesOldSelf && vars.oldSelf === undefined) return { kind: 'skipped', cost: 0 };
  const ruleText = ruleErrorString(compiled);
  const result = evaluateExpression(compiled.expression, vars, budget);
  if (result.status === 'cost-exceeded') {
    if (result.budget) return { kind: 'error', message: OUT_OF_BUDGET, stop: true, cost: result.cost };
    return {
      kind: 'error',
      message: `'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleText}`,
      stop: true,
      cost: result.cost,
    };
  }
  if (result.status === 'error') {
    const message =
      result.message.startsWith('no such overload') || result.message.startsWith('found no matching overload')
        ? `'${result.message}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleText}`
        : `${result.message} evaluating rule: ${ruleText}`;
    return { kind: 'error', message, stop: false, cost: result.cost };
  }
  if (result.value === true) return { kind: 'pass', cost: result.cost };
  const reason = compiled.rule.reason ?? 'FieldValueInvalid';
  const fieldPath = compiled.rule.fieldPath !== undefined ? { fieldPath: compiled.rule.fieldPath } : {};
  if (compiled.messageExpression === undefined)
    return { kind: 'fail', message: defaultMessage(compiled), reason, ...fieldPath, cost: result.cost };
  const msg = evaluateMessageExpression(compiled.messageExpression, vars, budget - result.cost);
  if (msg.stop !== undefined)
    return { kind: 'error', message: msg.stop, stop: true, cost: result.cost + msg.cost };
  return {
    kind: 'fail',
    message: msg.message ?? defaultMessage(compiled),
    reason,
    ...fieldPath,
    cost: result.cost + msg.cost,
  };
}

export const OUT_OF_BUDGET =
  'validation failed due to running out of cost budget, no further validation rules will be run';

function ruleErrorString(compiled: CompiledRule): string {
  const message = compiled.rule.message?.trim() ?? '';
  return message !== '' ? message : compiled.rule.rule.trim();
}

function defaultMessage(compiled: CompiledRule): string {
  const message = compiled.rule.message?.trim() ?? '';
  return message !== '' ? message : `failed rule: ${compiled.rule.rule.trim()}`;
}

/** A message expression's text; `message` undefined falls back to the static message; `stop` ends validation. */
function evaluateMessageExpression(
  expr: CompiledExpression,
  vars: Record<string, unknown>,
  budget: number,
): { message?: string; stop?: string; cost: number } {
  const result = evaluateExpression(expr, vars, budget);
  if (result.status === 'cost-exceeded') {
    return result.budget
      ? {
          stop: 'messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run',
          cost: result.cost,
        }
      : {
          stop: `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${JSON.stringify(expr.source)}`,
          cost: result.cost,
        };
  }
  if (result.status === 'error' || typeof result.value !== 'string') return { cost: result.cost };
  const text = result.value.trim();
  // Too long, multi-line or empty messages fall back to the static message, as in the real server.
  if (
    text === '' ||
    /[\n\r]/.test(text) ||
    new TextEncoder().encode(text).length > MAX_MESSAGE_EXPRESSION_BYTES
  )
    return { cost: result.cost };
  return { message: text, cost: result.cost };
}

export interface RuleViolation {
  /** Index of the rule in the node's rules. */
  index: number;
  message: string;
  /** `FieldValueInvalid`, `FieldValueForbidden`, `FieldValueRequired`, `FieldValueDuplicate`, or `InternalError`. */
  reason: string;
  fieldPath?: string;
}

/**
 * Runs the rules of one schema node against its value, as the real server does: returns the violations and the
 * budget left (-1 once the budget or a per-call limit stopped validation: the caller runs no further rules).
 */
export function validateRules(
  rules: readonly CompiledRule[],
  activation: RuleActivation,
  remainingBudget: number = RUNTIME_CEL_COST_BUDGET,
): { violations: RuleViolation[]; remainingBudget: number } {
  const violations: RuleViolation[] = [];
  // Only non-null values are validated; a rule on a nullable field that holds null does not run.
  if (rules.length === 0 || activation.self === null) return { violations, remainingBudget };
  if (remainingBudget <= 0)
    return {
      violations: [{ index: 0, message: OUT_OF_BUDGET, reason: 'FieldValueInvalid' }],
      remainingBudget: -1,
    };
  let remaining = remainingBudget;
  let bound: BoundActivation | undefined;
  for (const [index, compiled] of rules.entries()) {
    bound ??= bind(compiled.environment, activation);
    const outcome = evaluateRule(compiled, bound, remaining, true);
    remaining -= outcome.cost;
    if (outcome.kind === 'fail')
      violations.push({
        index,
        message: outcome.message,
        reason: outcome.reason,
        ...(outcome.fieldPath !== undefined ? { fieldPath: outcome.fieldPath } : {}),
      });
    if (outcome.kind === 'error') {
      violations.push({ index, message: outcome.message, reason: 'FieldValueInvalid' });
      if (outcome.stop) return { violations, remainingBudget: -1 };
    }
  }
  return { violations, remainingBudget: remaining };
}
