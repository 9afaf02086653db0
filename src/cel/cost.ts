/**
 * Cost limits and the runtime cost model. The limits are the real server's
 * (k8s.io/apiserver `pkg/apis/cel/config.go`, apiextensions validation, and
 * `pkg/cel/limits.go` for the request size); per-operation costs follow
 * cel-go's runtime tracker and the Kubernetes libraries' `CallCost`, except
 * the list-literal base cost, which the product spec sets to 40. A tracker is
 * active while one expression evaluates; instrumented nodes charge it and it
 * throws when its limit is crossed.
 */

import { CostLimitError } from './errors';
import { isMapValue, isObjectValue, sizeOf } from './values';

/** Runtime cost limit of one expression evaluation (`PerCallLimit`, about 0.1 s). */
export const PER_CALL_LIMIT = 1_000_000;
/** Runtime cost budget shared by all rules of one custom resource object (`RuntimeCELCostBudget`, about 1 s). */
export const RUNTIME_CEL_COST_BUDGET = 10_000_000;
/** Runtime budget of all match conditions of one webhook or policy binding (`RuntimeCELCostBudgetMatchConditions`). */
export const RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS = 2_500_000;
/** Largest estimated cost of one rule, times its cardinality, accepted at CRD create/update (`StaticEstimatedCostLimit`). */
export const STATIC_ESTIMATED_COST_LIMIT = 10_000_000;
/** Largest estimated cost of all rules of one CRD schema (`StaticEstimatedCRDCostLimit`). */
export const STATIC_ESTIMATED_CRD_COST_LIMIT = 100_000_000;
/** The largest request the server accepts; unbounded lists and strings are estimated as filling it. */
export const MAX_REQUEST_SIZE_BYTES = 3 * 1024 * 1024;
/** Longest message a `messageExpression` may produce (`MaxEvaluatedMessageExpressionSizeBytes`). */
export const MAX_MESSAGE_EXPRESSION_BYTES = 5 * 1024;

export const SELECT_AND_IDENT_COST = 1;
/** Spec: "Expression cost of a list literal: 40 cost units base" (cel-go's own constant is 10). */
export const LIST_CREATE_BASE_COST = 40;
export const MAP_CREATE_BASE_COST = 30;
export const STRING_TRAVERSAL_COST_FACTOR = 0.1;
export const REGEX_STRING_LENGTH_COST_FACTOR = 0.25;
/** An authorization check; set so that an expression can afford only two (Kubernetes authz library). */
export const AUTHZ_CHECK_COST = 350_000;

export class CostTracker {
  cost = 0;
  constructor(
    readonly limit: number,
    /** Which limit `limit` is: the per-call limit, or the caller's remaining budget when that is smaller. */
    readonly kind: 'per-call' | 'budget',
  ) {}
}

let active: CostTracker | undefined;

/** Adds `units` to the running expression's cost; throws `CostLimitError` once over its limit. */
export function charge(units: number): void {
  const tracker = active;
  if (tracker === undefined) return;
  tracker.cost += units;
  if (tracker.cost > tracker.limit) throw new CostLimitError(tracker.kind);
}

/** Runs `fn` with `tracker` charged by every instrumented node it evaluates. */
export function withTracker<T>(tracker: CostTracker, fn: () => T): T {
  const previous = active;
  active = tracker;
  try {
    return fn();
  } finally {
    active = previous;
  }
}

const ceil = Math.ceil;

/** Runtime cost of a call, by function name; `args` starts with the receiver for method calls. */
export function callCost(name: string, args: unknown[], result: unknown): number {
  switch (name) {
    case 'startsWith':
    case 'endsWith':
    case 'url':
    case 'lowerAscii':
    case 'upperAscii':
    case 'substring':
    case 'trim':
      return ceil(sizeOf(args[0]) * STRING_TRAVERSAL_COST_FACTOR);
    case 'contains':
      return (
        ceil(sizeOf(args[0]) * STRING_TRAVERSAL_COST_FACTOR) *
        ceil(sizeOf(args[1]) * STRING_TRAVERSAL_COST_FACTOR)
      );
    case 'matches':
    case 'find':
    case 'findAll':
      return (
        ceil((1 + sizeOf(args[0])) * STRING_TRAVERSAL_COST_FACTOR) *
        ceil(sizeOf(args[1]) * REGEX_STRING_LENGTH_COST_FACTOR)
      );
    case 'isSorted':
    case 'sum':
    case 'max':
    case 'min':
    case 'indexOf':
    case 'lastIndexOf':
      return traversalCost(args[0]);
    case 'replace':
    case 'split':
      return ceil(sizeOf(args[0]) * 2 * STRING_TRAVERSAL_COST_FACTOR);
    case 'join':
      return ceil(sizeOf(result) * 2 * STRING_TRAVERSAL_COST_FACTOR);
    case 'string':
    case 'bytes':
      // O(n) only for the string <-> bytes conversions.
      return typeof args[0] === 'string' || args[0] instanceof Uint8Array
        ? ceil(sizeOf(args[0]) * STRING_TRAVERSAL_COST_FACTOR)
        : 1;
    case 'check':
      return AUTHZ_CHECK_COST;
    default:
      return 1;
  }
}

/** Runtime cost of a binary operator. */
export function operatorCost(op: string, left: unknown, right: unknown): number {
  switch (op) {
    case '==':
    case '!=':
      return ceil(Math.min(sizeOf(left), sizeOf(right)) * STRING_TRAVERSAL_COST_FACTOR);
    case '<':
    case '<=':
    case '>':
    case '>=':
      return isText(left) && isText(right)
        ? ceil(Math.min(sizeOf(left), sizeOf(right)) * STRING_TRAVERSAL_COST_FACTOR)
        : 1;
    case '+':
      return isText(left) && isText(right)
        ? ceil((sizeOf(left) + sizeOf(right)) * STRING_TRAVERSAL_COST_FACTOR)
        : 1;
    case 'in':
      return Array.isArray(right) ? right.length : 1;
    default:
      return 1;
  }
}

function isText(v: unknown): boolean {
  return typeof v === 'string' || v instanceof Uint8Array;
}

/** Cost of walking a value once, as the Kubernetes list library charges it (strings count UTF-8 bytes). */
export function traversalCost(value: unknown): number {
  if (typeof value === 'string') return Math.floor(utf8Length(value) * STRING_TRAVERSAL_COST_FACTOR);
  if (value instanceof Uint8Array) return Math.floor(value.length * STRING_TRAVERSAL_COST_FACTOR);
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + traversalCost(item), 0);
  if (value instanceof Map) {
    let sum = 0;
    for (const [k, v] of value) sum += traversalCost(k) + traversalCost(v);
    return sum;
  }
  if (isObjectValue(value) || isMapValue(value)) {
    return Object.entries(value).reduce((sum, [k, v]) => sum + traversalCost(k) + traversalCost(v), 0);
  }
  return 1;
}

function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}
