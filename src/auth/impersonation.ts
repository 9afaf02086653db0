/**
 * Impersonation, as the real filter does it after authentication: the
 * `Impersonate-User`, `Impersonate-Group`, `Impersonate-Extra-<key>` and
 * `Impersonate-Uid` headers each name a value the requester must be allowed
 * to `impersonate` (core `users`, `groups`, `serviceaccounts`; the profile's
 * authentication group `uids` and `userextras/<key>`), checked in that order
 * with the value as resource name; the first refusal is the real 403. The
 * new identity gets the groups the real filter adds (`system:authenticated`,
 * or `system:unauthenticated` for `system:anonymous`; a service account's
 * groups when no group was asked for). Group, uid or extra without a user is
 * 400 here where the real server answers 500 (docs/decisions/0013).
 */

import type { UserInfo } from '../api/authn';
import { type StatusError, badRequest, forbidden } from '../machinery/errors';
import type { NamingProfile } from '../machinery/naming';
import type { AuthorizationAttributes, Authorizer } from './authorizer';

export const impersonateUserHeader = 'impersonate-user';
export const impersonateGroupHeader = 'impersonate-group';
export const impersonateUidHeader = 'impersonate-uid';
export const impersonateExtraPrefix = 'impersonate-extra-';

interface ImpersonationRequest {
  kind: 'ServiceAccount' | 'User' | 'Group' | 'UserExtra' | 'UID';
  name: string;
  namespace?: string;
  /** The extra key, for `UserExtra`. */
  field?: string;
}

export interface Impersonation {
  user: UserInfo;
  /** The request headers to remove before the request goes on (lowercase names). */
  stripHeaders: string[];
}

/**
 * Fetch joins repeated headers with ", "; splitting there gives back the
 * separate values of a repeatable header (a value holding ", " itself cannot
 * be told apart — a limit of the Fetch API).
 */
function values(headers: Headers, name: string): string[] {
  const value = headers.get(name);
  return value === null ? [] : value.split(', ');
}

/** The `Impersonate-Extra-*` header names present (lowercase, sorted so checks run in a stable order). */
function extraHeaderNames(headers: Headers): string[] {
  const names: string[] = [];
  headers.forEach((_value, name) => {
    if (name.startsWith(impersonateExtraPrefix)) names.push(name);
  });
  return names.sort();
}

/**
 * Whether the request names any `Impersonate-*` header: most do not, and `impersonate` (an async call) is then
 * not needed. Fetch's headers iterate sorted by (lowercase) name, so the first name at or after the prefix
 * tells, and the names after it are never read (a request's `user-agent`, `sec-*` and the like).
 */
export function asksToImpersonate(headers: Headers): boolean {
  // The WebWorker library's types leave out that Headers iterate as [name, value] pairs (the Fetch standard's).
  for (const [name] of headers as unknown as Iterable<[string, string]>)
    if (name >= impersonatePrefix) return name.startsWith(impersonatePrefix);
  return false;
}

const impersonatePrefix = 'impersonate-';

const dns1123Label = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** `system:serviceaccount:<ns>:<name>` with a valid namespace and name, as the real `SplitUsername`. */
export function splitServiceAccountUsername(
  username: string,
): { namespace: string; name: string } | undefined {
  const prefix = 'system:serviceaccount:';
  if (!username.startsWith(prefix)) return undefined;
  const parts = username.slice(prefix.length).split(':');
  if (parts.length !== 2) return undefined;
  const [namespace = '', name = ''] = parts;
  const nameOK = name.length <= 253 && name.split('.').every((l) => dns1123Label.test(l));
  if (namespace.length > 63 || !dns1123Label.test(namespace) || !nameOK) return undefined;
  return { namespace, name };
}

function unescapeExtraKey(encoded: string): string {
  try {
    // Go's PathUnescape: `%XX` only (a `+` stays); a bad escape leaves the key as sent.
    if (/%(?![0-9a-fA-F]{2})/.test(encoded)) return encoded;
    return decodeURIComponent(encoded);
  } catch {
    return encoded;
  }
}

/** Go's `%v` of the requested object references, for the "without a user" message. */
function goReferences(requests: readonly ImpersonationRequest[], authnVersion: string): string {
  const ref = (r: ImpersonationRequest) => {
    const apiVersion = r.kind === 'UserExtra' || r.kind === 'UID' ? authnVersion : '';
    return `{${[r.kind, r.namespace ?? '', r.name, '', apiVersion, '', r.field ?? ''].join(' ')}}`;
  };
  return `[${requests.map(ref).join(' ')}]`;
}

