/**
 * The course's first page: what the sandbox is, every lesson grouped in its
 * part with its progress (a link to `#/learn/<id>` each), and the lessons an
 * instructor shared, with the ways to add one.
 */

import { useEffect, useState } from 'react';
import type { LessonDocument } from '../../lessons/format';
import type { LessonHost } from '../../lessons/host';
import { lessonDone, type CourseProgress } from '../../lessons/progress';
import { routeHref } from '../lib/route';
import { AddLesson } from './AddLesson';
import { builtinLessons, type InstructorLesson } from './lesson-library';

export function LessonIndex({
  host,
  custom,
  onChange,
  params,
  active,
}: {
  host: LessonHost;
  custom: InstructorLesson[];
  onChange: () => void;
  params: Record<string, string>;
  active: boolean;
}) {
  const [progress, setProgress] = useState<CourseProgress>({});
  useEffect(() => {
    if (!active) return;
    let live = true;
    host.progress.all().then(
      (all) => live && setProgress(all),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [host, active]);

  const parts = new Map<string, LessonDocument[]>();
  for (const lesson of [...builtinLessons, ...custom.map((c) => c.lesson)]) {
    const part = lesson.part ?? 'Your lessons';
    parts.set(part, [...(parts.get(part) ?? []), lesson]);
  }
  const total = builtinLessons.length;
  const finished = builtinLessons.filter((l) =>
    lessonDone(
      progress[l.id],
      l.steps.map((s) => s.id),
    ),
  ).length;
  let number = 0;
  return (
    <div className="learn-index">
      <section className="learn-intro" aria-labelledby="learn-heading">
        <h2 id="learn-heading">Learn the API, step by step</h2>
        <p>
          A real API server runs in this browser tab — no cluster, no network: everything you do is an HTTP
          request it answers, kept in this browser. <strong>orch</strong> in the header is the naming profile
          (the specification’s group names; Workshop → Settings switches to the upstream ones), the chip
          beside it (<em>as admin</em>) is the identity every view acts as, and <em>N requests</em> counts
          what the app sent — the Console lists each one. Each lesson checks your work live as you do it, in
          any view; “Show me” does a step for you and shows what it sent. A “Terminal:” link types a kubectl
          command at the Terminal’s prompt for you to read and run with Enter.
        </p>
        <p className="muted" role="status">
          {finished} of {total} lessons done.
        </p>
      </section>
      {[...parts].map(([part, lessons]) => (
        <section key={part} className="learn-part" aria-label={part}>
          <h3>{part}</h3>
          <ol className="learn-lessons">
            {lessons.map((lesson) => {
              number += 1;
              const saved = progress[lesson.id];
              const doneSteps = lesson.steps.filter((s) => saved?.steps[s.id] !== undefined).length;
              const done = doneSteps === lesson.steps.length;
              return (
                <li key={lesson.id} data-lesson-progress={done ? 'done' : doneSteps > 0 ? 'started' : 'new'}>
                  <a href={routeHref('learn', { lesson: lesson.id })}>
                    <span className="learn-number">{number}.</span> {lesson.title}
                  </a>
                  <span className="muted">
                    {' '}
                    — {lesson.goal}
                    {lesson.minutes !== undefined ? ` (${lesson.minutes} min)` : ''}
                  </span>
                  <span className={`learn-badge ${done ? 'learn-badge-done' : ''}`}>
                    {done ? '✓ done' : `${doneSteps}/${lesson.steps.length} steps`}
                  </span>
                </li>
              );
            })}
          </ol>
        </section>
      ))}
      <AddLesson custom={custom} onChange={onChange} params={params} />
    </div>
  );
}
