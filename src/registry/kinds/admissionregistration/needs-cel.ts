/**
 * Validation of admission configurations is loaded with the first write of
 * one (`admission-configuration-validation.lazy.ts`), and it compiles their
 * CEL (a policy's validations, messages, audit annotations and match
 * conditions; a webhook's match conditions), so it also loads the CEL
 * library, which the server loads on first use (see cel/engine.ts) — only
 * when the object holds an expression, so that a webhook configuration
 * without match conditions never loads it.
 */

import type { KubeObject } from '../../../api/meta';
import { celLibrary } from '../../../cel/engine';
import { LazyModule } from '../../../machinery/lazy-module';
import type * as Validation from './admission-configuration-validation.lazy';
import type { FieldError } from '../../../machinery/field-errors';
import { isPlainObject } from '../../../machinery/json';

const expressionFields = ['expression', 'messageExpression', 'valueExpression'];

function holdsExpression(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(holdsExpression);
  if (!isPlainObject(value)) return false;
  if (expressionFields.some((f) => typeof value[f] === 'string' && value[f].trim() !== '')) return true;
  return Object.values(value).some(holdsExpression);
}

export const admissionConfigurationValidation = new LazyModule<typeof Validation>(
  'admission-configuration-validation',
  () => import('./admission-configuration-validation.lazy'),
);

/** `validate`'s errors, with the validation loaded first, and the CEL library when `obj` holds an expression. */
export async function withValidation(
  obj: KubeObject,
  validate: (validation: typeof Validation) => FieldError[],
): Promise<FieldError[]> {
  const validation = await admissionConfigurationValidation.load();
  if (holdsExpression(obj)) await celLibrary.load();
  return validate(validation);
}
