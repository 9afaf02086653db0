/**
 * The "open trace" link the request log, the editor's write result and the
 * console's answer show for a write: it opens the admission trace of the
 * answer's Audit-Id. Reads never reach admission, so they get no link.
 */

import { routeHref } from '../lib/route';
import { auditIdOf, isWrite } from './audit-id';

interface Props {
  /** The answer's headers (its `Audit-Id`), or the id itself. */
  headers?: readonly (readonly [string, string])[] | Headers | undefined;
  auditId?: string | undefined;
  /** The request's method; omitted when unknown (the link is then shown for any answer with an Audit-Id). */
  method?: string | undefined;
  className?: string;
}

export function TraceLink({ headers, auditId, method, className }: Props) {
  const id = auditId ?? auditIdOf(headers);
  if (id === undefined || id === '' || (method !== undefined && !isWrite(method))) return null;
  return (
    <a className={`trace-link ${className ?? ''}`} href={routeHref('traces', { id })}>
      Open admission trace
    </a>
  );
}
