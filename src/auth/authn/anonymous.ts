/**
 * The anonymous identity: what a request that presents no credential at
 * all becomes when `--anonymous-auth` is on (the default). It is never the
 * fallback for a credential that failed — the chain answers that with 401
 * — and it never gets `system:authenticated`.
 */

import type { UserInfo } from '../../api/authn';

export const anonymousUsername = 'system:anonymous';
export const unauthenticatedGroup = 'system:unauthenticated';
export const authenticatedGroup = 'system:authenticated';

/** A fresh copy each time, so no caller can change the shared identity. */
export function anonymousUser(): UserInfo {
  return { username: anonymousUsername, groups: [unauthenticatedGroup] };
}

/**
 * The real group adder: every authenticated user also gets
 * `system:authenticated`, unless it is anonymous or already carries either
 * of the two catch-all groups.
 */
export function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.username === anonymousUsername) return user;
  if (user.groups.some((g) => g === authenticatedGroup || g === unauthenticatedGroup)) return user;
  return { ...user, groups: [...user.groups, authenticatedGroup] };
}
