/**
 * A UserInfo as the authentication kinds write it (TokenReview's
 * `status.user`, SelfSubjectReview's `status.userInfo`): every field is
 * omitted when empty, but the object itself is always written — the real
 * encoder never drops a struct — so an unauthenticated review still carries
 * `user: {}`.
 */

import type { UserInfo } from '../../../api/authn';
import type { JsonObject } from '../../../api/meta';
import { putIfSet } from '../authorization/review';

export function userInfoJson(user: UserInfo | undefined): JsonObject {
  const out: JsonObject = {};
  if (user === undefined) return out;
  putIfSet(out, 'username', user.username);
  putIfSet(out, 'uid', user.uid);
  putIfSet(out, 'groups', [...user.groups]);
  if (user.extra !== undefined) {
    const extra: JsonObject = {};
    for (const [k, v] of Object.entries(user.extra)) extra[k] = [...v];
    putIfSet(out, 'extra', extra);
  }
  return out;
}
