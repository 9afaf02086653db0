/**
 * The console's answer: status line and time, every response header
 * (Warning, Retry-After and Content-Type highlighted, as they carry the
 * lessons), and the body as received.
 */

import { parseWarnings } from '../../client/index';
import { CodeBlock } from '../common/CodeBlock';
import { ErrorNotice } from '../common/ErrorNotice';
import { WarningList } from '../common/WarningList';
import { useLoggedRequests } from '../app/RequestLogContext';
import { TraceLink } from '../trace/TraceLink';
import { auditIdOf } from '../trace/trace-model';
import type { ConsoleAnswer } from './useConsoleRequest';

const highlighted = new Set(['warning', 'retry-after', 'content-type']);

// Responses made in a service worker carry no reason phrase; these are HTTP's own.
const reasons: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  410: 'Gone',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export function ResponseView({ answer, error }: { answer: ConsoleAnswer | undefined; error: unknown }) {
  const logged = useLoggedRequests();
  if (error !== undefined) return <ErrorNotice title="No answer" error={error} />;
  if (answer === undefined) return null;
  const ok = answer.status < 400;
  // The request log knows the method of the answer with this Audit-Id: only writes have a trace.
  const auditId = auditIdOf(answer.headers);
  const method = logged.find(
    (entry) => auditId !== undefined && auditIdOf(entry.responseHeaders) === auditId,
  )?.method;
  return (
    <section className="response" aria-label="Response">
      <p className="status-line">
        <span className={`status-code ${ok ? 'ok' : 'failed'}`}>
          {answer.status} {answer.statusText || (reasons[answer.status] ?? '')}
        </span>{' '}
        <span className="muted">{answer.durationMs.toFixed(0)} ms</span>
        {answer.streaming ? (
          <span className="live-status live-live">
            <span className="live-dot" aria-hidden="true" /> streaming
          </span>
        ) : null}
        <TraceLink auditId={auditId} method={method} />
      </p>
      <table className="headers">
        <caption>Response headers</caption>
        <tbody>
          {answer.headers.map(([name, value], i) => (
            <tr
              key={`${name}-${i}`}
              className={highlighted.has(name.toLowerCase()) ? 'highlight' : undefined}
            >
              <th scope="row">{name}</th>
              <td>{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <WarningList
        warnings={parseWarnings(
          answer.headers
            .filter(([n]) => n.toLowerCase() === 'warning')
            .map(([, v]) => v)
            .join(', ') || null,
        )}
      />
      <CodeBlock
        text={answer.body === '' ? '(empty body)' : answer.body}
        label="Response body"
        className="response-body"
      />
    </section>
  );
}
