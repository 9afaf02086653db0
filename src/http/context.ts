/**
 * The per-request context every stage reads and adds to: the parsed URL and
 * request info, the authenticated user, the negotiated output, the warnings
 * to send, and a unique audit id.
 */

import type { UserInfo } from '../api/authn';
import type { ConnectionInfo } from '../api/connection';
import type { Explanation } from '../api/explain';
import type { AdmissionTrace, AuditAnnotations, Warnings } from '../registry/rest/scope';
import type { RequestInfo } from './request-info';
import { parseGoBool } from '../machinery/query-bool';
import type { OutputFormat } from './negotiate';

export interface RequestContext {
  request: Request;
  url: URL;
  query: URLSearchParams;
  info: RequestInfo;
  user: UserInfo;
  /** Items for the `Warning` response header (code 299). */
  warnings: Warnings;
  /** The request's unique id (Audit-Id header, AdmissionReview request.uid). */
  auditId: string;
  /** Where admission records its decisions for this request (absent: not traced). */
  trace?: AdmissionTrace;
  /** Annotations for the request's audit event (admission adds them). */
  auditAnnotations?: AuditAnnotations;
  /** What the host knows of the connection (TLS peer certificates). */
  conn?: ConnectionInfo;
  /** Why the request was refused (401, 403), sent beside the Status for learners (see api/explain.ts). */
  explanation?: Explanation;
  now: Date;
  /** Output format once negotiated (resource requests). */
  output?: OutputFormat;
  /** Pretty-printed JSON (`?pretty`, or a curl/browser user agent as the real server does). */
  pretty: boolean;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
  /**
   * Set once routing found the storage of a served resource (or subresource): only such requests are
   * counted in the request metrics, as the real server instruments its installed routes only — so
   * neither a made-up path nor a refusal before routing (401, 403) adds label values.
   */
  routed?: boolean;
}

/** `?pretty=<bool>` as strconv.ParseBool reads it (unparsable is false); without a value, a curl or browser user agent. */
export function wantsPretty(query: URLSearchParams, userAgent: string | null): boolean {
  const pretty = query.get('pretty') ?? '';
  if (pretty !== '') return parseGoBool(pretty) === true;
  const ua = userAgent ?? '';
  return ua.startsWith('curl') || ua.startsWith('Wget') || ua.startsWith('Mozilla/5.0');
}
