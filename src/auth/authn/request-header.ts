/**
 * The authenticating proxy (front proxy): an HTTP proxy in front of the
 * server authenticates users its own way and passes the identity in
 * headers. Those headers are believed only from the proxy: before any is
 * read, the connection's client certificate must verify (for client
 * authentication) against `--requestheader-client-ca-file` and, when
 * `--requestheader-allowed-names` is set, carry one of those common names.
 * Then the first non-empty username header names the user, every value of
 * every group header is a group, and each header starting with an extra
 * prefix adds its value under the rest of its name (lowercased,
 * percent-decoded). On success the identity headers are removed from the
 * request so nothing downstream mistakes them for the client's own.
 */

import type { UserInfo } from '../../api/authn';
import type { ConnectionInfo } from '../../api/connection';
import type { RequestHeaderConfig } from './config';
import { parseRoots, verifyChain } from '../pki/verify';
import { x509Library, type X509Certificate } from '../pki/x509';
import { AuthenticationRejected } from './rejection';
import type { RequestAuthenticator } from './types';

export interface RequestHeaderAuthenticatorOptions {
  now?: () => Date;
}

/**
 * The values of a header. Fetch joins repeated headers with `, `, so that
 * separator splits them back (a single value with a bare comma, like
 * `a,b`, stays whole, as the real server keeps it).
 */
function headerValues(headers: Headers, name: string): string[] {
  const joined = headers.get(name);
  if (joined === null) return [];
  return joined.split(', ');
}

/** Percent-decoding as Go's `url.PathUnescape`; an undecodable key is kept as it is. */
function unescapeExtraKey(key: string): string {
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}

/**
 * Removes the identity headers. Requests built with `new Request` have
 * mutable headers; a request whose headers are immutable (one straight
 * from a service worker's fetch event) cannot be changed in place, so the
 * browser host must hand the server a `new Request(event.request)` copy —
 * there the failure is swallowed rather than failing an authenticated
 * request.
 */
function clearIdentityHeaders(request: Request, config: RequestHeaderConfig): void {
  const prefixes = (config.extraHeaderPrefixes ?? []).map((p) => p.toLowerCase());
  const names = [...config.usernameHeaders, ...(config.groupHeaders ?? [])].map((n) => n.toLowerCase());
  request.headers.forEach((_value, name) => {
    if (prefixes.some((p) => name.startsWith(p))) names.push(name);
  });
  try {
    for (const name of names) request.headers.delete(name);
  } catch {
    // immutable headers: see above
  }
}

export function requestHeaderAuthenticator(
  config: RequestHeaderConfig,
  options: RequestHeaderAuthenticatorOptions = {},
): RequestAuthenticator {
  // Parsed on the first presented certificate: the X.509 library is loaded only for requests that carry one.
  let roots: X509Certificate[] | undefined;
  const allowed = config.allowedNames ?? [];
  const now = options.now ?? (() => new Date());
  return {
    declinesAtOnce: (_request, conn) => (conn?.peerCertificates?.length ?? 0) === 0,
    async authenticate(request: Request, conn: ConnectionInfo | undefined): Promise<UserInfo | undefined> {
      const presented = conn?.peerCertificates;
      if (presented === undefined || presented.length === 0) return undefined;
      await x509Library.load();
      roots ??= parseRoots(config.clientCA);
      const verified = await verifyChain(presented, roots, now(), 'client');
      if (!verified.ok) throw new AuthenticationRejected('requestheader', verified.reason);
      const cn = verified.chain[0]?.subjectName.getField('CN')[0] ?? '';
      if (allowed.length > 0 && !allowed.includes(cn)) {
        throw new AuthenticationRejected(
          'requestheader',
          `x509: subject with cn=${cn} is not in the allowed list`,
        );
      }

      const username = config.usernameHeaders
        .map((name) => request.headers.get(name) ?? '')
        .find((value) => value.length > 0);
      if (username === undefined) return undefined;
      // Fetch joins repeated headers; the first value is what Go's Header.Get returns.
      const user: UserInfo = { username: username.split(', ')[0] ?? username, groups: [] };
      for (const name of config.groupHeaders ?? []) user.groups.push(...headerValues(request.headers, name));
      const extra: Record<string, string[]> = {};
      for (const prefix of config.extraHeaderPrefixes ?? []) {
        const lower = prefix.toLowerCase();
        request.headers.forEach((value, name) => {
          if (!name.startsWith(lower)) return;
          const key = unescapeExtraKey(name.slice(lower.length).toLowerCase());
          (extra[key] ??= []).push(...value.split(', '));
        });
      }
      if (Object.keys(extra).length > 0) user.extra = extra;
      clearIdentityHeaders(request, config);
      return user;
    },
  };
}
