/**
 * Checking a lesson before anything uses it: the JSON Schema
 * (`lesson.schema.json`, with unknown fields refused), then what a schema
 * cannot say — step ids unique in the lesson, every `${name}` in "Show me"
 * captured by an earlier action of the same step — and every CEL expression
 * compiled with the variables its read binds, the right result type, and an
 * estimated cost within the budget. Problems carry a JSON pointer into the
 * document; the file reader (load.ts) turns pointers into line and column.
 */

import { Validator, type OutputUnit } from '@cfworker/json-schema';
import {
  celLibrary,
  compileDynamicExpression,
  estimateDynamicCost,
  isCompileError,
  STATIC_ESTIMATED_COST_LIMIT,
} from '../cel/index';
import type { CompileError } from '../cel/index';
import { variablesOf, type LessonDocument } from './format';
import schema from './lesson.schema.json';

/** One thing wrong with a lesson, at a JSON pointer (`/steps/0/checks/1/expect`). */
export interface LessonProblem {
  pointer: string;
  message: string;
  /** For a CEL error: where in the expression (1-based line and column). */
  expression?: { line: number; column: number };
  /** Set by the file reader: where in the file. */
  line?: number;
  column?: number;
}

/**
 * The most any string or list a check reads is assumed to hold when its cost is estimated: the Watch
 * inspector keeps 5,000 events, the request log 400 requests, a check's list read at most 500 items.
 */
export const CHECK_DATA_BOUND = 5000;
/** The estimated cost one expression may have: the real server's limit for one CRD validation rule. */
export const CHECK_COST_BUDGET = STATIC_ESTIMATED_COST_LIMIT;

let validator: Validator | undefined;

/** All problems of `value` as a lesson document; empty when it is one. */
export async function lessonProblems(value: unknown): Promise<LessonProblem[]> {
  validator ??= new Validator(schema as never, '2020-12', false);
  const result = validator.validate(value);
  if (!result.valid) return schemaProblems(value, result.errors);
  await celLibrary.load();
  return [...structureProblems(value as LessonDocument), ...expressionProblems(value as LessonDocument)];
}

/** The keys that say which form of a `oneOf` an object is (a check's read, a "Show me" action). */
const discriminators: Record<string, string[]> = {
  read: ['object', 'list', 'http', 'requests', 'trace', 'watch', 'access'],
  action: ['request', 'watch'],
};

function schemaProblems(value: unknown, errors: OutputUnit[]): LessonProblem[] {
  const problems: LessonProblem[] = [];
  const chosen = new Map<string, number | undefined>();
  for (const e of errors) {
    if (e.keyword !== 'oneOf') continue;
    const pointer = pointerOf(e.instanceLocation);
    const target = at(value, pointer);
    const kind = e.keywordLocation.includes('/read/') ? 'read' : 'action';
    const keys = discriminators[kind] ?? [];
    const present = keys.filter((k) => isRecord(target) && k in target);
    const index = present.length === 1 ? keys.indexOf(present[0]!) : undefined;
    chosen.set(pointer, index);
    if (index === undefined)
      problems.push({
        pointer,
        message:
          present.length === 0
            ? `needs one of the fields ${keys.map((k) => `"${k}"`).join(', ')}`
            : `may have only one of the fields ${present.map((k) => `"${k}"`).join(', ')}`,
      });
  }
  for (const e of errors) {
    if (['properties', 'items', '$ref', 'oneOf', 'false', 'additionalItems'].includes(e.keyword)) continue;
    const pointer = pointerOf(e.instanceLocation);
    const branch = /\/oneOf\/(\d+)\//.exec(e.keywordLocation);
    if (branch !== null) {
      const owner = [...chosen.keys()].filter((p) => pointer === p || pointer.startsWith(`${p}/`)).pop();
      if (owner === undefined || chosen.get(owner) !== Number(branch[1])) continue;
    }
    problems.push(problemOf(e, pointer));
  }
  return dedupe(problems);
}

function problemOf(e: OutputUnit, pointer: string): LessonProblem {
  const property = /Property "([^"]+)"/.exec(e.error)?.[1];
  if (e.keyword === 'additionalProperties' && property !== undefined)
    return { pointer: `${pointer}/${escapePointer(property)}`, message: `unknown field "${property}"` };
  const required = /required property "([^"]+)"/.exec(e.error)?.[1];
  if (e.keyword === 'required' && required !== undefined)
    return { pointer, message: `missing required field "${required}"` };
  return { pointer, message: e.error.replace(/^Instance /, 'the value ') };
}

