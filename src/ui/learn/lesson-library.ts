/**
 * The lessons `#/learn` offers: the built-in course, and lessons an
 * instructor handed out — loaded from a file, a URL or a link
 * (`#/learn?lesson-url=<url>` or `#/learn?lesson-data=<packed>`, the text
 * deflated and base64url-encoded like a shared scenario). A loaded lesson
 * is checked first (src/lessons/load.ts) and refused whole with the
 * position of every problem; an accepted one is kept in this browser
 * (localStorage) until removed.
 */

import { builtinLessons } from '../../lessons/builtin/index';
import type { LessonDocument } from '../../lessons/format';
import { readLessonFile } from '../../lessons/load';

const storageKey = 'orch-sandbox.lessons';

export interface InstructorLesson {
  lesson: LessonDocument;
  /** The file name or URL it came from. */
  source: string;
  text: string;
}

export { builtinLessons };

/** The instructor lessons kept in this browser (each checked again as it is read). */
export async function savedLessons(): Promise<InstructorLesson[]> {
  let stored: { source: string; text: string }[] = [];
  try {
    stored = JSON.parse(localStorage.getItem(storageKey) ?? '[]') as typeof stored;
  } catch {
    return [];
  }
  const out: InstructorLesson[] = [];
  for (const { source, text } of Array.isArray(stored) ? stored : []) {
    try {
      out.push({ lesson: await readLessonFile(text, source), source, text });
    } catch {
      // A lesson kept by an older version of the app that no longer passes: left out.
    }
  }
  return out;
}

/** Checks `text` and keeps it (replacing an instructor lesson of the same id); throws `LessonFileError`. */
export async function addLesson(text: string, source: string): Promise<InstructorLesson> {
  const lesson = await readLessonFile(text, source);
  if (builtinLessons.some((l) => l.id === lesson.id))
    throw new Error(`${source}: the id "${lesson.id}" is a built-in lesson's; choose another id`);
  const kept = (await savedLessons()).filter((l) => l.lesson.id !== lesson.id);
  write([...kept, { lesson, source, text }]);
  return { lesson, source, text };
}

export async function removeLesson(id: string): Promise<void> {
  write((await savedLessons()).filter((l) => l.lesson.id !== id));
}

function write(lessons: InstructorLesson[]): void {
  try {
    localStorage.setItem(storageKey, JSON.stringify(lessons.map(({ source, text }) => ({ source, text }))));
  } catch {
    // Storage disabled: the lesson lasts for this page.
  }
}

/** A lesson's text as a link parameter: deflated, base64url. */
export async function packLesson(text: string): Promise<string> {
  const packed = new Uint8Array(
    await new Response(
      new Blob([new TextEncoder().encode(text)]).stream().pipeThrough(new CompressionStream('deflate-raw')),
    ).arrayBuffer(),
  );
  let binary = '';
  for (const byte of packed) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export async function unpackLesson(data: string): Promise<string> {
  const base64 = data.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw'))).text();
}

/** The shareable link of a lesson's text, on this page's origin. */
export async function shareLink(text: string): Promise<string> {
  return `${location.origin}${location.pathname}#/learn?lesson-data=${await packLesson(text)}`;
}
