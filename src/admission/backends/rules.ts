/**
 * How a rules backend decides: the rules are tried in order and the first
 * whose `when` holds (no `when`: always) answers — allowed or denied with
 * its code and message, its patch rendered, its warnings. No rule holds:
 * allowed. An expression failing at evaluation is the backend's own bug:
 * it answers 500 with the error, as a webhook server with a bug would.
 */

import { bindRequest, evaluateBackendExpression } from './cel';
import { renderPatch } from './patch-template';
import { replyFor, type ParsedReview } from './review-body';
import type { BackendRule } from './types';

export interface BackendReply {
  status: number;
  contentType: string;
  body: string;
}

export function answerWithRules(rules: readonly BackendRule[], review: ParsedReview): BackendReply {
  const vars = bindRequest(review.request);
  for (const [i, rule] of rules.entries()) {
    if (rule.when !== undefined) {
      const held = evaluateBackendExpression(rule.when, vars);
      if (!held.ok) return failure(`rules[${i}].when: ${held.message}`);
      if (held.value !== true) continue;
    }
    const response: Record<string, unknown> = { allowed: rule.allowed };
    if (!rule.allowed)
      response.status = {
        code: rule.code ?? 403,
        ...(rule.message !== undefined ? { message: rule.message } : {}),
      };
    else if (rule.message !== undefined) response.status = { message: rule.message };
    if (rule.patch !== undefined && rule.patch.length > 0) {
      try {
        response.patch = renderPatch(rule.patch, vars);
      } catch (e) {
        return failure(`rules[${i}].${(e as Error).message}`);
      }
    }
    if (rule.warnings !== undefined && rule.warnings.length > 0) response.warnings = [...rule.warnings];
    return { status: 200, contentType: 'application/json', body: replyFor(review, response) };
  }
  return { status: 200, contentType: 'application/json', body: replyFor(review, { allowed: true }) };
}

function failure(message: string): BackendReply {
  return { status: 500, contentType: 'text/plain; charset=utf-8', body: `${message}\n` };
}