function structureProblems(lesson: LessonDocument): LessonProblem[] {
  const problems: LessonProblem[] = [];
  const seen = new Set<string>();
  lesson.steps.forEach((step, i) => {
    if (seen.has(step.id))
      problems.push({ pointer: `/steps/${i}/id`, message: `step id "${step.id}" is used twice` });
    seen.add(step.id);
    const captured = new Set<string>();
    step.showMe.forEach((action, j) => {
      for (const name of placeholders(action))
        if (!captured.has(name))
          problems.push({
            pointer: `/steps/${i}/showMe/${j}`,
            message: `\${${name}} is not captured by an earlier action of this step`,
          });
      if ('request' in action && action.as !== undefined && action.withCertificate !== undefined)
        problems.push({
          pointer: `/steps/${i}/showMe/${j}/withCertificate`,
          message: 'a request is sent either "as" an identity or "withCertificate", not both',
        });
      if ('request' in action) for (const name of Object.keys(action.capture ?? {})) captured.add(name);
    });
  });
  return problems;
}

/** The `${name}` placeholders in an action's strings. */
export function placeholders(value: unknown): string[] {
  const names: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string')
      for (const m of v.matchAll(/\$\{([a-zA-Z_][a-zA-Z0-9_]*)\}/g)) names.push(m[1]!);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (isRecord(v)) Object.values(v).forEach(walk);
  };
  walk(value);
  return names;
}

function expressionProblems(lesson: LessonDocument): LessonProblem[] {
  const problems: LessonProblem[] = [];
  lesson.steps.forEach((step, i) => {
    step.checks.forEach((check, j) => {
      const problem = expressionProblem(check.expect, variablesOf(check.read), 'bool');
      if (problem !== undefined) problems.push({ ...problem, pointer: `/steps/${i}/checks/${j}/expect` });
    });
    step.showMe.forEach((action, j) => {
      if ('request' in action)
        for (const [name, source] of Object.entries(action.capture ?? {})) {
          const problem = expressionProblem(source, ['response'], undefined);
          if (problem !== undefined)
            problems.push({ ...problem, pointer: `/steps/${i}/showMe/${j}/capture/${escapePointer(name)}` });
        }
      else if (action.waitFor !== undefined) {
        const problem = expressionProblem(action.waitFor, ['events'], 'bool');
        if (problem !== undefined) problems.push({ ...problem, pointer: `/steps/${i}/showMe/${j}/waitFor` });
      }
    });
  });
  return problems;
}

function expressionProblem(
  source: string,
  variables: string[],
  expect: string | undefined,
): Omit<LessonProblem, 'pointer'> | undefined {
  const compiled = compileDynamicExpression(variables, source, expect);
  if (isCompileError(compiled)) return celProblem(compiled, variables);
  const cost = estimateDynamicCost(compiled, variables, CHECK_DATA_BOUND);
  if (cost > CHECK_COST_BUDGET)
    return {
      message: `the expression's estimated cost ${cost > 1e15 ? 'is unbounded' : `(${cost})`} exceeds the budget of ${CHECK_COST_BUDGET}: avoid nesting one comprehension (all, exists, map, filter) inside another over the data read`,
    };
  return undefined;
}

function celProblem(error: CompileError, variables: string[]): Omit<LessonProblem, 'pointer'> {
  const hint = /undeclared reference/.test(error.summary)
    ? ` (this read binds ${variables.map((v) => `\`${v}\``).join(', ')})`
    : '';
  return {
    message: `CEL: ${error.summary}${hint}`,
    expression: { line: error.line, column: error.column },
  };
}

function dedupe(problems: LessonProblem[]): LessonProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.pointer} ${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function pointerOf(location: string): string {
  return location.replace(/^#/, '');
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The value at a JSON pointer. */
export function at(value: unknown, pointer: string): unknown {
  let current = value;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(current)) current = current[Number(key)];
    else if (isRecord(current)) current = current[key];
    else return undefined;
  }
  return current;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `/steps/0/checks/1/expect` as `steps[0].checks[1].expect`. */
export function pointerPath(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, s) => (/^\d+$/.test(s) ? `${path}[${s}]` : path === '' ? s : `${path}.${s}`), '');
}
