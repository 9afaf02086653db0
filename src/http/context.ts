/**
 * The per-request context every stage reads and adds to: the parsed URL and
 * request info, the authenticated user, the negotiated output, the warnings
 * to send, and a unique audit id.
 */

import type { UserInfo } from '../api/authn';
import type { RequestInfo } from './request-info';
import type { OutputFormat } from './negotiate';

export interface RequestContext {
  request: Request;
  url: URL;
  query: URLSearchParams;
  info: RequestInfo;
  user: UserInfo;
  /** Items for the `Warning` response header (code 299). */
  warnings: string[];
  auditId: string;
  now: Date;
  /** Output format once negotiated (resource requests). */
  output?: OutputFormat;
  /** Pretty-printed JSON (`?pretty`, or a curl/browser user agent as the real server does). */
  pretty: boolean;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
}

export function wantsPretty(query: URLSearchParams, userAgent: string | null): boolean {
  if (query.has('pretty')) {
    const v = (query.get('pretty') ?? '').toLowerCase();
    return v !== 'false' && v !== '0';
  }
  const ua = userAgent ?? '';
  return ua.startsWith('curl') || ua.startsWith('Wget') || ua.startsWith('Mozilla/5.0');
}
