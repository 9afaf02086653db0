/**
 * The CEL module: one environment for CRD validation rules and admission
 * expressions, built on `@marcbachmann/cel-js` (see
 * docs/decisions/0002-cel-engine.md) with RE2 regular expressions, the
 * Kubernetes v1.27 libraries, nanosecond time, schema-derived types and the
 * real server's cost limits. Typical CRD use: `compileRule` per rule at CRD
 * create/update (reject on errors or `ruleCostErrors`), then `validateRules`
 * per schema node on every write, threading the remaining budget. The
 * libraries underneath are loaded on first use: an asynchronous caller
 * awaits `celLibrary.load()` before anything here compiles, evaluates or
 * matches a regular expression.
 */

export { celLibrary } from './engine';
export type { RE2, RE2JS } from './engine';
export {
  compileRule,
  ruleEnvironment,
  ruleCost,
  ruleCostErrors,
  costExceededMessage,
  isRuleCompileError,
  childCardinality,
} from './rules';
export type { Cardinality, CompiledRule, RuleCompileError, RuleEnvironment, RuleOptions } from './rules';
export { evaluateRule, validateRules, evaluateExpression, bind, OUT_OF_BUDGET } from './evaluate';
export type { EvalResult, RuleActivation, RuleOutcome, RuleViolation } from './evaluate';
export {
  compileAdmissionExpression,
  evaluateAdmission,
  admissionEnvironment,
  ADMISSION_REQUEST_SCHEMA,
} from './admission';
export type { AdmissionEnvironmentOptions, AdmissionInput } from './admission';
export type { AuthorizationAttributes, AuthorizationDecision, CelAuthorizer } from './authz';
export { compileExpression, isCompileError } from './program';
export {
  compileDynamicExpression,
  dynamicEnvironment,
  estimateDynamicCost,
  evaluateDynamic,
} from './dynamic';
export type { CompiledExpression, CompileError } from './program';
export { escapeName, unescapeName } from './escaping';
export { declTypeOf, maxCardinality } from './types';
export type { DeclType } from './types';
export {
  PER_CALL_LIMIT,
  RUNTIME_CEL_COST_BUDGET,
  RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS,
  STATIC_ESTIMATED_COST_LIMIT,
  STATIC_ESTIMATED_CRD_COST_LIMIT,
  MAX_REQUEST_SIZE_BYTES,
  MAX_MESSAGE_EXPRESSION_BYTES,
} from './cost';

import type { CompiledRule } from './rules';

/** The estimated worst-case cost of one evaluation of a compiled rule (before multiplying by cardinality). */
export function estimateCost(compiled: CompiledRule): number {
  return compiled.maxCost;
}
