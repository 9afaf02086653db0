/**
 * The one place that knows the shape of `@marcbachmann/cel-js` internals we
 * build on: its parsed AST nodes (operator, operands, source range, the type
 * the checker annotated, the per-node `evaluate` hook and the operand/handler
 * fields the checker fills in), its type declarations and its evaluator. The
 * library's own typings stop at `ParseResult`; everything our layer does to a
 * program (instrumenting nodes for cost and semantics, estimating cost, typing
 * literals, swapping macro implementations) goes through these interfaces, so
 * an engine upgrade is checked here first. The library itself is lazy
 * (`celLibrary`): nothing here touches it before it is loaded.
 */

import { LazyModule } from '../machinery/lazy-module';
import type * as Library from './cel.lazy';

/**
 * The CEL engine with RE2, loaded when first needed: every asynchronous entry point that may compile or
 * evaluate an expression, or match a schema pattern, awaits `celLibrary.load()` first (the CRD and
 * custom-resource strategies, the admission kinds' validation, the policy and webhook dispatchers, the
 * sandbox's rule backends); below those, the layer runs synchronously through `library()`.
 */
export const celLibrary = new LazyModule<typeof Library>('cel', () => import('./cel.lazy'));

/** The loaded library's classes; throws when no entry point awaited `celLibrary.load()`. */
export function library(): typeof Library {
  return celLibrary.get();
}

export type Environment = Library.Environment;
export type Duration = Library.Duration;
export type UnsignedInt = Library.UnsignedInt;
export type RE2JS = Library.RE2JS;
/** RE2's class, whose static `compile` makes an `RE2JS`. */
export type RE2 = (typeof Library)['RE2JS'];

export function isDuration(value: unknown): value is Duration {
  return value instanceof library().Duration;
}

export function isUnsignedInt(value: unknown): value is UnsignedInt {
  return value instanceof library().UnsignedInt;
}

export function newDuration(seconds: bigint | number, nanos?: number): Duration {
  return new (library().Duration)(seconds, nanos);
}

export function newUnsignedInt(value: bigint | number): UnsignedInt {
  return new (library().UnsignedInt)(value);
}

/** A type as the library's checker declares it (`int`, `list<string>`, `map<string, dyn>`, a message type, a type parameter). */
export interface LibType {
  readonly kind: 'primitive' | 'list' | 'map' | 'message' | 'dyn' | 'param' | 'optional';
  readonly name: string;
  readonly keyType?: LibType;
  readonly valueType?: LibType;
  readonly hasDynType: boolean;
}

/** The evaluator handed to every node's `evaluate`. */
export interface LibEvaluator {
  run(node: Node, ctx: LibContext): unknown;
  tryEval(node: Node, ctx: LibContext): unknown;
  debugType(value: unknown): LibType;
}

/** Variable scope at evaluation time; opaque to us. */
export type LibContext = object;

export type EvaluateFn = (ev: LibEvaluator, node: Node, ctx: LibContext) => unknown;

/** A macro implementation attached to a call node (`has`, and ours). */
export interface LibMacro {
  typeCheck(checker: LibChecker, macro: LibMacro, ctx: LibContext): LibType;
  evaluate(ev: LibEvaluator, macro: LibMacro, ctx: LibContext): unknown;
  args?: Node[];
  [key: string]: unknown;
}

export interface LibChecker {
  check(node: Node, ctx: LibContext): LibType;
  getType(name: string): LibType;
  createError(code: string, message: string, node: Node): Error;
  readonly registry: { getListType(t: LibType): LibType; getMapType(k: LibType, v: LibType): LibType };
}

export interface NodeMeta {
  evaluate: EvaluateFn;
  alternate?: Node;
  macro?: LibMacro;
}

/** Fields of a comprehension node (`all`, `exists`, `exists_one`, `map`, `filter` expand to one). */
export interface ComprehensionArgs {
  iterable: Node;
  iterVarName: string;
  init: Node;
  step: Node;
  kind?: 'quantifier';
}

/** A parsed (and, once checked, annotated) expression node. */
export interface Node {
  readonly op: string;
  args: unknown;
  readonly pos: number;
  readonly start: number;
  readonly end: number;
  readonly input: string;
  readonly meta: NodeMeta;
  checkedType?: LibType;
  evaluate: EvaluateFn;
  setMeta(key: string, value: unknown): Node;
  /** Set by the checker on binary, logical, access and ternary nodes. */
  left?: Node;
  right?: Node;
  /** Set by the checker on call, method call, operator and access nodes: the resolved handler. */
  handle?: (...args: unknown[]) => unknown;
  /** Method call nodes: the receiver followed by the arguments, as evaluated. */
  receiverWithArgs?: Node[];
}

/** A parsed program: its root node, and the checker bound to its environment. */
export interface LibProgram {
  (context?: Record<string, unknown>): unknown;
  ast: Node;
  check(): { valid: boolean; type?: string; error?: Error };
}

export function parseProgram(env: Environment, source: string): LibProgram {
  return env.parse(source) as unknown as LibProgram;
}

/** Operands of the node kinds we walk; the library keeps them in `args`. */
export function callName(node: Node): string {
  return (node.args as [string])[0];
}

export function callArgs(node: Node): Node[] {
  return node.op === 'rcall' ? (node.args as [string, Node, Node[]])[2] : (node.args as [string, Node[]])[1];
}

export function callReceiver(node: Node): Node | undefined {
  return node.op === 'rcall' ? (node.args as [string, Node, Node[]])[1] : undefined;
}

/** Every direct child node of `node`, including a macro's expansion and a comprehension's parts. */
export function children(node: Node): Node[] {
  const meta = node.meta;
  if (meta.alternate !== undefined) return [meta.alternate];
  const args = node.args;
  switch (node.op) {
    case 'value':
    case 'id':
    case 'accuValue':
    case 'accuInc':
      return [];
    case '.':
    case '.?':
      return [(args as [Node, string])[0]];
    case 'call':
      return (args as [string, Node[]])[1];
    case 'rcall':
      return [(args as [string, Node, Node[]])[1], ...(args as [string, Node, Node[]])[2]];
    case 'map':
      return (args as [Node, Node][]).flat();
    case 'comprehension': {
      const c = args as ComprehensionArgs;
      return [c.iterable, c.init, c.step];
    }
    case '!_':
    case '-_':
    case 'accuPush':
      return [args as Node];
    default:
      return Array.isArray(args) ? (args as Node[]) : [];
  }
}

/** Calls `visit` on `node` and every node below it, parents first. */
export function walk(node: Node, visit: (node: Node) => void): void {
  visit(node);
  for (const child of children(node)) walk(child, visit);
}
