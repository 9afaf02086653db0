/**
 * Shows a failure. For an API error it shows what the server's Status says
 * (message, reason, code, and the causes the message does not already
 * spell out) and, under it, one short explanation from the table in
 * lib/explanations.ts: the rule, what to do next, and a link to the spec
 * section that states it. The server's own text always stays visible,
 * because learning to read it is the point of the sandbox; the explanation
 * only helps to read it. `source` is the text that was sent, when the
 * caller has it, so an explanation can quote the offending line. A
 * refused write that reached admission (dry run or not) links to its
 * admission trace by the answer's Audit-Id; a 401/403 from authentication
 * or authorization (the sandbox explains those itself) never got that far.
 */

import { lazy, Suspense, useEffect, useRef } from 'react';
import { ApiError } from '../../client/index';
import { explain, specLinkText, type Excerpt, type Problem } from '../lib/explanations';
import { routeHref } from '../lib/route';
import { TraceLink } from '../trace/TraceLink';
import { isWrite } from '../trace/audit-id';

// A 401/403's panel is not part of a first screen as the admin: loaded on first use, or after the first screen
// (`preloadAccessExplanation`), so that a refusal later finds it loaded. Until then the table's Why/Next stand in.
const loadAccessExplanation = () => import('../identity/AccessExplanation');
const AccessExplanation = lazy(() => loadAccessExplanation().then((m) => ({ default: m.AccessExplanation })));

/** Fetches the access explanation's code ahead of its first use. */
export function preloadAccessExplanation(): void {
  void loadAccessExplanation().catch(() => undefined);
}

export function ErrorNotice({
  title,
  error,
  source,
  reveal = true,
}: {
  title: string;
  error: unknown;
  source?: string;
  /**
   * Scroll the notice into view when it appears (an answer to what the learner just did). False for a
   * list or read that fails by itself, which must not move the page under the learner.
   */
  reveal?: boolean;
}) {
  const problem = problemOf(error);
  const explanation = explain(problem, source);
  const causes = (problem.causes ?? []).filter(
    // A cause the message already holds word for word would only repeat it.
    (cause) => !problem.message.includes(`${cause.field ?? ''}: ${cause.message ?? ''}`),
  );
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // Errors appear under the form that caused them, often below the fold at 1280×720: bring them into view.
    if (reveal) box.current?.scrollIntoView?.({ block: 'nearest' });
  }, [error, reveal]);
  const access = error instanceof ApiError ? error.explanation : undefined;
  const why =
    explanation === undefined ? null : (
      <div className="explanation">
        <p>
          <span className="explanation-label">Why</span> <Rich text={explanation.rule} />
        </p>
        {explanation.excerpt !== undefined ? <ExcerptLine excerpt={explanation.excerpt} /> : null}
        <p>
          <span className="explanation-label">Next</span> <Rich text={explanation.next} />
        </p>
        <p>
          <a href={routeHref('spec', { section: explanation.spec })}>{specLinkText(explanation.spec)}</a>
        </p>
      </div>
    );
  return (
    <div className="error" role="alert" ref={box} data-explanation={explanation?.id}>
      <strong>{title}</strong>
      <p className="error-message">
        {problem.message}
        {error instanceof ApiError ? (
          <span className="muted">
            {' '}
            ({error.reason === undefined ? '' : `${error.reason}, `}HTTP {error.code})
          </span>
        ) : null}
      </p>
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
      {access === undefined ? (
        <>
          {why}
          {traceOf(error) !== undefined ? (
            <p>
              <TraceLink auditId={traceOf(error)} />
            </p>
          ) : null}
        </>
      ) : (
        // A 401 or 403: the sandbox says why (X-Sandbox-Explain); a 403 leads with the fix and folds the rest.
        <Suspense fallback={why}>
          <AccessExplanation explanation={access} why={why} />
        </Suspense>
      )}
    </div>
  );
}

/** The Audit-Id of a refused write's admission trace, when it has one. */
export function traceOf(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || error.explanation !== undefined) return undefined;
  const { method, auditId } = error.request;
  return method !== undefined && isWrite(method) ? auditId : undefined;
}

/** What the explanation table reads from any error: the Status of an API error, else the message. */
export function problemOf(error: unknown): Problem {
  if (error instanceof ApiError) {
    const { status } = error;
    return {
      code: error.code,
      message: error.message,
      ...(status.reason === undefined ? {} : { reason: status.reason }),
      ...(status.details?.causes === undefined ? {} : { causes: status.details.causes }),
      ...(status.details === undefined
        ? {}
        : { details: { kind: status.details.kind, name: status.details.name } }),
    };
  }
  return { message: error instanceof Error ? error.message : String(error) };
}

export function describe(error: unknown): string {
  if (error instanceof ApiError) {
    const reason = error.reason === undefined ? '' : `${error.reason}, `;
    return `${error.message} (${reason}HTTP ${error.code})`;
  }
  return error instanceof Error ? error.message : String(error);
}

/** Explanation text with `code` in backticks. */
function Rich({ text }: { text: string }) {
  return <>{text.split(/`([^`]*)`/).map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part))}</>;
}

function ExcerptLine({ excerpt }: { excerpt: Excerpt }) {
  const [start, end] = excerpt.mark ?? [excerpt.text.length, excerpt.text.length];
  return (
    <p className="excerpt">
      <span className="muted">{excerpt.caption}: </span>
      <code>
        {excerpt.text.slice(0, start)}
        {start < end ? <mark>{excerpt.text.slice(start, end)}</mark> : null}
        {excerpt.text.slice(end)}
      </code>
    </p>
  );
}
