/**
 * Compiles one expression in an environment: parse, our AST fixes (correct
 * bytes literals, our `has()`, element types of empty literal ranges, typed
 * `duration + timestamp`, rejecting what Kubernetes does not offer), type
 * check, instrumentation, and compile-time checks of constant regular
 * expressions. Errors come back with their position, worded like cel-go's.
 */

import type { CelEnvironment } from './env';
import {
  callArgs,
  callName,
  callReceiver,
  parseProgram,
  walk,
  type LibProgram,
  type LibType,
  type Node,
} from './engine';
import { instrument } from './instrument';
import { fixBytesLiteral } from './literals';
import { installHas } from './has';
import { regexError } from './regex';
import { describeCheckError, describeParseError, positionOf, type CompileError } from './diagnostics';

export type { CompileError };

export interface CompiledExpression {
  readonly source: string;
  readonly program: LibProgram;
  readonly ast: Node;
  /** The checked result type, e.g. `bool`, `string`, `list<int>`. */
  readonly resultType: LibType;
}

export interface CompileOptions {
  /** Type literals as `dyn`, so operand types are only known at evaluation (cel-spec's `disable_check`). */
  unchecked?: boolean;
}

const NOT_IN_KUBERNETES = new Set(['json', 'hex', 'base64', 'at']);

export function compileExpression(
  env: CelEnvironment,
  source: string,
  options: CompileOptions = {},
): CompiledExpression | CompileError {
  let program: LibProgram;
  try {
    program = parseProgram(env.engine, source);
  } catch (error) {
    return describeParseError(source, error);
  }
  const ast = program.ast;
  const rejected = prepare(env, ast, options);
  if (rejected !== undefined) return rejected;
  let checked = program.check();
  if (swapDurationPlusTimestamp(ast)) {
    prepare(env, ast, options);
    checked = program.check();
  }
  if (!checked.valid) return describeCheckError(source, checked.error);
  const badRegex = checkConstantRegexes(source, ast);
  if (badRegex !== undefined) return badRegex;
  instrument(ast, env.instrument);
  return { source, program, ast, resultType: ast.checkedType! };
}

export function isCompileError(value: CompiledExpression | CompileError): value is CompileError {
  return 'line' in value;
}

function prepare(env: CelEnvironment, ast: Node, options: CompileOptions): CompileError | undefined {
  let rejected: CompileError | undefined;
  walk(ast, (node) => {
    if (node.op === 'value') {
      fixBytesLiteral(node);
      if (options.unchecked === true) node.checkedType = env.types.dyn;
    }
    if (node.op === 'call' && callName(node) === 'has' && node.meta.macro !== undefined) installHas(node);
    const alternate = node.meta.alternate;
    if (alternate?.op === 'comprehension') {
      // `[].all(x, ...)`: an empty literal range has no element type; CEL treats its elements as dyn.
      const iterable = (alternate.args as { iterable: Node }).iterable;
      if (iterable.op === 'list' && (iterable.args as Node[]).length === 0)
        iterable.checkedType = env.types.listOfDyn;
    }
    if (env.kubernetesOnly && node.op === 'rcall' && rejected === undefined) {
      const name = callName(node);
      const receiver = callReceiver(node);
      const bind = name === 'bind' && receiver?.op === 'id' && receiver.args === 'cel';
      if (NOT_IN_KUBERNETES.has(name) || bind || (name === 'string' && callArgs(node).length === 0)) {
        const reference = bind ? 'cel' : name;
        rejected = positionOf(
          node.input,
          node.pos,
          `undeclared reference to '${reference}' (in container '')`,
        );
      }
    }
  });
  return rejected;
}

/** The engine types `duration + timestamp` as a duration; the sum is a timestamp, so we put the timestamp first. */
function swapDurationPlusTimestamp(ast: Node): boolean {
  let swapped = false;
  walk(ast, (node) => {
    if (node.op !== '+') return;
    const [left, right] = node.args as [Node, Node];
    if (
      left.checkedType?.name === 'google.protobuf.Duration' &&
      right.checkedType?.name === 'google.protobuf.Timestamp'
    ) {
      node.args = [right, left];
      swapped = true;
    }
  });
  if (swapped) walk(ast, (node) => delete node.checkedType);
  return swapped;
}

/** Kubernetes compiles constant patterns when it builds the program, so a bad one fails the rule at CRD time. */
function checkConstantRegexes(source: string, ast: Node): CompileError | undefined {
  let error: CompileError | undefined;
  walk(ast, (node) => {
    if (error !== undefined || (node.op !== 'rcall' && node.op !== 'call')) return;
    const name = callName(node);
    if (name !== 'matches' && name !== 'find' && name !== 'findAll') return;
    const args = callArgs(node);
    const pattern = node.op === 'rcall' ? args[0] : args[1];
    if (pattern?.op !== 'value' || typeof pattern.args !== 'string') return;
    const problem = regexError(pattern.args);
    if (problem !== undefined)
      error = positionOf(source, pattern.pos, `program instantiation failed: ${problem}`, 'invalid_regex');
  });
  return error;
}
