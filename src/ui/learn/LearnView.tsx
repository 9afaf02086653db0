/**
 * `#/learn`: the course. Without a lesson it lists every lesson grouped in
 * parts with its progress, says what the sandbox is, and loads lessons an
 * instructor shares; `#/learn/<id>` is one lesson with its live steps. Its
 * own chunk (with the lessons, the engine and CEL), loaded when first opened.
 */

import { useCallback, useEffect, useState } from 'react';
import type { ViewProps } from '../app/view-props';
import { routeHref } from '../lib/route';
import { builtinLessons, savedLessons, type InstructorLesson } from './lesson-library';
import { LessonIndex } from './LessonIndex';
import { LessonPage } from './LessonPage';
import { useLessonHost } from './useLessonHost';
import './learn.css';

export function LearnView({ params, active }: ViewProps) {
  const host = useLessonHost();
  const [custom, setCustom] = useState<InstructorLesson[] | undefined>(undefined);
  const reload = useCallback(() => {
    void savedLessons().then(setCustom);
  }, []);
  useEffect(reload, [reload]);
  const id = params['lesson'];
  if (id !== undefined) {
    const lesson = builtinLessons.find((l) => l.id === id) ?? custom?.find((l) => l.lesson.id === id)?.lesson;
    if (lesson === undefined)
      return (
        <main className="learn-view" id={active ? 'main' : undefined} tabIndex={-1}>
          {custom === undefined ? (
            <p role="status">Reading the lessons…</p>
          ) : (
            <p>
              There is no lesson “{id}” in this browser. <a href={routeHref('learn')}>All lessons</a>
            </p>
          )}
        </main>
      );
    return (
      <main className="learn-view" id={active ? 'main' : undefined} tabIndex={-1}>
        <LessonPage key={`${lesson.id}/${host.profile.name}`} lesson={lesson} host={host} active={active} />
      </main>
    );
  }
  return (
    <main className="learn-view" id={active ? 'main' : undefined} tabIndex={-1}>
      <LessonIndex host={host} custom={custom ?? []} onChange={reload} params={params} active={active} />
    </main>
  );
}
