/**
 * Tokens known to the server from the start: the admin tokens a host hands
 * in (the Node host writes one into its kubeconfig) and the loopback tokens
 * the server mints at start for its own controllers, each mapped to a fixed
 * identity — the real server's loopback authenticator, which it asks before
 * any other.
 */

import type { UserInfo } from '../../api/authn';
import type { ExplainingTokenAuthenticator, TokenAuthentication, TokenVerdict } from './types';

export class StaticTokens implements ExplainingTokenAuthenticator {
  private readonly users = new Map<string, UserInfo>();

  /** Registers `token` for `user` (a later registration of the same token replaces it). */
  add(token: string, user: UserInfo): void {
    this.users.set(token, user);
  }

  /** Mints a random token for `user` (loopback identities). */
  mint(user: UserInfo): string {
    const bytes = crypto.getRandomValues(new Uint8Array(32));
    const token = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
    this.add(token, user);
    return token;
  }

  async reviewToken(token: string): Promise<TokenVerdict> {
    const user = this.users.get(token);
    if (user === undefined)
      return { kind: 'declined', result: 'no-credential', reason: 'not a loopback or admin token' };
    return { kind: 'accepted', authentication: { user, audiences: [] } };
  }

  async authenticateToken(token: string): Promise<TokenAuthentication | undefined> {
    const verdict = await this.reviewToken(token);
    return verdict.kind === 'accepted' ? verdict.authentication : undefined;
  }
}
