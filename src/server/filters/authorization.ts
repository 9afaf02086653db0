/**
 * The authorization filter: the request's attributes (verb, API group,
 * resource, subresource, namespace and name — or the path of a
 * non-resource request) asked of the authorizer; anything but Allow is 403
 * with the real server's message, and the sandbox's explanation of which
 * bindings were considered and what would allow it.
 */

import type { AuthorizationAttributes } from '../../auth/authorizer';
import { forbiddenError, type ServerAuthorizer } from '../../auth/authz/index';
import type { RequestContext } from '../../http/context';
import { requestAttributesOf } from '../../http/request-info';
import type { NamingProfile } from '../../machinery/naming';

export function attributesOf(ctx: RequestContext): AuthorizationAttributes {
  return { user: ctx.user, ...requestAttributesOf(ctx.info) };
}

/** The annotation keys of a decision (`authorization.<group suffix>/…`), made once per profile. */
let annotationKeys: { profile: NamingProfile; decision: string; reason: string } | undefined;

function annotationKeysOf(profile: NamingProfile): { decision: string; reason: string } {
  if (annotationKeys?.profile !== profile) {
    const group = `authorization.${profile.groupSuffix}`;
    annotationKeys = { profile, decision: `${group}/decision`, reason: `${group}/reason` };
  }
  return annotationKeys;
}

/** Synchronous: every mode decides from the listers at hand, so the request takes no async turn here. */
export function authorize(authorizer: ServerAuthorizer, ctx: RequestContext, profile: NamingProfile): void {
  const attributes = attributesOf(ctx);
  const result = authorizer.authorizeSync(attributes);
  // The audit event carries the decision and its reason, as the real authorization filter annotates it.
  const keys = annotationKeysOf(profile);
  ctx.auditAnnotations?.add(keys.decision, result.decision === 'Allow' ? 'allow' : 'forbid');
  ctx.auditAnnotations?.add(keys.reason, result.reason);
  if (result.decision === 'Allow') return;
  ctx.explanation = authorizer.explain(attributes);
  throw forbiddenError(attributes, result.reason);
}
