/**
 * Validation rules on a schema node (`x-orch-validations`): compiles a rule
 * and its `messageExpression` against the node's type with `self` and
 * `oldSelf`, fully type-checked; records whether it is a transition rule
 * (it reads `oldSelf`), its estimated worst-case cost and the number of times
 * it can run per object when no ancestor bounds it. Errors read like the real
 * server's (`compilation failed: ERROR: <input>:1:6: ...`) and carry the
 * position. One environment per schema node, shared by its rules.
 */

import type { SchemaNode, ValidationRule } from '../machinery/schema';
import { STATIC_ESTIMATED_COST_LIMIT } from './cost';
import { deriveEnvironment, baseEnvironment, type CelEnvironment } from './env';
import { walk } from './engine';
import { estimateCost } from './estimate';
import { compileExpression, isCompileError, type CompiledExpression, type CompileError } from './program';
import { declTypeOf, maxCardinality, objectTypes, type DeclType } from './types';
import { celEquals } from './values';

/** The environment of the rules on one schema node. */
export interface RuleEnvironment {
  readonly env: CelEnvironment;
  /** The declared type of `self` and `oldSelf`. */
  readonly selfType: DeclType;
}

export interface RuleCompileError extends CompileError {
  /** Which part of the rule failed. */
  readonly field: 'rule' | 'messageExpression';
  /** The real server's detail text, e.g. `compilation failed: ERROR: <input>:1:6: ...`. */
  readonly detail: string;
}

export interface CompiledRule {
  readonly rule: ValidationRule;
  readonly environment: RuleEnvironment;
  readonly expression: CompiledExpression;
  readonly messageExpression?: CompiledExpression;
  /** Reads `oldSelf`: a transition rule, evaluated only on update when an old value exists. */
  readonly usesOldSelf: boolean;
  /** Estimated worst-case cost of one evaluation. */
  readonly maxCost: number;
  readonly messageExpressionMaxCost: number;
  /** How often the rule can run per object if the schema bounds none of its ancestors. */
  readonly maxCardinality: number;
}

export interface RuleOptions {
  /** The node is the root of the resource or an embedded resource (apiVersion, kind, metadata.name/generateName are visible). */
  isResourceRoot?: boolean;
}

const environments = new WeakMap<SchemaNode, Map<boolean, RuleEnvironment | RuleCompileError>>();

/** The shared environment for rules on `schema`, or an error when the node's type cannot carry rules. */
export function ruleEnvironment(
  schema: SchemaNode,
  options: RuleOptions = {},
): RuleEnvironment | RuleCompileError {
  const isRoot = options.isResourceRoot === true;
  let bySchema = environments.get(schema);
  if (bySchema === undefined) environments.set(schema, (bySchema = new Map()));
  let env = bySchema.get(isRoot);
  if (env === undefined) {
    env = buildEnvironment(schema, isRoot);
    bySchema.set(isRoot, env);
  }
  return env;
}

function buildEnvironment(schema: SchemaNode, isRoot: boolean): RuleEnvironment | RuleCompileError {
  const selfType = declTypeOf(schema, isRoot || schema.embeddedResource === true);
  if (selfType === undefined) {
    const detail = `rule declared on schema that does not support validation rules type: '${schema.type ?? ''}' preserve-unknown-fields: '${schema.preserveUnknownFields === true}'`;
    return {
      message: detail,
      summary: detail,
      detail,
      offset: 0,
      line: 1,
      column: 1,
      code: 'unsupported_schema',
      field: 'rule',
    };
  }
  const env = deriveEnvironment(baseEnvironment(), (engine) => {
    for (const t of objectTypes(selfType)) {
      const fields: Record<string, string> = {};
      for (const [name, f] of t.fields!) fields[name] = f.type.typeName;
      engine.registerType(t.typeName, { ctor: t.ctor!, fields });
      engine.registerOperator(`${t.typeName} == ${t.typeName}`, celEquals);
    }
    engine.registerVariable('self', selfType.typeName);
    engine.registerVariable('oldSelf', selfType.typeName);
  });
  return { env, selfType };
}

export function isRuleCompileError(value: unknown): value is RuleCompileError {
  return value !== null && typeof value === 'object' && 'detail' in value && 'field' in value;
}

