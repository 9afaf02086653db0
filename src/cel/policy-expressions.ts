/**
 * Compiling a policy's CEL (validations, messageExpressions, audit
 * annotation values, match conditions) in the v1.27 admission environment:
 * `object`, `oldObject`, `request`, `authorizer`, and `params` when the
 * policy has a `paramKind`. Errors read as the real server words them
 * (`compilation failed: ERROR: <input>:1:6: ...`, `must evaluate to bool`),
 * both for the 422 at create and for a stored policy that no longer compiles.
 */

import { admissionEnvironment, compileExpression, isCompileError, type CompiledExpression } from './index';

/** The result types an expression may have: `bool` (validations, conditions), `string`, or string or null (audit values). */
export type ExpectedType = 'bool' | 'string' | 'string-or-null';

export type CompiledPolicyExpression = { compiled: CompiledExpression } | { error: string };

const cache = new Map<string, CompiledPolicyExpression>();

export function compilePolicyExpression(
  source: string,
  withParams: boolean,
  expect: ExpectedType,
): CompiledPolicyExpression {
  const key = `${withParams}/${expect}/${source}`;
  let found = cache.get(key);
  if (found === undefined) {
    found = compileUncached(source, withParams, expect);
    if (cache.size > 2000) cache.clear();
    cache.set(key, found);
  }
  return found;
}

function compileUncached(
  source: string,
  withParams: boolean,
  expect: ExpectedType,
): CompiledPolicyExpression {
  const compiled = compileExpression(
    admissionEnvironment({ authorizer: true, params: withParams }).env,
    source,
  );
  if (isCompileError(compiled)) return { error: `compilation failed: ${compiled.message}` };
  const type = compiled.resultType.name;
  const allowed = expect === 'string-or-null' ? ['string', 'null', 'null_type'] : [expect];
  if (type !== 'dyn' && !allowed.includes(type))
    return {
      error:
        expect === 'string-or-null'
          ? 'must evaluate to one of [string null_type]'
          : `must evaluate to ${expect}`,
    };
  return { compiled };
}
