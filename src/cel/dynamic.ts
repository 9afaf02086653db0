/**
 * Expressions over data an application reads rather than over a schema:
 * every variable is `dyn` (any member may be selected; a missing one fails
 * at evaluation, so expressions test with `has()` first), with the same
 * libraries and cost model as CRD rules. Used by the course's step checks
 * (src/lessons), which evaluate against objects, lists, the request log and
 * watch events. The static estimate bounds every list, map and string under
 * a variable by one size the caller states (what it will ever hand in), so
 * a nested comprehension is refused up front as it is in a CRD rule.
 */

import type { JsonValue } from '../api/meta';
import { dynamic } from './convert';
import { PER_CALL_LIMIT } from './cost';
import { baseEnvironment, deriveEnvironment, type CelEnvironment } from './env';
import { estimateCost } from './estimate';
import { evaluateExpression, type EvalResult } from './evaluate';
import { compileExpression, isCompileError, type CompiledExpression, type CompileError } from './program';
import type { DeclType } from './types';

const environments = new Map<string, CelEnvironment>();

/** The environment declaring `variables`, each `dyn` (shared per set of names). */
export function dynamicEnvironment(variables: readonly string[]): CelEnvironment {
  const names = [...new Set(variables)].sort();
  const key = names.join(',');
  let env = environments.get(key);
  if (env === undefined) {
    env = deriveEnvironment(baseEnvironment(), (engine) => {
      for (const name of names) engine.registerVariable(name, 'dyn');
    });
    environments.set(key, env);
  }
  return env;
}

/** Compiles `source` over `variables`; with `expect`, the result must have that type (or be `dyn`). */
export function compileDynamicExpression(
  variables: readonly string[],
  source: string,
  expect?: string,
): CompiledExpression | CompileError {
  const compiled = compileExpression(dynamicEnvironment(variables), source);
  if (
    isCompileError(compiled) ||
    expect === undefined ||
    compiled.resultType.name === expect ||
    compiled.resultType.name === 'dyn'
  )
    return compiled;
  const summary = `expression must evaluate to ${expect}, not ${compiled.resultType.name}`;
  return { message: summary, summary, offset: 0, line: 1, column: 1, code: 'invalid' };
}

/**
 * The estimated worst-case cost of one evaluation when every string, list and map under the variables
 * holds at most `maxElements` characters, items or entries.
 */
export function estimateDynamicCost(
  compiled: CompiledExpression,
  variables: readonly string[],
  maxElements: number,
): number {
  const bounded: DeclType = { kind: 'dyn', typeName: 'dyn', maxElements, minSerializedSize: 1 };
  return estimateCost(compiled.ast, new Map(variables.map((name) => [name, bounded]))).max;
}

/** Evaluates with JSON values bound to the variables (absent ones are `null`), within `budget`. */
export function evaluateDynamic(
  compiled: CompiledExpression,
  values: Readonly<Record<string, JsonValue | undefined>>,
  budget: number = PER_CALL_LIMIT,
): EvalResult {
  const vars: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values))
    vars[name] = value === undefined ? null : dynamic(value);
  return evaluateExpression(compiled, vars, budget);
}
