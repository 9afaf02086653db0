/**
 * One step of a lesson: what to do, links that open the views ready, who
 * to act as, its checks with their live state (and why one cannot read
 * what it names), hints on request, and "Show me", which does the step
 * through the app's client and lists what it sent; a refusal shows the
 * server's Status with its explanation, like every other error.
 */

import { useState } from 'react';
import type { LessonDocument, LessonStep, ViewLink } from '../../lessons/format';
import type { LessonHost } from '../../lessons/host';
import { stepIdentity, type LessonRun, type StepView } from '../../lessons/run';
import type { ShowMeResult } from '../../lessons/show-me';
import { ErrorNotice } from '../common/ErrorNotice';
import { useActingAs } from '../identity/IdentityContext';
import { routeHref, type ViewName } from '../lib/route';
import { LessonText } from './LessonText';

const checkMark = { pass: '✓', fail: '○', waiting: '…', error: '!' } as const;

export function StepCard({
  index,
  lesson,
  step,
  view,
  started,
  run,
  host,
}: {
  index: number;
  lesson: LessonDocument;
  step: LessonStep;
  view: StepView;
  started: boolean;
  run: LessonRun;
  host: LessonHost;
}) {
  const acting = useActingAs();
  const [showing, setShowing] = useState(false);
  const [result, setResult] = useState<ShowMeResult | undefined>(undefined);
  const [failure, setFailure] = useState<unknown>(undefined);
  const identity = stepIdentity(lesson, step);
  const declared = step.identity ?? lesson.start?.identity;

  async function showMe() {
    setShowing(true);
    setResult(undefined);
    setFailure(undefined);
    try {
      setResult(await run.showMe(step.id));
    } catch (e) {
      setFailure(e);
    } finally {
      setShowing(false);
    }
  }

  return (
    <li
      className={`lesson-step ${view.current ? 'lesson-step-current' : ''}`}
      data-step-state={view.done ? 'done' : 'pending'}
      aria-current={view.current ? 'step' : undefined}
      aria-labelledby={`step-${step.id}`}
    >
      <h3 id={`step-${step.id}`}>
        <span className="lesson-step-mark" aria-hidden="true">
          {view.done ? '✓' : index + 1}
        </span>{' '}
        {step.title}
        {view.done ? <span className="visually-hidden"> (done)</span> : null}
      </h3>
      <LessonText text={step.text} />
      {declared !== undefined ? (
        <p className="lesson-identity">
          Done as <strong>{declared}</strong>
          {acting?.name !== declared ? (
            <>
              {' '}
              (the app acts as {acting?.name ?? '…'}){' '}
              <button type="button" className="secondary small" onClick={() => host.actAs?.(declared)}>
                Act as {declared}
              </button>
            </>
          ) : null}
        </p>
      ) : null}
      {step.open !== undefined && step.open.length > 0 ? (
        <p className="lesson-links">
          {step.open.map((link, i) => (
            <a key={i} href={hrefOf(link)}>
              {link.label}
            </a>
          ))}
        </p>
      ) : null}
      {started && !view.done ? (
        <ul className="lesson-checks" aria-label={`Checks of step ${index + 1}`}>
          {view.checks.map((check, i) => (
            <li key={i} data-check-state={check.state}>
              <span aria-hidden="true">{checkMark[check.state]}</span> {check.description}
              {check.detail !== undefined && view.current ? (
                <span className="muted"> — {check.detail}</span>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {step.hints !== undefined && step.hints.length > 0 ? (
        <details className="lesson-hints">
          <summary>Hint{step.hints.length > 1 ? 's' : ''}</summary>
          {step.hints.map((hint, i) => (
            <LessonText key={i} text={hint} />
          ))}
        </details>
      ) : null}
      <div className="row">
        <button type="button" className="secondary" disabled={showing} onClick={() => void showMe()}>
          Show me
        </button>
        <span className="muted">sends the step’s requests as {identity}</span>
        {showing ? (
          <span role="status">
            <span className="spinner" aria-hidden="true" /> Sending…
          </span>
        ) : null}
      </div>
      {result !== undefined ? (
        <div className="lesson-sent" aria-label="What Show me sent">
          <ol>
            {result.sent.map((sent, i) => (
              <li key={i}>
                <code>
                  {sent.watch === true ? 'watch ' : ''}
                  {sent.method} {sent.path}
                </code>{' '}
                <span className="muted">
                  as {sent.as} → {sent.watch === true ? 'in the Watch inspector feed' : `HTTP ${sent.status}`}
                </span>
                {sent.body !== undefined ? (
                  <details>
                    <summary>Body ({sent.contentType})</summary>
                    <pre className="code-block">{sent.body}</pre>
                  </details>
                ) : null}
              </li>
            ))}
          </ol>
          {result.error !== undefined ? (
            <ErrorNotice title="Show me was refused" error={result.error} />
          ) : null}
        </div>
      ) : null}
      {failure !== undefined ? <ErrorNotice title="Show me failed" error={failure} /> : null}
    </li>
  );
}

/** Every view a lesson may link to is one of the app's routes (the format's names are a subset). */
function hrefOf(link: ViewLink): string {
  const view: ViewName = link.view;
  return routeHref(view, link.params ?? {});
}
