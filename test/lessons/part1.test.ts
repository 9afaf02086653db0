/**
 * The course's first part, each lesson completed by "Show me" and by a
 * learner's own different requests (test/support/lessons.ts).
 */

import { afterAll, beforeAll, it } from 'vitest';
import { apiShape } from '../../src/lessons/builtin/api-shape';
import { conflicts } from '../../src/lessons/builtin/conflicts';
import { formats } from '../../src/lessons/builtin/formats';
import { objectsLabels } from '../../src/lessons/builtin/objects-labels';
import { welcome } from '../../src/lessons/builtin/welcome';
import { completeLesson, startLessonServer, type LessonServer } from '../support/lessons';

let server: LessonServer;
beforeAll(async () => {
  server = await startLessonServer();
});
afterAll(async () => {
  await server.close();
});

const cm = (namespace: string, name: string) => ({
  group: '',
  version: 'v1',
  resource: 'configmaps',
  namespace,
  name,
});

it('welcome: create, change, see the requests, delete', async () => {
  await completeLesson(server, welcome, {
    create: async ({ learner }) => {
      // Server-side apply instead of a POST.
      await (
        await learner()
      ).patch(
        cm('learn-welcome', 'hello'),
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: hello\ndata:\n  answer: "42"\n  extra: yes-string\n',
        'application/apply-patch+yaml',
        { fieldManager: 'learner' },
      );
    },
    change: async ({ learner }) => {
      // A read, then a full update instead of a merge patch. The read is a list by field selector: a GET of
      // hello would already pass the next step's check ("a GET of hello answered 200"), so whether that step
      // showed done before its own action would depend on when the lesson evaluated it.
      const c = await learner();
      const { group, version, resource, namespace } = cm('learn-welcome', 'hello');
      const listed = await c.list(
        { group, version, resource, namespace },
        { fieldSelector: 'metadata.name=hello' },
      );
      const current = listed.items[0];
      if (current === undefined) throw new Error('hello is not listed');
      await c.update(cm('learn-welcome', 'hello'), { ...current, data: { answer: '43' } });
    },
    requests: async ({ learner }) => {
      await (await learner()).get(cm('learn-welcome', 'hello'), { resourceVersion: '0' });
    },
    delete: async ({ learner }) => {
      // A collection delete by field selector instead of deleting by name.
      await (
        await learner()
      ).send('DELETE', '/api/v1/namespaces/learn-welcome/configmaps', {
        query: { fieldSelector: 'metadata.name=hello' },
      });
    },
  });
});

it('api-shape: discovery, groups, a namespaced write, a list across namespaces', async () => {
  await completeLesson(server, apiShape, {
    'core-group': async ({ learner }) => void (await (await learner()).send('GET', '/api')),
    'named-groups': async ({ learner }) =>
      void (await (await learner()).send('GET', '/apis/rbac.authorization.orch.io/v1')),
    'namespaced-path': async ({ learner }) => {
      await (
        await learner()
      ).patch(
        cm('learn-shape', 'first'),
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'first' } },
        'application/apply-patch+yaml',
        {
          fieldManager: 'learner',
        },
      );
    },
    'all-namespaces': async ({ learner }) =>
      void (await (await learner()).send('GET', '/api/v1/configmaps', { query: { limit: 2 } })),
  });
});

it('objects-labels: generateName, a label, a selector, a refused name', async () => {
  const ns = 'learn-labels';
  await completeLesson(server, objectsLabels, {
    'generate-name': async ({ learner }) => {
      await (
        await learner()
      ).create(
        { group: '', version: 'v1', resource: 'configmaps', namespace: ns },
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'note-x-' } },
      );
    },
    label: async ({ learner }) => {
      await (
        await learner()
      ).patch(
        cm(ns, 'blue-1'),
        [{ op: 'add', path: '/metadata/labels/tier', value: 'web' }],
        'application/json-patch+json',
      );
    },
    select: async ({ learner }) =>
      void (await (await learner()).list(cm(ns, ''), { labelSelector: 'color in (red,blue),!size' })),
    'bad-name': async ({ learner }) => {
      const c = await learner();
      await c
        .create(
          { group: '', version: 'v1', resource: 'configmaps', namespace: ns },
          {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: 'under_score' },
          },
        )
        .catch(() => undefined);
    },
  });
});

it('formats: Table, Protobuf, 406', async () => {
  const path = '/api/v1/namespaces';
  await completeLesson(server, formats, {
    table: async ({ learner }) =>
      void (await (
        await learner()
      ).raw('GET', path, {
        headers: { accept: 'application/json;as=Table;v=v1;g=meta.orch.io, application/json' },
      })),
    protobuf: async ({ learner }) =>
      void (await (
        await learner()
      ).raw('GET', `${path}/default`, {
        headers: { accept: 'application/vnd.orch.protobuf, application/json' },
      })),
    'not-acceptable': async ({ learner }) =>
      void (await (await learner()).raw('GET', path, { headers: { accept: 'application/xml' } })),
  });
});

it('conflicts: read, a 409 by a patch with a stale resourceVersion, resolved by a merge patch', async () => {
  const ref = cm('learn-versions', 'counter');
  await completeLesson(server, conflicts, {
    read: async ({ learner }) => void (await (await learner()).get(ref, { resourceVersion: '0' })),
    conflict: async ({ learner }) => {
      const c = await learner();
      const stale = (await c.get(ref)).metadata?.resourceVersion;
      await c.patch(ref, { data: { count: '2' } }, 'application/merge-patch+json');
      await c
        .patch(
          ref,
          { metadata: { resourceVersion: stale }, data: { count: '9' } },
          'application/merge-patch+json',
        )
        .catch(() => undefined);
    },
    resolve: async ({ learner }) => {
      const c = await learner();
      const fresh = (await c.get(ref)).metadata?.resourceVersion;
      await c.patch(
        ref,
        { metadata: { resourceVersion: fresh }, data: { count: '3' } },
        'application/merge-patch+json',
      );
    },
  });
});