/** Compiles one rule (a `ValidationRule`, or just its expression) against the schema node it is declared on. */
export function compileRule(
  schema: SchemaNode,
  rule: ValidationRule | string,
  options: RuleOptions = {},
): CompiledRule | RuleCompileError[] {
  const r: ValidationRule = typeof rule === 'string' ? { rule } : rule;
  const environment = ruleEnvironment(schema, options);
  if (isRuleCompileError(environment)) return [environment];
  if (r.rule.trim() === '') return [ruleError('rule', 'rule is not specified', 0)];
  const errors: RuleCompileError[] = [];
  const expression = compileExpression(environment.env, r.rule);
  if (isCompileError(expression))
    errors.push({ ...expression, field: 'rule', detail: `compilation failed: ${expression.message}` });
  else if (expression.resultType.name !== 'bool')
    errors.push(ruleError('rule', 'cel expression must evaluate to a bool', 0));
  let messageExpression: CompiledExpression | undefined;
  if (r.messageExpression !== undefined && r.messageExpression.trim() !== '') {
    const compiled = compileExpression(environment.env, r.messageExpression);
    if (isCompileError(compiled))
      errors.push({
        ...compiled,
        field: 'messageExpression',
        detail: `messageExpression compilation failed: ${compiled.message}`,
      });
    else if (compiled.resultType.name !== 'string')
      errors.push(ruleError('messageExpression', 'messageExpression must evaluate to a string', 0));
    else messageExpression = compiled;
  }
  if (errors.length > 0 || isCompileError(expression)) return errors;
  const roots = new Map([
    ['self', environment.selfType],
    ['oldSelf', environment.selfType],
  ]);
  return {
    rule: r,
    environment,
    expression,
    ...(messageExpression !== undefined ? { messageExpression } : {}),
    usesOldSelf: readsVariable(expression, 'oldSelf'),
    maxCost: estimateCost(expression.ast, roots).max,
    messageExpressionMaxCost:
      messageExpression === undefined ? 0 : estimateCost(messageExpression.ast, roots).max,
    maxCardinality: maxCardinality(environment.selfType.minSerializedSize),
  };
}

function ruleError(field: 'rule' | 'messageExpression', detail: string, offset: number): RuleCompileError {
  return {
    message: detail,
    summary: detail,
    detail,
    offset,
    line: 1,
    column: offset + 1,
    code: 'invalid',
    field,
  };
}

function readsVariable(expression: CompiledExpression, name: string): boolean {
  let found = false;
  walk(expression.ast, (node) => {
    if (node.op === 'id' && node.args === name && node.meta.alternate === undefined) found = true;
  });
  return found;
}

/** How often data at a schema node can occur per object: a number, or `unbounded` under a list or map without maxItems/maxProperties. */
export type Cardinality = number | 'unbounded';

/** The cardinality of a child of `schema` (property, item or map value), given the cardinality of `schema` (1 at the root). */
export function childCardinality(parent: Cardinality, schema: SchemaNode): Cardinality {
  if (parent === 'unbounded') return parent;
  if (schema.type === 'array')
    return schema.maxItems === undefined ? 'unbounded' : parent * Math.max(0, schema.maxItems);
  if (
    schema.type === 'object' &&
    schema.additionalProperties !== undefined &&
    schema.additionalProperties !== false
  ) {
    return schema.maxProperties === undefined ? 'unbounded' : parent * Math.max(0, schema.maxProperties);
  }
  return parent;
}

/** The static cost of a rule times how often it can run: `cardinality` of its node, or its worst case when unbounded. */
export function ruleCost(compiled: CompiledRule, cardinality: Cardinality = 1): number {
  const times = cardinality === 'unbounded' ? compiled.maxCardinality : cardinality;
  return compiled.maxCost === 0 ? 0 : Math.min(Number.MAX_VALUE, compiled.maxCost * times);
}

/** The real server's message for a cost over its limit: what exceeded, by how much, and what to bound. */
export function costExceededMessage(what: string, cost: number, limit: number): string {
  const factor = cost / limit;
  const text =
    factor > 100 ? 'more than 100x' : factor < 1.5 ? `${factor.toFixed(6)}x` : `${factor.toFixed(1)}x`;
  return `${what} exceeds budget by factor of ${text} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

/** Cost problems of a compiled rule at CRD create/update: `[field, message]` pairs, empty when within `StaticEstimatedCostLimit`. */
export function ruleCostErrors(
  compiled: CompiledRule,
  cardinality: Cardinality = 1,
): ['rule' | 'messageExpression', string][] {
  const out: ['rule' | 'messageExpression', string][] = [];
  const cost = ruleCost(compiled, cardinality);
  if (cost > STATIC_ESTIMATED_COST_LIMIT)
    out.push(['rule', costExceededMessage('estimated rule cost', cost, STATIC_ESTIMATED_COST_LIMIT)]);
  if (compiled.messageExpressionMaxCost > STATIC_ESTIMATED_COST_LIMIT) {
    out.push([
      'messageExpression',
      costExceededMessage(
        'estimated messageExpression cost',
        compiled.messageExpressionMaxCost,
        STATIC_ESTIMATED_COST_LIMIT,
      ),
    ]);
  }
  return out;
}
