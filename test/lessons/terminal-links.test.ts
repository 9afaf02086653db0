/**
 * Every Terminal link of the built-in course does what its step asks: the
 * lesson is started and each step with a link is done by typing that
 * link's command with the app's kubectl (the Terminal view runs the same),
 * the other steps by "Show me", and each step's checks must pass.
 */

import { afterAll, beforeAll, expect, it } from 'vitest';
import { builtinLessons } from '../../src/lessons/builtin/index';
import {
  completeByTerminal,
  startLessonServer,
  terminalCommand,
  type LessonServer,
} from '../support/lessons';

let server: LessonServer;
beforeAll(async () => {
  server = await startLessonServer();
});
afterAll(async () => {
  await server.close();
});

const withLinks = builtinLessons.filter((lesson) =>
  lesson.steps.some((s) => terminalCommand(s) !== undefined),
);

it('some lessons have Terminal links', () => {
  expect(withLinks.length).toBeGreaterThan(0);
});

it.each(withLinks.map((l) => [l.id, l] as const))(
  '%s: each Terminal command completes its step',
  async (_id, lesson) => {
    const typed = await completeByTerminal(server, lesson);
    expect(typed).toEqual(lesson.steps.filter((s) => terminalCommand(s) !== undefined).map((s) => s.id));
  },
);
