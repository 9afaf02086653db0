/**
 * Tokens known to the server from the start: the admin tokens a host hands
 * in (the Node host writes one into its kubeconfig) and the loopback tokens
 * the server mints at start for its own controllers, each mapped to a fixed
 * identity — the real server's token file and loopback authenticators.
 */

import type { UserInfo } from '../../api/authn';
import type { TokenAuthentication, TokenAuthenticator } from './types';

export class StaticTokens implements TokenAuthenticator {
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

  async authenticateToken(token: string): Promise<TokenAuthentication | undefined> {
    const user = this.users.get(token);
    return user === undefined ? undefined : { user, audiences: [] };
  }
}
