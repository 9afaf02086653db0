/**
 * The course's first part, each lesson completed by "Show me" and by a
 * learner's own different requests (test/support/lessons.ts).
 */

import { afterAll, beforeAll, it } from 'vitest';
import { welcome } from '../../src/lessons/builtin/welcome';
import { completeLesson, startLessonServer, type LessonServer } from '../support/lessons';

let server: LessonServer;
beforeAll(async () => {
  server = await startLessonServer();
});
afterAll(async () => {
  await server.close();
});

it('welcome: create, change, see the requests, delete', async () => {
  await completeLesson(server, welcome, {
    create: async ({ learner }) => {
      // Server-side apply instead of a POST.
      const c = await learner();
      await c.patch(
        { group: '', version: 'v1', resource: 'configmaps', namespace: 'learn-welcome', name: 'hello' },
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: hello\ndata:\n  answer: "42"\n  extra: yes-string\n',
        'application/apply-patch+yaml',
        { fieldManager: 'learner' },
      );
    },
    change: async ({ learner }) => {
      // A read, then a full update instead of a merge patch.
      const c = await learner();
      const ref = {
        group: '',
        version: 'v1',
        resource: 'configmaps',
        namespace: 'learn-welcome',
        name: 'hello',
      };
      const current = await c.get(ref);
      await c.update(ref, { ...current, data: { answer: '43' } });
    },
    requests: async ({ learner }) => {
      const c = await learner();
      await c.get(
        { group: '', version: 'v1', resource: 'configmaps', namespace: 'learn-welcome', name: 'hello' },
        { resourceVersion: '0' },
      );
    },
    delete: async ({ learner }) => {
      // A collection delete by label instead of deleting by name.
      const c = await learner();
      await c.send('DELETE', '/api/v1/namespaces/learn-welcome/configmaps', {
        query: { fieldSelector: 'metadata.name=hello' },
      });
    },
  });
});
