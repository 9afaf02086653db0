/**
 * Course progress: per lesson, when it was started and when each step was
 * done. The sandbox keeps it with its state (`/sandbox/v1/lessons/progress`,
 * a settings row of the store: IndexedDB in the browser), so it survives
 * reloads and a sandbox reset, and travels in the workshop export and
 * import — an instructor can import an attendee's state and see their
 * progress. A lesson is done when every step is.
 */

import type { ApiClient } from '../client/index';

export interface LessonProgress {
  /** RFC 3339; set by "Start lesson". */
  startedAt?: string;
  /** Step id to the RFC 3339 time it was first done. */
  steps: Record<string, string>;
}

export type CourseProgress = Record<string, LessonProgress>;

export interface ProgressStore {
  all(): Promise<CourseProgress>;
  /** Replaces one lesson's progress; undefined forgets it ("Reset lesson"). */
  save(lessonId: string, progress: LessonProgress | undefined): Promise<void>;
}

export const progressPath = '/sandbox/v1/lessons/progress';

/** Progress kept by the sandbox, read and written through `client`. */
export function sandboxProgress(client: ApiClient): ProgressStore {
  return {
    async all() {
      const answer = await client.send<{ lessons?: CourseProgress }>('GET', progressPath);
      return answer.body.lessons ?? {};
    },
    async save(lessonId, progress) {
      const path = `${progressPath}/${encodeURIComponent(lessonId)}`;
      if (progress === undefined) await client.send('DELETE', path);
      else await client.send('PUT', path, { body: progress });
    },
  };
}

/** Progress in memory (tests, or a host whose sandbox API is out of reach). */
export function memoryProgress(): ProgressStore {
  const kept: CourseProgress = {};
  return {
    all: () => Promise.resolve(structuredClone(kept)),
    save(lessonId, progress) {
      if (progress === undefined) delete kept[lessonId];
      else kept[lessonId] = structuredClone(progress);
      return Promise.resolve();
    },
  };
}

/** Whether every step of a lesson with `stepIds` is done. */
export function lessonDone(progress: LessonProgress | undefined, stepIds: readonly string[]): boolean {
  return progress !== undefined && stepIds.every((id) => progress.steps[id] !== undefined);
}
