/**
 * Lessons an instructor shares: from a file, a URL, or a link that carries
 * the lesson (`?lesson-data=`) or points at one (`?lesson-url=`). A shared
 * lesson is shown first and added only on the learner's click; a lesson
 * that does not pass its checks is refused with every problem at its line
 * and column, and nothing is kept.
 */

import { useEffect, useState } from 'react';
import { LessonFileError, formatProblem } from '../../lessons/load';
import { CopyButton } from '../common/CopyButton';
import { routeHref } from '../lib/route';
import { addLesson, removeLesson, shareLink, unpackLesson, type InstructorLesson } from './lesson-library';

export function AddLesson({
  custom,
  onChange,
  params,
}: {
  custom: InstructorLesson[];
  onChange: () => void;
  params: Record<string, string>;
}) {
  const [url, setUrl] = useState('');
  const [error, setError] = useState<unknown>(undefined);
  const [message, setMessage] = useState<string | undefined>(undefined);
  const [links, setLinks] = useState<Record<string, string>>({});
  const [shared, setShared] = useState<{ text: string; source: string } | undefined>(undefined);

  const sharedUrl = params['lesson-url'];
  const sharedData = params['lesson-data'];
  useEffect(() => {
    if (sharedUrl === undefined && sharedData === undefined) return;
    let live = true;
    const text = sharedData !== undefined ? unpackLesson(sharedData) : fetchText(sharedUrl as string);
    text.then(
      (t) => live && setShared({ text: t, source: sharedUrl ?? 'the shared link' }),
      (e: unknown) => live && setError(e),
    );
    return () => {
      live = false;
    };
  }, [sharedUrl, sharedData]);

  async function add(text: string, source: string) {
    setError(undefined);
    setMessage(undefined);
    try {
      const added = await addLesson(text, source);
      setMessage(`Added “${added.lesson.title}”.`);
      setShared(undefined);
      onChange();
    } catch (e) {
      setError(e);
    }
  }

  return (
    <section className="learn-add card" aria-labelledby="learn-add-heading">
      <h3 id="learn-add-heading">Lessons from your instructor</h3>
      {shared !== undefined ? (
        <div className="learn-shared" role="region" aria-label="Shared lesson">
          <p>A lesson was shared with you ({shared.source}). Add it to this browser’s course?</p>
          <div className="row">
            <button type="button" onClick={() => void add(shared.text, shared.source)}>
              Add the shared lesson
            </button>
            <button type="button" className="secondary" onClick={() => setShared(undefined)}>
              Dismiss
            </button>
          </div>
        </div>
      ) : null}
      <p className="muted">
        A lesson is a YAML or JSON file (<code>kind: Lesson</code>, see docs/lessons.md in the project). It is
        checked before it is added: a syntax error, an unknown field or a check that does not compile is
        refused with its line and column.
      </p>
      <div className="row">
        <label className="file-button">
          Add a lesson file…
          <input
            type="file"
            accept=".yaml,.yml,.json,application/json,text/yaml"
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file !== undefined) void file.text().then((text) => add(text, file.name));
            }}
          />
        </label>
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            const target = url.trim();
            if (target !== '') void fetchText(target).then((text) => add(text, target), setError);
          }}
        >
          <label>
            Lesson URL{' '}
            <input
              value={url}
              size={32}
              onChange={(e) => setUrl(e.target.value)}
              placeholder="https://…/lesson.yaml"
            />
          </label>
          <button type="submit" className="secondary">
            Load from URL
          </button>
        </form>
      </div>
      {message !== undefined ? (
        <p className="success" role="status">
          {message}
        </p>
      ) : null}
      {error !== undefined ? <LessonError error={error} /> : null}
      {custom.length > 0 ? (
        <ul className="learn-custom">
          {custom.map(({ lesson, source, text }) => (
            <li key={lesson.id}>
              <a href={routeHref('learn', { lesson: lesson.id })}>{lesson.title}</a>{' '}
              <span className="muted">from {source}</span>{' '}
              <button
                type="button"
                className="secondary"
                onClick={() =>
                  void shareLink(text).then((link) => setLinks((l) => ({ ...l, [lesson.id]: link })))
                }
              >
                Make a link
              </button>{' '}
              {links[lesson.id] !== undefined ? (
                <CopyButton text={links[lesson.id]!} label="Copy the link" />
              ) : null}{' '}
              <button
                type="button"
                className="secondary"
                onClick={() => void removeLesson(lesson.id).then(onChange)}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function LessonError({ error }: { error: unknown }) {
  if (error instanceof LessonFileError)
    return (
      <div className="error" role="alert">
        <strong>
          The lesson was not added: {error.problems.length} problem{error.problems.length === 1 ? '' : 's'}
        </strong>
        <ul className="learn-problems">
          {error.problems.map((p, i) => (
            <li key={i}>
              <code>{formatProblem(error.source, p)}</code>
            </li>
          ))}
        </ul>
      </div>
    );
  return (
    <div className="error" role="alert">
      <strong>The lesson was not added</strong>
      <p>{error instanceof Error ? error.message : String(error)}</p>
    </div>
  );
}

async function fetchText(url: string): Promise<string> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.text();
}
