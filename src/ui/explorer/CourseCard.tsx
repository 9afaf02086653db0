/**
 * The first visit's offer of the course, at the top of the explorer (the
 * app's first screen): one line on what the sandbox is and a link to
 * `#/learn`. Dismissed for good in this browser by "Not now" or by opening
 * the course; the header's Learn tab stays.
 */

import { useState } from 'react';
import { preferences } from '../lib/preferences';
import { routeHref } from '../lib/route';
import './course-card.css';

export function CourseCard() {
  const [dismissed, setDismissed] = useState(() => preferences.courseCardDismissed());
  if (dismissed) return null;
  const dismiss = () => {
    preferences.dismissCourseCard();
    setDismissed(true);
  };
  return (
    <section className="course-card" aria-label="Start here">
      <p>
        <strong>New here?</strong> This is a real API server running in your browser. A short course walks you
        through it, checking each step as you do it.
      </p>
      <a className="button-link" href={routeHref('learn')} onClick={dismiss}>
        Start here: the course
      </a>
      <button type="button" className="secondary small" onClick={dismiss}>
        Not now
      </button>
    </section>
  );
}
