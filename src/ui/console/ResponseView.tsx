/**
 * The console's answer: status line and time, every response header
 * (Warning, Retry-After and Content-Type highlighted, as they carry the
 * lessons), and the body as received.
 */

import { CodeBlock } from '../common/CodeBlock';
import { ErrorNotice } from '../common/ErrorNotice';
import type { ConsoleAnswer } from './useConsoleRequest';

const highlighted = new Set(['warning', 'retry-after', 'content-type']);

export function ResponseView({ answer, error }: { answer: ConsoleAnswer | undefined; error: unknown }) {
  if (error !== undefined) return <ErrorNotice title="No answer" error={error} />;
  if (answer === undefined) return null;
  const ok = answer.status < 400;
  return (
    <section className="response" aria-label="Response">
      <p className="status-line">
        <span className={`status-code ${ok ? 'ok' : 'failed'}`}>
          {answer.status} {answer.statusText}
        </span>{' '}
        <span className="muted">{answer.durationMs.toFixed(0)} ms</span>
        {answer.streaming ? <span className="live-status live-live"><span className="live-dot" aria-hidden="true" /> streaming</span> : null}
      </p>
      <table className="headers">
        <caption>Response headers</caption>
        <tbody>
          {answer.headers.map(([name, value], i) => (
            <tr key={`${name}-${i}`} className={highlighted.has(name.toLowerCase()) ? 'highlight' : undefined}>
              <th scope="row">{name}</th>
              <td>{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <CodeBlock text={answer.body === '' ? '(empty body)' : answer.body} label="Response body" className="response-body" />
    </section>
  );
}
