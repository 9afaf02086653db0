/**
 * Bootstrap tokens (`--enable-bootstrap-token-auth`): a token
 * `<id>.<secret>` is looked up as the Secret `bootstrap-token-<id>` in the
 * system namespace, of the profile's bootstrap token type. It authenticates
 * as `system:bootstrap:<id>` with group `system:bootstrappers` plus the
 * secret's `auth-extra-groups` (sorted, deduplicated) when the secret
 * matches, is marked for authentication and has not expired. Like the real
 * authenticator it never errors: every mismatch is "no opinion" (the caller
 * sees only `Unauthorized`), but the reason is kept for the explanation.
 */

import {
  bootstrapGroups,
  bootstrapSecretPrefix,
  bootstrapTokenExpired,
  bootstrapTokenPattern,
  bootstrapTokenSecretType,
  bootstrapUserPrefix,
  secretData,
} from '../../machinery/bootstrap-token';
import type { NamingProfile } from '../../machinery/naming';
import type { ObjectLister } from '../listers';
import type { ExplainingTokenAuthenticator, TokenAuthentication, TokenVerdict } from './types';

/** Compares without an early exit, so the time taken does not reveal how much of a secret matched. */
function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

export class BootstrapTokenAuthenticator implements ExplainingTokenAuthenticator {
  constructor(
    /** Secrets (the system namespace is read). */
    private readonly secrets: ObjectLister,
    private readonly profile: NamingProfile,
    private readonly now: () => number = Date.now,
  ) {}

  async reviewToken(token: string): Promise<TokenVerdict> {
    const match = bootstrapTokenPattern.exec(token);
    if (match === null) return declined('no-credential', 'not of the bootstrap token form <id>.<secret>');
    const [, id = '', tokenSecret = ''] = match;
    const name = `${bootstrapSecretPrefix}${id}`;
    const where = `secret ${this.profile.systemNamespace}/${name}`;
    const secret = this.secrets.get(this.profile.systemNamespace, name);
    if (secret === undefined) return declined('no-credential', `no ${where}`);
    if ((secret.metadata?.deletionTimestamp ?? null) !== null)
      return declined('rejected', `${where} is being deleted`);
    const type = bootstrapTokenSecretType(this.profile);
    if (secret['type'] !== type || secret['data'] === undefined || secret['data'] === null) {
      return declined('rejected', `${where} has invalid type, expected ${type}`);
    }
    if (!constantTimeEqual(secretData(secret, 'token-secret'), tokenSecret)) {
      return declined('rejected', `${where} holds a different token-secret`);
    }
    if (secretData(secret, 'token-id') !== id)
      return declined('rejected', `${where} has a different token-id`);
    if (bootstrapTokenExpired(secret, this.now())) {
      return declined('rejected', `${where} has expired (expiration ${secretData(secret, 'expiration')})`);
    }
    if (secretData(secret, 'usage-bootstrap-authentication') !== 'true') {
      return declined('rejected', `${where} is not marked usage-bootstrap-authentication=true`);
    }
    const groups = bootstrapGroups(secretData(secret, 'auth-extra-groups'));
    if (typeof groups === 'string')
      return declined('rejected', `${where} has invalid auth-extra-groups: ${groups}`);
    return {
      kind: 'accepted',
      authentication: { user: { username: `${bootstrapUserPrefix}${id}`, groups }, audiences: [] },
    };
  }

  async authenticateToken(token: string): Promise<TokenAuthentication | undefined> {
    const verdict = await this.reviewToken(token);
    return verdict.kind === 'accepted' ? verdict.authentication : undefined;
  }
}

function declined(result: 'no-credential' | 'rejected', reason: string): TokenVerdict {
  return { kind: 'declined', result, reason };
}
