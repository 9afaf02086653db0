/**
 * The error the client throws for a non-2xx answer. It carries the server's
 * Status body as sent (reason, message, details, code), so callers branch on
 * `reason` the way API clients do rather than on HTTP status text. For a
 * 401 or 403 from the sandbox it also carries the sandbox's explanation
 * (`X-Sandbox-Explain`): which authenticators said no, or which bindings
 * and rules authorization considered; real servers send no such header,
 * and then `explanation` is undefined. It also keeps the request's method
 * and the answer's `Audit-Id` (real servers send one too), so a refused
 * write can link to its admission trace.
 */

import type { Status, StatusReason } from '../api/meta';
import { explainHeader, type Explanation } from '../api/explain';
import { parseWarnings } from './warnings';

/** The sandbox's explanation header (see api/explain.ts). */
export const sandboxExplainHeader = explainHeader;

export class ApiError extends Error {
  /** HTTP status code of the answer. */
  readonly code: number;
  /** The Status body, or one built from the HTTP status when the body was not a Status. */
  readonly status: Status;
  /** The texts of the answer's `Warning` header. */
  readonly warnings: string[];
  /** Why a 401 or 403 happened, when the sandbox said (its `X-Sandbox-Explain` header). */
  readonly explanation: Explanation | undefined;
  /** The request that was refused: its method and the answer's `Audit-Id` (which names its admission trace). */
  readonly request: { method: string | undefined; auditId: string | undefined };

  constructor(
    status: Status,
    warnings: string[] = [],
    explanation?: Explanation,
    request: { method?: string; auditId?: string } = {},
  ) {
    super(status.message ?? `request failed with HTTP ${status.code}`);
    this.name = 'ApiError';
    this.code = status.code;
    this.status = status;
    this.warnings = warnings;
    this.explanation = explanation;
    this.request = { method: request.method, auditId: request.auditId };
  }

  get reason(): StatusReason | undefined {
    return this.status.reason;
  }
}

/** Builds the ApiError for a failed response, reading its body. */
export async function errorFromResponse(response: Response, method?: string): Promise<ApiError> {
  const text = await response.text();
  const parsed = parseJson(text);
  const warnings = parseWarnings(response.headers.get('warning'));
  const explanation = explanationFromHeaders(response.headers);
  const auditId = response.headers.get('audit-id') ?? undefined;
  const request = {
    ...(method === undefined ? {} : { method }),
    ...(auditId === undefined ? {} : { auditId }),
  };
  if (isStatus(parsed))
    return new ApiError({ ...parsed, code: parsed.code || response.status }, warnings, explanation, request);
  return new ApiError(
    {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      code: response.status,
      message: text.trim() !== '' ? text.trim() : `HTTP ${response.status} ${response.statusText}`.trim(),
    },
    warnings,
    explanation,
    request,
  );
}

/**
 * The sandbox's explanation of a 401 or 403 from its response headers, or
 * undefined when there is none or it does not parse (a real server, a proxy
 * that dropped it): the explanation only adds to the Status, so a bad one is
 * ignored rather than turned into a second error.
 */
export function explanationFromHeaders(headers: Headers): Explanation | undefined {
  const raw = headers.get(sandboxExplainHeader);
  if (raw === null || raw === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(decodeURIComponent(raw));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const kind = (value as { kind?: unknown }).kind;
  if (kind === 'authentication' && Array.isArray((value as { attempts?: unknown }).attempts))
    return value as Explanation;
  if (kind === 'authorization' && Array.isArray((value as { considered?: unknown }).considered))
    return value as Explanation;
  return undefined;
}

export function isStatus(value: unknown): value is Status {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'Status';
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
