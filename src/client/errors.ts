/**
 * The error the client throws for a non-2xx answer. It carries the server's
 * Status body as sent (reason, message, details, code), so callers branch on
 * `reason` the way API clients do rather than on HTTP status text.
 */

import type { Status, StatusReason } from '../api/meta';
import { parseWarnings } from './warnings';

export class ApiError extends Error {
  /** HTTP status code of the answer. */
  readonly code: number;
  /** The Status body, or one built from the HTTP status when the body was not a Status. */
  readonly status: Status;
  /** The texts of the answer's `Warning` header. */
  readonly warnings: string[];

  constructor(status: Status, warnings: string[] = []) {
    super(status.message ?? `request failed with HTTP ${status.code}`);
    this.name = 'ApiError';
    this.code = status.code;
    this.status = status;
    this.warnings = warnings;
  }

  get reason(): StatusReason | undefined {
    return this.status.reason;
  }
}

/** Builds the ApiError for a failed response, reading its body. */
export async function errorFromResponse(response: Response): Promise<ApiError> {
  const text = await response.text();
  const parsed = parseJson(text);
  const warnings = parseWarnings(response.headers.get('warning'));
  if (isStatus(parsed)) return new ApiError({ ...parsed, code: parsed.code || response.status }, warnings);
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
  );
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
