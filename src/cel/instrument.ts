/**
 * Instruments a checked program: every node that costs something gets an
 * `evaluate` that charges the active cost tracker (cel-go's runtime model:
 * identifiers and selections 1, calls by function, list and map literals a
 * base cost, comprehensions per iteration), and calls and operators are
 * evaluated here so our semantics apply first (RE2 `matches`, heterogeneous
 * equality, set/map lists, nanosecond time, overflow checks); the engine's
 * resolved handler runs when our layer passes. Installed once per program,
 * after type checking (the checker fills in the operands and handlers).
 */

import { charge, callCost, operatorCost, MAP_CREATE_BASE_COST } from './cost';
import { CostLimitError, celError } from './errors';
import {
  isUnsignedInt,
  callName,
  callArgs,
  walk,
  type ComprehensionArgs,
  type EvaluateFn,
  type LibContext,
  type LibEvaluator,
  type Node,
} from './engine';
import { binaryOperator, negate, PASS, type Pass } from './operators';
import { celEquals } from './values';

/** Replaces a function's evaluation when it returns a value; `PASS` falls back to the engine's handler. */
export type CallOverride = (args: unknown[]) => unknown;

export interface InstrumentOptions {
  overrides: ReadonlyMap<string, CallOverride>;
  listCreateCost: number;
}

const BINARY = new Set(['==', '!=', '<', '<=', '>', '>=', '+', '-', '*', '/', '%', 'in']);

/** Per-iteration cost of the loop condition and accumulator step cel-go's expansion of each macro adds. */
const QUANTIFIER_STEP_COST: Record<string, number> = { all: 3, exists: 4 };
const RESULT_COST: Record<string, number> = { all: 1, exists: 1, exists_one: 2, map: 1, filter: 1 };

export function instrument(root: Node, options: InstrumentOptions): void {
  walk(root, (node) => install(node, options));
  const inner = Object.hasOwn(root, 'evaluate') ? root.evaluate : resolvedEvaluate(root);
  root.evaluate = (ev, node, ctx) => {
    guardTryEval(ev);
    return inner(ev, node, ctx);
  };
}

function install(node: Node, options: InstrumentOptions): void {
  const meta = node.meta;
  if (meta.alternate !== undefined) {
    if (meta.alternate.op === 'comprehension')
      instrumentComprehension(callName(node), meta.alternate, options);
    return;
  }
  if (meta.macro !== undefined) return;
  const original = meta.evaluate;
  switch (node.op) {
    case '[]':
      node.evaluate = evaluateIndex;
      return;
    case 'id':
    case '.':
    case '!_':
      node.evaluate = charging(1, original);
      return;
    case 'list':
      node.evaluate = charging(options.listCreateCost, original);
      return;
    case 'map':
      node.evaluate = evaluateMapLiteral;
      return;
    case '&&':
      node.evaluate = logical(false);
      return;
    case '||':
      node.evaluate = logical(true);
      return;
    case '-_':
      node.evaluate = evaluateNegation;
      return;
    case 'call':
    case 'rcall':
      node.evaluate = callEvaluator(node, options.overrides.get(callName(node)));
      return;
    default:
      if (BINARY.has(node.op)) node.evaluate = evaluateBinary;
  }
}

/** What the engine's self-replacing `evaluate` would settle on for an uninstrumented node. */
function resolvedEvaluate(node: Node): EvaluateFn {
  const { alternate, macro, evaluate } = node.meta;
  if (alternate !== undefined) return (ev, _node, ctx) => alternate.evaluate(ev, alternate, ctx);
  if (macro !== undefined) return (ev, _node, ctx) => macro.evaluate(ev, macro, ctx);
  return evaluate;
}

function charging(units: number, original: EvaluateFn): EvaluateFn {
  return (ev, node, ctx) => {
    charge(units);
    return original(ev, node, ctx);
  };
}

function evaluateBinary(ev: LibEvaluator, node: Node, ctx: LibContext): unknown {
  const left = ev.run(node.left!, ctx);
  const right = ev.run(node.right!, ctx);
  let result = binaryOperator(node.op, left, right);
  if (result === PASS) result = node.handle!(left, right, node, ev);
  charge(operatorCost(node.op, left, right));
  return result;
}

/** `m[k]` finds numeric keys by value (`{1u: x}[1]`); lists accept uint and integral double indices. */
function evaluateIndex(ev: LibEvaluator, node: Node, ctx: LibContext): unknown {
  const container = ev.run(node.left!, ctx);
  let key = ev.run(node.right!, ctx);
  charge(1);
  if (container instanceof Map && typeof key !== 'string') {
    for (const [k, v] of container) if (celEquals(k, key)) return v;
    throw celError(`no such key: ${String(key)}`);
  }
  if (Array.isArray(container)) {
    if (isUnsignedInt(key)) key = key.value;
    else if (typeof key === 'number' && Number.isInteger(key)) key = BigInt(key);
  }
  return node.handle!(container, key, node, ev);
}

