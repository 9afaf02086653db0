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
import type { NamingProfile } from '../../machinery/naming';

export function attributesOf(ctx: RequestContext): AuthorizationAttributes {
  const info = ctx.info;
  if (!info.isResourceRequest)
    return {
      user: ctx.user,
      verb: info.verb,
      resourceRequest: false,
      apiGroup: '',
      apiVersion: '',
      resource: '',
      subresource: '',
      namespace: '',
      name: '',
      path: info.path,
    };
  return {
    user: ctx.user,
    verb: info.verb,
    resourceRequest: true,
    apiGroup: info.group,
    apiVersion: info.version,
    resource: info.resource,
    subresource: info.subresource,
    namespace: info.namespace,
    name: info.name,
    path: info.path,
  };
}

export async function authorize(
  authorizer: ServerAuthorizer,
  ctx: RequestContext,
  profile: NamingProfile,
): Promise<void> {
  const attributes = attributesOf(ctx);
  const result = await authorizer.authorize(attributes);
  // The audit event carries the decision and its reason, as the real authorization filter annotates it.
  const group = `authorization.${profile.groupSuffix}`;
  ctx.auditAnnotations?.add(`${group}/decision`, result.decision === 'Allow' ? 'allow' : 'forbid');
  ctx.auditAnnotations?.add(`${group}/reason`, result.reason);
  if (result.decision === 'Allow') return;
  ctx.explanation = authorizer.explain(attributes);
  throw forbiddenError(attributes, result.reason);
}
