/**
 * Course progress kept with the sandbox's state (src/lessons/progress.ts):
 * - `GET /sandbox/v1/lessons/progress`: every lesson's progress, `{"lessons": {...}}`;
 * - `PUT /sandbox/v1/lessons/progress/<lesson>`: replaces one lesson's
 *   (`{"startedAt": "...", "steps": {"<step>": "<RFC 3339>"}}`);
 * - `DELETE /sandbox/v1/lessons/progress/<lesson>`: forgets it.
 * One settings row of the store, so progress survives reloads and a reset
 * (which deletes objects, not settings) and is part of the workshop export
 * and import. Authorized like the rest of the sandbox API.
 */

import { badRequest, methodNotAllowed, pathNotFound } from '../machinery/errors';
import { isPlainObject } from '../machinery/json';
import type { RequestContext } from '../http/context';
import { readBodyText } from '../http/body';
import { respondValue } from '../http/respond';
import type { Storage } from '../storage/types';

export const lessonProgressPath = '/sandbox/v1/lessons/progress';
const setting = 'lessons.progress';
const maxLessons = 500;
const maxSteps = 100;

interface LessonProgress {
  startedAt?: string;
  steps: Record<string, string>;
}

/** True for the paths this module serves (trailing slashes already removed). */
export function isLessonApiPath(path: string): boolean {
  return path === lessonProgressPath || path.startsWith(`${lessonProgressPath}/`);
}

// Writes to one store are serialized, so two tabs saving two lessons at once do not lose one.
const queues = new WeakMap<Storage, Promise<unknown>>();

export async function handleLessonApi(storage: Storage, ctx: RequestContext): Promise<Response> {
  const path = ctx.url.pathname.replace(/\/+$/, '');
  const method = ctx.request.method.toUpperCase();
  const read = async () => (await storage.getSetting<Record<string, LessonProgress>>(setting)) ?? {};
  if (path === lessonProgressPath) {
    if (method !== 'GET') throw methodNotAllowed();
    return respondValue(ctx, 200, { lessons: await read() });
  }
  const id = decodeURIComponent(path.slice(lessonProgressPath.length + 1));
  if (!/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(id)) throw pathNotFound();
  if (method === 'GET') return respondValue(ctx, 200, (await read())[id] ?? { steps: {} });
  if (method !== 'PUT' && method !== 'DELETE') throw methodNotAllowed();
  const progress = method === 'PUT' ? parseProgress(await readBodyText(ctx.request)) : undefined;
  const write = (queues.get(storage) ?? Promise.resolve()).then(async () => {
    const all = await read();
    if (progress === undefined) delete all[id];
    else {
      if (!(id in all) && Object.keys(all).length >= maxLessons)
        throw badRequest(`progress is kept for at most ${maxLessons} lessons`);
      all[id] = progress;
    }
    await storage.setSetting(setting, all);
  });
  queues.set(
    storage,
    write.catch(() => undefined),
  );
  await write;
  return respondValue(ctx, 200, progress ?? { steps: {} });
}

function parseProgress(text: string): LessonProgress {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw badRequest('progress must be JSON: {"startedAt": "...", "steps": {"<step>": "<time>"}}');
  }
  if (!isPlainObject(body) || !isPlainObject(body.steps))
    throw badRequest('progress needs "steps": an object of step ids to the times they were done');
  const steps: Record<string, string> = {};
  for (const [step, at] of Object.entries(body.steps)) {
    if (typeof at !== 'string' || Number.isNaN(Date.parse(at)))
      throw badRequest(`steps.${step} must be an RFC 3339 time`);
    steps[step] = at;
  }
  if (Object.keys(steps).length > maxSteps) throw badRequest(`a lesson has at most ${maxSteps} steps`);
  const progress: LessonProgress = { steps };
  if (body.startedAt !== undefined) {
    if (typeof body.startedAt !== 'string' || Number.isNaN(Date.parse(body.startedAt)))
      throw badRequest('startedAt must be an RFC 3339 time');
    progress.startedAt = body.startedAt;
  }
  return progress;
}