function evaluateNegation(ev: LibEvaluator, node: Node, ctx: LibContext): unknown {
  const value = ev.run(node.args as Node, ctx);
  charge(1);
  const result = negate(value);
  return result === PASS ? node.handle!(value, node, ev) : result;
}

function callEvaluator(node: Node, override: CallOverride | undefined): EvaluateFn {
  const name = callName(node);
  const method = node.op === 'rcall';
  const argNodes = method ? node.receiverWithArgs! : callArgs(node);
  return (ev, n, ctx) => {
    const values = argNodes.map((a) => ev.run(a, ctx));
    let result: unknown | Pass = override === undefined ? PASS : override(values);
    if (result === PASS) result = method ? n.handle!(values, ev, n) : n.handle!(values, n, ev);
    charge(callCost(name, values, result));
    return result;
  };
}

/**
 * `&&` and `||` as cel-go evaluates them: a deciding operand wins even over an error on the other side (commutative
 * error absorption); otherwise the left operand's error is reported first.
 */
function logical(decides: boolean): EvaluateFn {
  return (ev, node, ctx) => {
    const [left, right] = node.args as [Node, Node];
    const l = attempt(ev, left, ctx);
    if (l === decides) return decides;
    const r = attempt(ev, right, ctx);
    if (r === decides) return decides;
    if (l instanceof Error) throw l;
    if (r instanceof Error) throw r;
    if (typeof l !== 'boolean' || typeof r !== 'boolean')
      throw celError(`no such overload: logical operator on '${typeof l}' and '${typeof r}'`);
    return !decides;
  };
}

function attempt(ev: LibEvaluator, node: Node, ctx: LibContext): unknown {
  try {
    return ev.run(node, ctx);
  } catch (error) {
    if (error instanceof CostLimitError) throw error;
    return error instanceof Error ? error : celError(String(error));
  }
}

/** Map literals: keys must be int, uint, bool or string and unique; non-string keys make a `Map`. */
function evaluateMapLiteral(ev: LibEvaluator, node: Node, ctx: LibContext): unknown {
  const entries = (node.args as [Node, Node][]).map(([k, v]): [unknown, unknown] => [
    ev.run(k, ctx),
    ev.run(v, ctx),
  ]);
  charge(MAP_CREATE_BASE_COST);
  const keys = new Set<unknown>();
  let plain = true;
  for (const [k] of entries) {
    if (typeof k === 'number' || k === null || (typeof k === 'object' && !('value' in k)))
      throw celError(`unsupported key type: ${k === null ? 'null' : typeof k}`);
    const id = typeof k === 'object' ? (k as { value: bigint }).value : k;
    if (keys.has(id)) throw celError(`Failed with repeated key: ${String(id)}`);
    keys.add(id);
    if (typeof k !== 'string' || k === '__proto__') plain = false;
  }
  return plain ? Object.fromEntries(entries as [string, unknown][]) : new Map(entries);
}

function instrumentComprehension(macro: string, comprehension: Node, options: InstrumentOptions): void {
  const args = comprehension.args as ComprehensionArgs;
  const inner = comprehension.meta.evaluate;
  const resultCost = RESULT_COST[macro] ?? 1;
  comprehension.evaluate = (ev, node, ctx) => {
    const value = inner(ev, node, ctx);
    charge(resultCost);
    return value;
  };
  const step = args.step;
  const stepCost = QUANTIFIER_STEP_COST[macro];
  if (stepCost !== undefined) {
    step.evaluate = charging(stepCost, step.meta.evaluate);
    return;
  }
  // map, filter and exists_one accumulate in the step's branches: `accu + [x]`, `accu + 1`, or `accu`.
  const branches = step.op === '?:' ? (step.args as Node[]).slice(1) : [step];
  for (const branch of branches) {
    const units = branch.op === 'accuPush' ? 2 + options.listCreateCost : branch.op === 'accuInc' ? 2 : 1;
    branch.evaluate = charging(units, branch.meta.evaluate);
  }
  if (macro === 'exists_one') step.evaluate = charging(0, step.meta.evaluate);
}

const patched = new WeakSet<object>();

/** The engine's `tryEval` absorbs errors for `&&`, `||` and quantifiers; a cost-limit error must still stop evaluation. */
function guardTryEval(ev: LibEvaluator): void {
  if (patched.has(ev)) return;
  patched.add(ev);
  ev.tryEval = function tryEval(this: LibEvaluator, node: Node, ctx: LibContext): unknown {
    try {
      return this.run(node, ctx);
    } catch (error) {
      if (error instanceof CostLimitError) throw error;
      return error;
    }
  };
}
