/**
 * Shows a failure. For an API error it shows what the server's Status says
 * (reason, code, message, causes) and any Warning headers, because learning
 * to read those is the point of the sandbox.
 */

import { ApiError } from '../../client/index';

export function ErrorNotice({ title, error }: { title: string; error: unknown }) {
  const causes = error instanceof ApiError ? (error.status.details?.causes ?? []) : [];
  return (
    <div className="error" role="alert">
      <strong>{title}</strong>
      <p>{describe(error)}</p>
      {causes.length > 0 ? (
        <ul className="causes">
          {causes.map((cause, i) => (
            <li key={i}>
              {cause.field !== undefined ? <code>{cause.field}</code> : null} {cause.message}
              {cause.reason !== undefined ? <span className="muted"> ({cause.reason})</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

export function describe(error: unknown): string {
  if (error instanceof ApiError) {
    const reason = error.reason === undefined ? '' : `${error.reason}, `;
    return `${error.message} (${reason}HTTP ${error.code})`;
  }
  return error instanceof Error ? error.message : String(error);
}
