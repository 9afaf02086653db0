/**
 * Shows a failure. For an API error it shows what the server's Status says
 * (reason, code, message), because learning to read those is the point of
 * the sandbox.
 */

import { ApiError } from '../../client/index';

export function ErrorNotice({ title, error }: { title: string; error: unknown }) {
  return (
    <div className="error" role="alert">
      <strong>{title}</strong>
      <p>{describe(error)}</p>
    </div>
  );
}

function describe(error: unknown): string {
  if (error instanceof ApiError) {
    const reason = error.reason === undefined ? '' : `${error.reason}, `;
    return `${error.message} (${reason}HTTP ${error.code})`;
  }
  return error instanceof Error ? error.message : String(error);
}
