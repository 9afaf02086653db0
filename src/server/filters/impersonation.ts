/**
 * The impersonation filter: with `Impersonate-*` headers, the
 * authenticated user acts as another identity once the authorizer allows
 * each part of it (`impersonate` on users, groups, service accounts, uids
 * and user extras); authorization then runs as the impersonated identity.
 */

import type { Authorizer } from '../../auth/authorizer';
import { asksToImpersonate, impersonate } from '../../auth/impersonation';
import type { NamingProfile } from '../../machinery/naming';
import type { RequestContext } from '../../http/context';

/** Undefined for a request without `Impersonate-*` headers (most): the pipeline then takes no async turn here. */
export function impersonation(
  authorizer: Authorizer,
  profile: NamingProfile,
  ctx: RequestContext,
): Promise<void> | undefined {
  if (!asksToImpersonate(ctx.request.headers)) return undefined;
  return impersonateAs(authorizer, profile, ctx);
}

async function impersonateAs(
  authorizer: Authorizer,
  profile: NamingProfile,
  ctx: RequestContext,
): Promise<void> {
  const result = await impersonate(ctx.request.headers, ctx.user, authorizer, profile);
  if (result !== undefined) ctx.user = result.user;
}
