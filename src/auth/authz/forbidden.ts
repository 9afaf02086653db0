/**
 * The 403 a refused request gets, word for word as the real server writes
 * it: `pods "p" is forbidden: User "u" cannot get resource "pods" in API
 * group "" in the namespace "ns"`, `… at the cluster scope` without a
 * namespace, `forbidden: User "u" cannot get path "/foo"` for non-resource
 * requests, and `: <reason>` appended when the authorizers gave one (RBAC
 * gives one only when a role was missing; the Node authorizer explains its
 * refusals; AlwaysDeny says `Everything is forbidden.`).
 */

import { forbidden, StatusError } from '../../machinery/errors';
import { goQuote } from '../../machinery/go-format';
import type { AuthorizationAttributes } from '../authorizer';
import { combinedResource } from './rules';

/** What the user may not do, without the resource prefix. */
export function forbiddenMessage(a: AuthorizationAttributes): string {
  const user = goQuote(a.user.username);
  if (!a.resourceRequest) return `User ${user} cannot ${a.verb} path ${goQuote(a.path)}`;
  const what = `User ${user} cannot ${a.verb} resource ${goQuote(combinedResource(a))} in API group ${goQuote(a.apiGroup)}`;
  return a.namespace !== ''
    ? `${what} in the namespace ${goQuote(a.namespace)}`
    : `${what} at the cluster scope`;
}

/** The 403 Status error for a refused request; `reason` is the authorizers' combined reason ('' for none). */
export function forbiddenError(a: AuthorizationAttributes, reason: string): StatusError {
  const why = reason === '' ? forbiddenMessage(a) : `${forbiddenMessage(a)}: ${reason}`;
  // Non-resource requests have no group or resource: the message starts `forbidden:` and details are empty.
  if (!a.resourceRequest) return new StatusError(403, 'Forbidden', `forbidden: ${why}`, {});
  return forbidden({ group: a.apiGroup, resource: a.resource }, a.name, why);
}