function buildRequests(headers: Headers, authnVersion: string): ImpersonationRequest[] {
  const requests: ImpersonationRequest[] = [];
  const user = headers.get(impersonateUserHeader) ?? '';
  if (user !== '') {
    const sa = splitServiceAccountUsername(user);
    requests.push(sa === undefined ? { kind: 'User', name: user } : { kind: 'ServiceAccount', ...sa });
  }
  for (const group of values(headers, impersonateGroupHeader)) requests.push({ kind: 'Group', name: group });
  const extraHeaders = extraHeaderNames(headers);
  for (const header of extraHeaders) {
    const field = unescapeExtraKey(header.slice(impersonateExtraPrefix.length).toLowerCase());
    for (const value of values(headers, header)) requests.push({ kind: 'UserExtra', name: value, field });
  }
  const uid = headers.get(impersonateUidHeader) ?? '';
  if (uid !== '') requests.push({ kind: 'UID', name: uid });
  if (user === '' && requests.length > 0) {
    const missing = `requested ${goReferences(requests, authnVersion)} without impersonating a user`;
    throw badRequest(`${missing} (the Impersonate-User header is missing)`);
  }
  return requests;
}

/** The real forbidden message: `<resource> "<name>" is forbidden: User "<u>" cannot impersonate resource …`. */
function forbiddenImpersonation(attributes: AuthorizationAttributes, why: string): StatusError {
  const resource =
    attributes.subresource === '' ? attributes.resource : `${attributes.resource}/${attributes.subresource}`;
  const scope =
    attributes.namespace === '' ? 'at the cluster scope' : `in the namespace "${attributes.namespace}"`;
  const cannot = `User "${attributes.user.username}" cannot impersonate resource "${resource}" in API group "${attributes.apiGroup}" ${scope}`;
  const gr = { group: attributes.apiGroup, resource: attributes.resource };
  return forbidden(gr, attributes.name, why === '' ? cannot : `${cannot}: ${why}`);
}

/**
 * The impersonated identity, or undefined when the request asks for none.
 * Throws 400 for a malformed request and the real 403 when `requester` may
 * not impersonate a requested value.
 */
export async function impersonate(
  headers: Headers,
  requester: UserInfo,
  authorizer: Authorizer,
  profile: NamingProfile,
): Promise<Impersonation | undefined> {
  const authnGroup = profile.suffixed('authentication');
  const requests = buildRequests(headers, `${authnGroup}/v1`);
  if (requests.length === 0) return undefined;

  const groupsSpecified = headers.get(impersonateGroupHeader) !== null;
  let username = '';
  let uid = '';
  let groups: string[] = [];
  const extra: Record<string, string[]> = {};
  for (const request of requests) {
    const core = { apiGroup: '', apiVersion: 'v1', subresource: '', namespace: '' };
    const authn = { apiGroup: authnGroup, apiVersion: 'v1', subresource: '', namespace: '' };
    let target: Pick<
      AuthorizationAttributes,
      'apiGroup' | 'apiVersion' | 'resource' | 'subresource' | 'namespace'
    >;
    switch (request.kind) {
      case 'ServiceAccount':
        target = { ...core, resource: 'serviceaccounts', namespace: request.namespace ?? '' };
        username = `system:serviceaccount:${request.namespace ?? ''}:${request.name}`;
        if (!groupsSpecified)
          groups = ['system:serviceaccounts', `system:serviceaccounts:${request.namespace ?? ''}`];
        break;
      case 'User':
        target = { ...core, resource: 'users' };
        username = request.name;
        break;
      case 'Group':
        target = { ...core, resource: 'groups' };
        groups.push(request.name);
        break;
      case 'UserExtra': {
        const key = request.field ?? '';
        target = { ...authn, resource: 'userextras', subresource: key };
        (extra[key] ??= []).push(request.name);
        break;
      }
      case 'UID':
        target = { ...authn, resource: 'uids' };
        uid = request.name;
        break;
    }
    const attributes: AuthorizationAttributes = {
      ...target,
      user: requester,
      verb: 'impersonate',
      resourceRequest: true,
      name: request.name,
      path: '',
    };
    let allowed = false;
    let why = '';
    try {
      const result = await authorizer.authorize(attributes);
      allowed = result.decision === 'Allow';
      // The real filter's 403 carries the authorizer's reason (RBAC: a missing role), as the authorization filter's.
      why = result.reason;
    } catch {
      // The real filter refuses on an authorizer error too, without its text.
    }
    if (!allowed) throw forbiddenImpersonation(attributes, why);
  }

  if (username !== 'system:anonymous') {
    if (!groups.some((g) => g === 'system:authenticated' || g === 'system:unauthenticated')) {
      groups.push('system:authenticated');
    }
  } else if (!groups.includes('system:unauthenticated')) {
    groups.push('system:unauthenticated');
  }

  const user: UserInfo = { username, groups, extra };
  if (uid !== '') user.uid = uid;
  const stripHeaders = [
    impersonateUserHeader,
    impersonateGroupHeader,
    impersonateUidHeader,
    ...extraHeaderNames(headers),
  ];
  return { user, stripHeaders };
}
