/**
 * Bearer tokens: reads `Authorization: Bearer <token>` and asks a token
 * authenticator who it belongs to. A header that is not a bearer
 * credential is no credential (the request falls to the next
 * authenticator); a bearer token nobody knows is 401 Unauthorized.
 */

import type { UserInfo } from '../../api/authn';
import { StatusError } from '../../machinery/errors';
import type { RequestAuthenticator, TokenAuthenticator } from './types';

export function bearerTokenAuthenticator(tokens: TokenAuthenticator): RequestAuthenticator {
  return {
    async authenticate(request): Promise<UserInfo | undefined> {
      const header = request.headers.get('authorization') ?? '';
      const match = /^Bearer (\S+)$/i.exec(header.trim());
      if (match === null) return undefined;
      const found = await tokens.authenticateToken(match[1] ?? '');
      if (found === undefined) throw new StatusError(401, 'Unauthorized', 'Unauthorized');
      return found.user;
    },
  };
}
