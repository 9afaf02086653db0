/**
 * Client-certificate authentication (`--client-ca-file`): the connection's
 * peer certificate chain (from the Node host's TLS, or from a verified
 * proof of possession in the browser host) must verify to one of the
 * configured roots for client authentication; then the subject's common
 * name is the user and each organization a group. No certificate, or a
 * verified one without a common name, is no credential (the next
 * authenticator is asked); a certificate that does not verify is a 401
 * whose reason is the real server's log line.
 */

import type { UserInfo } from '../../api/authn';
import type { ConnectionInfo } from '../../api/connection';
import { certificateIdentifier, parseRoots, verifyChain } from '../pki/verify';
import { x509Library, type X509Certificate } from '../pki/x509';
import { AuthenticationRejected } from './rejection';
import type { RequestAuthenticator } from './types';

export interface X509AuthenticatorOptions {
  /**
   * `--client-ca-file` contents (PEM bundle), or how to get them: the server's bundle holds the cluster CA,
   * which a fresh store creates only when first needed.
   */
  clientCA: string | (() => Promise<string>);
  now?: () => Date;
}

/** The user a verified client certificate names: CN the user, each O a group. */
export function userFromCertificate(cert: X509Certificate): UserInfo | undefined {
  const username = cert.subjectName.getField('CN')[0] ?? '';
  if (username === '') return undefined;
  return { username, groups: cert.subjectName.getField('O') };
}

/** How long a verified chain is trusted without verifying it again (never past the leaf's notAfter). */
const verifiedTTLms = 60_000;
const maxCached = 1024;

/** A chain's identity for the cache: its DER bytes, in order. */
function chainKey(chain: readonly Uint8Array[]): string {
  let key = '';
  for (const der of chain) {
    key += `${der.length}:`;
    for (let i = 0; i < der.length; i++) key += String.fromCharCode(der[i] ?? 0);
  }
  return key;
}

export function x509Authenticator(options: X509AuthenticatorOptions): RequestAuthenticator {
  // Parsed on the first presented certificate: the X.509 library (and the cluster CA) are loaded only for
  // requests that carry one.
  let roots: Promise<X509Certificate[]> | undefined;
  const loadRoots = async (): Promise<X509Certificate[]> => {
    const bundle = typeof options.clientCA === 'string' ? options.clientCA : await options.clientCA();
    await x509Library.load();
    return parseRoots(bundle);
  };
  const now = options.now ?? (() => new Date());
  // Verifying a chain costs signature checks on every request; a chain that verified is trusted for a minute
  // (bounded by its validity), the way a TLS session is. Failures are never cached.
  const verified = new Map<string, { user: UserInfo | undefined; until: number }>();
  return {
    declinesAtOnce: (_request, conn) => (conn?.peerCertificates?.length ?? 0) === 0,
    async authenticate(_request: Request, conn: ConnectionInfo | undefined): Promise<UserInfo | undefined> {
      const presented = conn?.peerCertificates;
      if (presented === undefined || presented.length === 0) return undefined;
      const key = chainKey(presented);
      const at = now().getTime();
      const hit = verified.get(key);
      if (hit !== undefined && hit.until > at) return hit.user;
      const pending = (roots ??= loadRoots());
      // A failed load (the library could not be fetched) is tried again by the next request.
      pending.catch(() => {
        if (roots === pending) roots = undefined;
      });
      const result = await verifyChain(presented, await pending, now(), 'client');
      if (!result.ok) {
        const who = result.leaf !== undefined ? `${certificateIdentifier(result.leaf)} ` : '';
        throw new AuthenticationRejected('x509', `verifying certificate ${who}failed: ${result.reason}`);
      }
      const leaf = result.chain[0];
      const user = leaf === undefined ? undefined : userFromCertificate(leaf);
      if (verified.size >= maxCached) verified.clear();
      verified.set(key, { user, until: Math.min(at + verifiedTTLms, leaf?.notAfter.getTime() ?? at) });
      return user;
    },
  };
}
