/**
 * cmdutil.AddSourceToErr: a server error about an object read from a file
 * names the file (`error when creating "cm.yaml": …`).
 */

import { ApiError } from '../../client';

export function addSourceToError(verb: string, source: string, error: unknown): unknown {
  if (source === '') return error;
  if (error instanceof ApiError)
    return new ApiError(
      { ...error.status, message: `error when ${verb} "${source}": ${error.status.message ?? ''}` },
      error.warnings,
      error.explanation,
    );
  return new Error(
    `error when ${verb} "${source}": ${error instanceof Error ? error.message : String(error)}`,
  );
}
