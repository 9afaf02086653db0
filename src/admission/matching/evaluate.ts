/**
 * Evaluating one compiled admission expression (a webhook's or a policy's
 * match condition, a policy's validation) against a request. CEL asks
 * the `authorizer` synchronously while the server's authorizer answers
 * asynchronously, so an expression that consults it runs again once the
 * questions it asked are answered (answers are shared by every expression
 * of the request, as the real caching authorizer shares them).
 */

import type { JsonObject, JsonValue } from '../../api/meta';
import type { Authorizer } from '../../auth/authorizer';
import {
  evaluateAdmission,
  type AuthorizationAttributes,
  type AuthorizationDecision,
  type CompiledExpression,
  type EvalResult,
} from '../../cel';
import type { AdmissionAttributes } from '../types';

export interface ExpressionInput {
  object: JsonValue | undefined;
  oldObject: JsonValue | undefined;
  request: JsonObject;
  /** Present (possibly null) when a policy has a paramKind; never for webhooks. */
  params?: JsonValue | null;
}

/** One request's authorizer answers, keyed by the question. */
export type AuthorizerAnswers = Map<string, AuthorizationDecision>;

/** `budget`: a policy's validations share the runtime budget; match conditions each get their own. */
export async function evaluateWithAuthorizer(
  compiled: CompiledExpression,
  input: ExpressionInput,
  a: AdmissionAttributes,
  authorizer: Authorizer,
  answers: AuthorizerAnswers,
  budget: number,
): Promise<EvalResult> {
  const withParams = 'params' in input;
  const options = { authorizer: true, params: withParams };
  for (let pass = 0; ; pass++) {
    const pending = new Map<string, AuthorizationAttributes>();
    const result = evaluateAdmission(
      compiled,
      {
        object: input.object,
        oldObject: input.oldObject,
        request: input.request,
        ...(withParams ? { params: input.params ?? undefined } : {}),
        authorizer: {
          user: a.user,
          authorize: (attrs) => {
            const key = JSON.stringify({ ...attrs, user: undefined });
            const known = answers.get(key);
            if (known !== undefined) return known;
            pending.set(key, attrs);
            return { decision: 'no-opinion', reason: '' };
          },
          requestResource: {
            apiGroup: a.requestResource?.group ?? a.group,
            resource: a.requestResource?.resource ?? a.resource,
            ...(a.subresource !== '' ? { subresource: a.subresource } : {}),
            ...(a.namespace !== '' ? { namespace: a.namespace } : {}),
            ...(a.name !== '' ? { name: a.name } : {}),
          },
        },
      },
      options,
      budget,
    );
    // Every question answered (or a runaway expression): this evaluation saw real decisions.
    if (pending.size === 0 || pass >= 8) return result;
    for (const [key, attrs] of pending) {
      const r = await authorizer.authorize({
        user: attrs.user,
        verb: attrs.verb,
        resourceRequest: attrs.path === undefined,
        apiGroup: attrs.apiGroup ?? '',
        apiVersion: '*',
        resource: attrs.resource ?? '',
        subresource: attrs.subresource ?? '',
        namespace: attrs.namespace ?? '',
        name: attrs.name ?? '',
        path: attrs.path ?? '',
      });
      answers.set(key, {
        decision: r.decision === 'Allow' ? 'allow' : r.decision === 'Deny' ? 'deny' : 'no-opinion',
        reason: r.reason,
      });
    }
  }
}

/** What a match condition that did not evaluate contributes to the error, in the real matcher's words; undefined: it evaluated. */
export function conditionFailure(expression: string, r: EvalResult): string | undefined {
  if (r.status === 'error') return `expression '${expression}' resulted in error: ${r.message}`;
  if (r.status === 'cost-exceeded')
    return `expression '${expression}' resulted in error: operation cancelled: actual cost limit exceeded`;
  return undefined;
}

/** The conditions' errors as one message: one alone, several in brackets (the real aggregate). */
export function joinConditionErrors(errors: readonly string[]): string {
  return errors.length === 1 ? (errors[0] ?? '') : `[${errors.join(', ')}]`;
}
