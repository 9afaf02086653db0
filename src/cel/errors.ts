/**
 * Errors of our CEL layer: evaluation errors in the engine's own class (so
 * CEL's error-absorbing `&&`, `||` and quantifiers treat them as CEL errors),
 * and the cost-limit error, which nothing may absorb.
 */

import { library } from './engine';

export function celError(message: string): Error {
  return new (library().EvaluationError)(message);
}

/** Thrown when a running expression exceeds its cost limit; `budget` when the shared per-object budget ran out first. */
export class CostLimitError extends Error {
  constructor(readonly limit: 'per-call' | 'budget') {
    super('operation cancelled: actual cost limit exceeded');
    this.name = 'CostLimitError';
  }
}
