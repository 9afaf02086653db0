/**
 * What a 409 from an apply offers: the conflicting fields with the
 * managers that own them, and the three ways out, each a button with the
 * exact request it sends: force (take the fields over), drop the fields
 * from this configuration (release them), or adopt the server's values
 * (share them).
 */

import type { StatusCause } from '../../api/meta';
import { CodeBlock } from '../common/CodeBlock';
import { withQuery } from '../../client/index';
import { describeRequest, type ApplyRequest } from './apply-request';

export interface Way {
  id: 'force' | 'drop' | 'adopt';
  title: string;
  explanation: string;
  request: ApplyRequest;
  /** The configuration the manager holds after choosing this way. */
  yaml: string;
}

interface Props {
  /** Marks the panel for LabView's scroll-into-view when the 409 arrives. */
  reveal: string;
  manager: string;
  causes: StatusCause[];
  ways: Way[];
  busy: boolean;
  onChoose: (way: Way) => void;
}

export function ConflictWays({ reveal, manager, causes, ways, busy, onChoose }: Props) {
  return (
    <section className="conflict" aria-label={`Conflict of ${manager}`} data-reveal={reveal}>
      <strong role="alert">409 Conflict: {manager}’s apply touches fields other managers own</strong>
      <ul className="causes">
        {causes.map((cause, i) => (
          <li key={i}>
            <code>{cause.field ?? '?'}</code> — {cause.message}{' '}
            <span className="muted">({cause.reason})</span>
          </li>
        ))}
      </ul>
      <p>Three ways out:</p>
      <div className="ways">
        {ways.map((way) => (
          <div className="way" key={way.id}>
            <button type="button" disabled={busy} onClick={() => onChoose(way)}>
              {way.title}
            </button>
            <p className="muted">{way.explanation}</p>
            <code className="request-line">
              {way.request.method} {withQuery(way.request.path, way.request.query)}
            </code>
            <details>
              <summary>Whole request</summary>
              <CodeBlock text={describeRequest(way.request)} label={`Request of ${way.title}`} />
            </details>
          </div>
        ))}
      </div>
    </section>
  );
}
