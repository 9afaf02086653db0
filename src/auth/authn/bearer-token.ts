/**
 * Where a bearer token comes from: the `Authorization: Bearer <token>`
 * header, or for a WebSocket upgrade the `Sec-WebSocket-Protocol` entry
 * `base64url.bearer.authorization.<group suffix>.<token>` (browsers cannot
 * set headers on WebSockets). Parsing follows the real server: a header that
 * is not a bearer credential (`Basic …`, a bare `Bearer`) is no credential;
 * only the second space-separated word is the token, so `Bearer  x` (two
 * spaces) carries none and earns a warning; a bearer token nobody accepts
 * is 401.
 */

import type { UserInfo } from '../../api/authn';
import { StatusError } from '../../machinery/errors';
import type { NamingProfile } from '../../machinery/naming';
import { reviewWith } from './union';
import type { ExplainingRequestAuthenticator, RequestVerdict, TokenAuthenticator } from './types';

export const extraSpaceWarning =
  'the provided Authorization header contains extra space before the bearer token, and is ignored';

/** The real bearer authenticator's default failure, when no token authenticator said more. */
export const invalidBearerTokenMessage = 'invalid bearer token';

export interface BearerCredential {
  /** The token, or undefined when the header carries no bearer credential. */
  token?: string;
  /** Why there is none (for explanations). */
  reason?: string;
  warning?: string;
}

/** Reads `Authorization` as the real server does (split on single spaces, at most three parts). */
export function parseAuthorizationHeader(header: string | null): BearerCredential {
  const auth = (header ?? '').trim();
  if (auth === '') return { reason: 'no Authorization header' };
  const space = auth.indexOf(' ');
  const scheme = space < 0 ? auth : auth.slice(0, space);
  if (space < 0 && scheme.toLowerCase() === 'bearer')
    return { reason: 'the Authorization header carries no token' };
  if (space < 0 || scheme.toLowerCase() !== 'bearer') {
    return { reason: `the Authorization header is not a bearer credential (scheme "${scheme}")` };
  }
  const rest = auth.slice(space + 1);
  const next = rest.indexOf(' ');
  const token = next < 0 ? rest : rest.slice(0, next);
  if (token === '') {
    // Only "Bearer  x" (a third part after an empty token) earns the warning; the real filter ignores it.
    if (next >= 0) return { reason: extraSpaceWarning, warning: extraSpaceWarning };
    return { reason: 'the bearer token is empty' };
  }
  return { token };
}

/** The WebSocket subprotocol prefix that carries a bearer token, profile-named. */
export function webSocketBearerPrefix(profile: NamingProfile): string {
  return `base64url.bearer.authorization.${profile.groupSuffix}.`;
}

function isWebSocketUpgrade(request: Request): boolean {
  const connection = (request.headers.get('connection') ?? '').toLowerCase().split(',');
  return (
    connection.some((t) => t.trim() === 'upgrade') &&
    (request.headers.get('upgrade') ?? '').toLowerCase() === 'websocket'
  );
}

function decodeBase64Url(text: string): string | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined;
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

/**
 * The token in a WebSocket upgrade's subprotocols. Throws (a 401) for a
 * malformed one, as the real protocol authenticator errors.
 */
export function parseWebSocketProtocols(request: Request, profile: NamingProfile): BearerCredential {
  if (!isWebSocketUpgrade(request)) return { reason: 'not a WebSocket upgrade' };
  const prefix = webSocketBearerPrefix(profile);
  const protocols = (request.headers.get('sec-websocket-protocol') ?? '').split(',').map((p) => p.trim());
  const carrying = protocols.filter((p) => p.startsWith(prefix));
  if (carrying.length === 0) return { reason: 'no bearer subprotocol' };
  if (carrying.length > 1) throw new Error('multiple base64.bearer.authorization tokens specified');
  const token = decodeBase64Url((carrying[0] ?? '').slice(prefix.length));
  if (token === undefined) throw new Error('invalid base64.bearer.authorization token encoding');
  if (token === '') return { reason: 'the bearer subprotocol is empty' };
  // One other subprotocol must remain for the server to echo back.
  if (protocols.length === carrying.length) throw new Error('missing additional subprotocol');
  return { token };
}

/**
 * A request authenticator over one token authenticator (kept for callers
 * that need only the header; the chain asks the union directly to explain
 * each attempt).
 */
export function bearerTokenAuthenticator(tokens: TokenAuthenticator): ExplainingRequestAuthenticator {
  const review = async (request: Request): Promise<RequestVerdict> => {
    const credential = parseAuthorizationHeader(request.headers.get('authorization'));
    if (credential.token === undefined) {
      return { kind: 'declined', result: 'no-credential', reason: credential.reason ?? '' };
    }
    const verdict = await reviewWith(tokens, credential.token);
    if (verdict.kind === 'accepted') return { kind: 'accepted', user: verdict.authentication.user };
    if (verdict.kind === 'failed') return verdict;
    return {
      kind: 'failed',
      result: 'rejected',
      error: new Error(invalidBearerTokenMessage),
      reason: verdict.reason,
    };
  };
  return {
    reviewRequest: review,
    async authenticate(request): Promise<UserInfo | undefined> {
      const verdict = await review(request);
      if (verdict.kind === 'accepted') return verdict.user;
      if (verdict.kind === 'failed') throw new StatusError(401, 'Unauthorized', 'Unauthorized');
      return undefined;
    },
  };
}
