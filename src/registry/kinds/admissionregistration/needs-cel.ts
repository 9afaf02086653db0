/**
 * Validation of admission configurations compiles their CEL (a policy's
 * validations, messages, audit annotations and match conditions; a
 * webhook's match conditions), so it first loads the CEL library, which
 * the server loads on first use (see cel/engine.ts) — only when the object
 * holds an expression, so that a webhook configuration without match
 * conditions never loads it.
 */

import type { KubeObject } from '../../../api/meta';
import { celLibrary } from '../../../cel/index';
import type { FieldError } from '../../../machinery/field-errors';
import { isPlainObject } from '../../../machinery/json';

const expressionFields = ['expression', 'messageExpression', 'valueExpression'];

function holdsExpression(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(holdsExpression);
  if (!isPlainObject(value)) return false;
  if (expressionFields.some((f) => typeof value[f] === 'string' && value[f].trim() !== '')) return true;
  return Object.values(value).some(holdsExpression);
}

/** `validate`'s errors, with the CEL library loaded first when `obj` holds an expression. */
export async function withCelWhenNeeded(
  obj: KubeObject,
  validate: () => FieldError[],
): Promise<FieldError[]> {
  if (holdsExpression(obj)) await celLibrary.load();
  return validate();
}
