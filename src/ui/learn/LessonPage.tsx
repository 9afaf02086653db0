/**
 * One lesson (`#/learn/<id>`): its goal and sections with their spec
 * links, "Start lesson" (which says first what it would replace) and
 * "Reset lesson", and the steps, each checked live. The root carries
 * `data-lesson-state` (pending or done) for tests and for the eye.
 */

import { useState } from 'react';
import type { LessonDocument } from '../../lessons/format';
import type { LessonHost } from '../../lessons/host';
import { needsConfirmation, type StartPlan } from '../../lessons/start';
import { ErrorNotice } from '../common/ErrorNotice';
import { allSpecSections, anySpecLinkText, type AnySpecSectionId } from '../lib/spec-sections';
import { routeHref } from '../lib/route';
import { LessonText } from './LessonText';
import { StepCard } from './StepCard';
import { useLessonRun } from './useLessonRun';

type Busy = 'planning' | 'starting' | 'resetting' | undefined;

export function LessonPage({
  lesson,
  host,
  active,
}: {
  lesson: LessonDocument;
  host: LessonHost;
  active: boolean;
}) {
  const { run, state, loaded, error: loadError } = useLessonRun(lesson, host, active);
  const shown = run.lesson;
  const [busy, setBusy] = useState<Busy>(undefined);
  const [plan, setPlan] = useState<StartPlan | undefined>(undefined);
  const [confirmReset, setConfirmReset] = useState(false);
  const [error, setError] = useState<unknown>(undefined);

  async function act(kind: Busy, work: () => Promise<void>) {
    setBusy(kind);
    setError(undefined);
    try {
      await work();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(undefined);
    }
  }

  const start = () =>
    act('planning', async () => {
      const next = await run.plan();
      if (needsConfirmation(next)) {
        setPlan(next);
        return;
      }
      setBusy('starting');
      await run.start(next);
    });
  const startAnyway = (confirmed: StartPlan) =>
    act('starting', async () => {
      setPlan(undefined);
      await run.start(confirmed);
    });
  const reset = () =>
    act('resetting', async () => {
      setConfirmReset(false);
      await run.reset();
      const next = await run.plan();
      if (needsConfirmation(next)) setPlan(next);
      else await run.start(next);
    });

  const namespaces = shown.start?.namespaces ?? [];
  return (
    <article
      className="lesson"
      data-lesson-state={state.done ? 'done' : 'pending'}
      aria-labelledby="lesson-title"
    >
      <p className="lesson-crumbs">
        <a href={routeHref('learn')}>All lessons</a>
        {shown.part !== undefined ? <span className="muted"> › {shown.part}</span> : null}
      </p>
      <h2 id="lesson-title">
        {shown.title} {state.done ? <span className="learn-badge learn-badge-done">✓ done</span> : null}
      </h2>
      <p className="lesson-goal">
        <strong>Goal:</strong> {shown.goal}
        {shown.minutes !== undefined ? <span className="muted"> (about {shown.minutes} min)</span> : null}
      </p>
      {shown.sections.map((section, i) => (
        <section key={i} className="lesson-section">
          {section.title !== undefined ? <h3>{section.title}</h3> : null}
          <LessonText text={section.text} />
          {section.spec !== undefined && section.spec.length > 0 ? (
            <p className="lesson-spec">
              {section.spec.map((id) => (
                <a key={id} href={routeHref('spec', { section: id })}>
                  {id in allSpecSections ? anySpecLinkText(id as AnySpecSectionId) : `Spec: ${id}`}
                </a>
              ))}
            </p>
          ) : null}
        </section>
      ))}
      <div className="lesson-actions row">
        <button type="button" disabled={!loaded || busy !== undefined} onClick={() => void start()}>
          Start lesson
        </button>
        <button
          type="button"
          className="secondary"
          disabled={!loaded || busy !== undefined}
          onClick={() => setConfirmReset(true)}
        >
          Reset lesson
        </button>
        {busy !== undefined ? (
          <span role="status">
            <span className="spinner" aria-hidden="true" />{' '}
            {busy === 'planning'
              ? 'Looking at what exists…'
              : busy === 'starting'
                ? 'Preparing the lesson…'
                : 'Deleting what the lesson made…'}
          </span>
        ) : state.started ? (
          <span className="muted" role="status">
            Started{namespaces.length > 0 ? ` in ${namespaces.join(', ')}` : ''}: the steps are checked as you
            work.
          </span>
        ) : (
          <span className="muted">
            Start prepares{' '}
            {namespaces.length > 0
              ? `the namespace${namespaces.length > 1 ? 's' : ''} ${namespaces.join(', ')}`
              : 'the lesson'}{' '}
            and checks each step as you do it.
          </span>
        )}
      </div>
      {confirmReset ? (
        <div className="card lesson-confirm" role="region" aria-label="Reset the lesson">
          <p>
            Reset deletes what this lesson made
            {namespaces.length > 0
              ? ` (the namespace${namespaces.length > 1 ? 's' : ''} ${namespaces.join(', ')} with everything in ${namespaces.length > 1 ? 'them' : 'it'}`
              : ''}
            {(shown.cleanup ?? []).length > 0
              ? `, and ${(shown.cleanup ?? []).map((c) => `${c.resource}/${c.name}`).join(', ')}`
              : ''}
            {namespaces.length > 0 ? ')' : ''}, forgets its progress and starts it again.
          </p>
          <div className="row">
            <button type="button" onClick={() => void reset()}>
              Yes, reset the lesson
            </button>
            <button type="button" className="secondary" onClick={() => setConfirmReset(false)}>
              Cancel
            </button>
          </div>
        </div>
      ) : null}
      {plan !== undefined ? (
        <div className="card lesson-confirm" role="region" aria-label="Start needs your yes">
          <p>Starting this lesson changes what exists already:</p>
          <ul>
            {plan.replace.map((r) => (
              <li key={`${r.ref.resource}/${r.ref.namespace ?? ''}/${r.ref.name}`}>
                replace {r.object.kind}{' '}
                <code>
                  {r.ref.namespace !== undefined ? `${r.ref.namespace}/` : ''}
                  {r.ref.name}
                </code>
                , which differs from the lesson’s
              </li>
            ))}
            {plan.enablePlugins.length > 0 ? (
              <li>
                turn on the admission plugin{plan.enablePlugins.length > 1 ? 's' : ''}{' '}
                {plan.enablePlugins.join(', ')} for the whole sandbox
              </li>
            ) : null}
          </ul>
          <div className="row">
            <button type="button" onClick={() => void startAnyway(plan)}>
              Replace and start
            </button>
            <button type="button" className="secondary" onClick={() => setPlan(undefined)}>
              Cancel
            </button>
          </div>
        </div>
      ) : null}
      {loadError !== undefined ? (
        <ErrorNotice title="The lesson could not be loaded" error={loadError} />
      ) : null}
      {error !== undefined ? <ErrorNotice title="The lesson could not be started" error={error} /> : null}
      <ol className="lesson-steps">
        {shown.steps.map((step, i) => (
          <StepCard
            key={step.id}
            index={i}
            lesson={shown}
            step={step}
            view={state.steps[i]!}
            started={state.started}
            run={run}
            host={host}
          />
        ))}
      </ol>
      {state.done ? (
        <p className="success" role="status">
          Lesson done. <a href={routeHref('learn')}>Back to all lessons</a>
        </p>
      ) : null}
    </article>
  );
}
