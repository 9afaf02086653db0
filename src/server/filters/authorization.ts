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
import { requestAttributesOf, type RequestAttributes } from '../../http/request-info';
import type { UserInfo } from '../../api/authn';
import type { NamingProfile } from '../../machinery/naming';

/**
 * The attributes of each user's requests, by the request's attributes (one object per distinct request info):
 * a cached token's user is one object while it stays cached, so a client's repeated request is asked with the
 * same attributes, which the authorizer remembers its decision by (`RbacAuthorizer`). Nothing changes them.
 */
const attributesByUser = new WeakMap<UserInfo, WeakMap<RequestAttributes, AuthorizationAttributes>>();

export function attributesOf(ctx: RequestContext): AuthorizationAttributes {
  const user = ctx.user;
  const request = requestAttributesOf(ctx.info);
  let byRequest = attributesByUser.get(user);
  if (byRequest === undefined) {
    byRequest = new WeakMap();
    attributesByUser.set(user, byRequest);
  }
  let attributes = byRequest.get(request);
  if (attributes === undefined) {
    attributes = Object.freeze({ user, ...request });
    byRequest.set(request, attributes);
  }
  return attributes;
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
