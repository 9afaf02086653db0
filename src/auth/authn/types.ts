/**
 * The authenticator interfaces: a request authenticator looks at the
 * request and its connection and names the user, or has no opinion (so the
 * next one is asked); a token authenticator answers for a bearer token, and
 * also serves TokenReview. Each authentication method is one file in this
 * folder implementing one of them.
 */

import type { UserInfo } from '../../api/authn';
import type { ConnectionInfo } from '../../api/connection';

export interface TokenAuthentication {
  user: UserInfo;
  /** The audiences the token is valid for (those of the request, when the token is audience-bound). */
  audiences: string[];
}

export interface TokenAuthenticator {
  /** The token's user, or undefined when this authenticator does not know it. Throws for a token it rejects. */
  authenticateToken(token: string, audiences?: readonly string[]): Promise<TokenAuthentication | undefined>;
}

export interface RequestAuthenticator {
  authenticate(request: Request, conn: ConnectionInfo | undefined): Promise<UserInfo | undefined>;
}
