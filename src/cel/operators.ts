/**
 * Operator semantics our layer applies at evaluation time, ahead of the
 * engine's own handlers: CEL equality and ordering across numeric types,
 * set/map list equality and concatenation, nanosecond timestamp and duration
 * arithmetic with range checks, and int64 overflow on negation and division.
 * `PASS` leaves an operation to the engine (ints, strings, bytes, doubles).
 */

import { celError } from './errors';
import { isDuration } from './engine';
import {
  addDurationToTimestamp,
  durationFromNanos,
  durationNanos,
  isTimestamp,
  subtractTimestamps,
} from './time';
import { celCompare, celEquals, concatLists, isMapValue, listContains, mapHasKey } from './values';

export const PASS: unique symbol = Symbol('orch.cel.pass');
export type Pass = typeof PASS;

export const MIN_INT = -9223372036854775808n;
export const MAX_INT = 9223372036854775807n;

export function binaryOperator(op: string, left: unknown, right: unknown): unknown {
  switch (op) {
    case '==':
      return celEquals(left, right);
    case '!=':
      return !celEquals(left, right);
    case '<':
    case '<=':
    case '>':
    case '>=':
      return relational(op, left, right);
    case '+':
      return add(left, right);
    case '-':
      return subtract(left, right);
    case '/':
      if (left === MIN_INT && right === -1n) throw celError('integer overflow');
      return PASS;
    case '%':
      if (left === MIN_INT && right === -1n) throw celError('integer overflow');
      return PASS;
    case 'in':
      if (Array.isArray(right)) return listContains(right, left);
      if (isMapValue(right)) return mapHasKey(right, left);
      return PASS;
    default:
      return PASS;
  }
}

function relational(op: string, left: unknown, right: unknown): boolean | Pass {
  const c = celCompare(left, right);
  if (c === undefined) {
    // NaN is unordered: every comparison with it is false.
    if (
      (typeof left === 'number' && Number.isNaN(left)) ||
      (typeof right === 'number' && Number.isNaN(right))
    )
      return false;
    return PASS;
  }
  return op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : c >= 0;
}

function add(left: unknown, right: unknown): unknown {
  if (Array.isArray(left) && Array.isArray(right)) return concatLists(left, right);
  if (isTimestamp(left) && isDuration(right)) return addDurationToTimestamp(left, right);
  if (isDuration(left) && isTimestamp(right)) return addDurationToTimestamp(right, left);
  if (isDuration(left) && isDuration(right))
    return durationFromNanos(durationNanos(left) + durationNanos(right));
  return PASS;
}

function subtract(left: unknown, right: unknown): unknown {
  if (isTimestamp(left) && isDuration(right)) return addDurationToTimestamp(left, right, -1n);
  if (isTimestamp(left) && isTimestamp(right)) return subtractTimestamps(left, right);
  if (isDuration(left) && isDuration(right))
    return durationFromNanos(durationNanos(left) - durationNanos(right));
  return PASS;
}

/** Unary minus: int64 negation overflows at the minimum. */
export function negate(value: unknown): unknown {
  if (value === MIN_INT) throw celError('integer overflow');
  if (isDuration(value)) return durationFromNanos(-durationNanos(value));
  return PASS;
}
