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
  /**
   * True when `authenticate` would surely answer undefined (no credential of its kind: no certificate, no
   * proof), told without an async call; the chain then records the same decline without asking. Optional.
   */
  declinesAtOnce?(request: Request, conn: ConnectionInfo | undefined): boolean;
}

/**
 * An authenticator's answer with its reason, so the sandbox can explain
 * every 401. `declined` is the real server's "no opinion" (nothing reaches
 * the caller; `no-credential` when the credential was not of its kind,
 * `rejected` when it was but did not check out, e.g. a bootstrap token
 * whose secret differs); `failed` is an error the real union reports
 * (TokenReview shows it in `status.error`).
 */
export type TokenVerdict =
  | { kind: 'accepted'; authentication: TokenAuthentication }
  | { kind: 'declined'; result: 'no-credential' | 'rejected'; reason: string }
  | { kind: 'failed'; result: 'rejected' | 'error'; error: Error; reason?: string };

/** A token authenticator that can say why it did not accept a token (optional; plain ones are wrapped). */
export interface ExplainingTokenAuthenticator extends TokenAuthenticator {
  reviewToken(token: string, audiences?: readonly string[]): Promise<TokenVerdict>;
}

export type RequestVerdict =
  | { kind: 'accepted'; user: UserInfo; audiences?: string[] }
  | { kind: 'declined'; result: 'no-credential' | 'rejected'; reason: string }
  | { kind: 'failed'; result: 'rejected' | 'error'; error: Error; reason?: string };

/** A request authenticator that can say why it did not accept a request (optional; plain ones are wrapped). */
export interface ExplainingRequestAuthenticator extends RequestAuthenticator {
  reviewRequest(request: Request, conn: ConnectionInfo | undefined): Promise<RequestVerdict>;
}
