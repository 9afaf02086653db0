/**
 * The impersonation filter: with `Impersonate-*` headers, the
 * authenticated user acts as another identity once the authorizer allows
 * each part of it (`impersonate` on users, groups, service accounts, uids
 * and user extras); authorization then runs as the impersonated identity.
 */

import type { Authorizer } from '../../auth/authorizer';
import { impersonate } from '../../auth/impersonation';
import type { NamingProfile } from '../../machinery/naming';
import type { RequestContext } from '../../http/context';

export async function impersonation(
  authorizer: Authorizer,
  profile: NamingProfile,
  ctx: RequestContext,
): Promise<void> {
  const result = await impersonate(ctx.request.headers, ctx.user, authorizer, profile);
  if (result !== undefined) ctx.user = result.user;
}
