/**
 * Reading, writing and following change: each lesson completed by "Show me"
 * and by a learner's own different requests (test/support/lessons.ts).
 */

import { afterAll, beforeAll, it } from 'vitest';
import { apply } from '../../src/lessons/builtin/apply';
import { deletion } from '../../src/lessons/builtin/deletion';
import { paging } from '../../src/lessons/builtin/paging';
import { patches } from '../../src/lessons/builtin/patches';
import { validation } from '../../src/lessons/builtin/validation';
import { watch } from '../../src/lessons/builtin/watch';
import { completeLesson, startLessonServer, type LessonServer } from '../support/lessons';

let server: LessonServer;
beforeAll(async () => {
  server = await startLessonServer();
});
afterAll(async () => {
  await server.close();
});

const merge = 'application/merge-patch+json';
const jsonPatch = 'application/json-patch+json';
const applyYaml = 'application/apply-patch+yaml';

/** Sends a request as the learner (admin unless told), refusals included: the learner sees them too. */
async function send(
  s: LessonServer,
  method: string,
  path: string,
  options: { body?: unknown; contentType?: string; query?: Record<string, string>; as?: string } = {},
): Promise<void> {
  const c = await s.learner(options.as);
  await c
    .send(method, path, {
      ...(options.body !== undefined ? { body: options.body } : {}),
      ...(options.contentType !== undefined ? { contentType: options.contentType } : {}),
      ...(options.query !== undefined ? { query: options.query } : {}),
    })
    .catch(() => undefined);
}

it('patches: merge, JSON patch, strategic merge, a list replaced by a merge patch', async () => {
  const cm = '/api/v1/namespaces/learn-patches/configmaps/settings';
  const svc = '/api/v1/namespaces/learn-patches/services/web';
  await completeLesson(server, patches, {
    merge: (s) =>
      send(s, 'PATCH', cm, {
        contentType: merge,
        body: { data: { color: null, size: 'large', extra: 'x' } },
      }),
    'json-patch': (s) =>
      send(s, 'PATCH', cm, {
        contentType: jsonPatch,
        body: [{ op: 'add', path: '/data/mode', value: 'dark' }],
      }),
    strategic: (s) =>
      send(s, 'PATCH', svc, {
        contentType: 'application/strategic-merge-patch+json',
        body: { spec: { ports: [{ name: 'metrics', port: 9090 }] } },
      }),
    'merge-list': (s) =>
      send(s, 'PATCH', svc, { contentType: merge, body: { spec: { ports: [{ name: 'http', port: 80 }] } } }),
  });
});

it('validation: a warning, a strict refusal, a dry run by apply, defaults', async () => {
  const cms = '/api/v1/namespaces/learn-validation/configmaps';
  const svc = '/api/v1/namespaces/learn-validation/services/preview';
  await completeLesson(server, validation, {
    warn: (s) =>
      send(s, 'POST', cms, {
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'w2', labelz: { a: 'b' } } },
      }),
    // A duplicate field this time, in raw JSON.
    strict: (s) =>
      send(s, 'POST', cms, {
        query: { fieldValidation: 'Strict' },
        body: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dup","name":"dup2"}}',
      }),
    'dry-run': (s) =>
      send(s, 'PATCH', svc, {
        contentType: applyYaml,
        query: { dryRun: 'All', fieldManager: 'learner' },
        body: 'apiVersion: v1\nkind: Service\nmetadata:\n  name: preview\nspec:\n  type: NodePort\n  ports:\n  - port: 8080\n',
      }),
    defaults: (s) =>
      send(s, 'PATCH', svc, {
        contentType: applyYaml,
        query: { fieldManager: 'learner' },
        body: 'apiVersion: v1\nkind: Service\nmetadata:\n  name: preview\nspec:\n  ports:\n  - port: 8080\n',
      }),
  });
});

it('server-side apply: managers, a conflict, shared ownership, a map list', async () => {
  const cm = '/api/v1/namespaces/learn-apply/configmaps/shared';
  const svc = '/api/v1/namespaces/learn-apply/services/front';
  const yaml = (data: string) =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: shared\ndata:\n${data}\n`;
  await completeLesson(server, apply, {
    'first-apply': (s) =>
      send(s, 'PATCH', cm, {
        contentType: applyYaml,
        query: { fieldManager: 'alice-tool' },
        body: yaml('  owner: alice\n  color: red'),
      }),
    // The conflict on another field, owner.
    conflict: (s) =>
      send(s, 'PATCH', cm, {
        contentType: applyYaml,
        query: { fieldManager: 'carol-tool' },
        body: yaml('  owner: carol'),
      }),
    // Shared ownership instead of force: the value alice applied.
    resolve: (s) =>
      send(s, 'PATCH', cm, {
        contentType: applyYaml,
        query: { fieldManager: 'carol-tool' },
        body: yaml('  owner: alice'),
      }),
    'list-map': async (s) => {
      const port = (n: number) =>
        `apiVersion: v1\nkind: Service\nmetadata:\n  name: front\nspec:\n  ports:\n  - port: ${n}\n    protocol: TCP\n`;
      await send(s, 'PATCH', svc, {
        contentType: applyYaml,
        query: { fieldManager: 'x-team' },
        body: port(8080),
      });
      await send(s, 'PATCH', svc, {
        contentType: applyYaml,
        query: { fieldManager: 'y-team' },
        body: port(9090),
      });
    },
  });
});

it('watch: a watch from resourceVersion 0, a MODIFIED, a 410 from a very old version', async () => {
  const collection = '/api/v1/namespaces/learn-watch/configmaps';
  await completeLesson(server, watch, {
    open: async (s) =>
      s.host.inspector.start({ path: collection, query: { resourceVersion: '0' } }, await s.learner()),
    change: (s) => send(s, 'PATCH', `${collection}/one`, { contentType: merge, body: { data: { n: '5' } } }),
    gone: async (s) => {
      await send(s, 'POST', '/sandbox/v1/restart-watch-cache');
      s.host.inspector.start(
        { path: collection, query: { resourceVersion: '1' }, relistOnGone: true },
        await s.learner(),
      );
    },
  });
});

it('paging: pages of two, to the end, and a refused combination', async () => {
  const collection = '/api/v1/namespaces/learn-paging/configmaps';
  const page = async (s: LessonServer, query: Record<string, string>) =>
    (await (await s.learner()).send<{ metadata: { continue?: string } }>('GET', collection, { query })).body
      .metadata.continue ?? '';
  await completeLesson(server, paging, {
    'first-page': async (s) => void (await page(s, { limit: '2' })),
    'next-page': async (s) => void (await page(s, { limit: '2', continue: await page(s, { limit: '2' }) })),
    'last-page': async (s) => {
      let token = await page(s, { limit: '4' });
      while (token !== '') token = await page(s, { limit: '4', continue: token });
    },
    refused: async (s) => {
      const token = await page(s, { limit: '2' });
      await send(s, 'GET', collection, { query: { limit: '2', continue: token, resourceVersion: '5' } });
    },
  });
});

it('deletion: finalizers, owners and the garbage collector, a namespace', async () => {
  const cms = '/api/v1/namespaces/learn-deletion/configmaps';
  await completeLesson(server, deletion, {
    terminating: (s) =>
      send(s, 'DELETE', `${cms}/guarded`, {
        body: { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 0 },
      }),
    finalize: (s) =>
      send(s, 'PATCH', `${cms}/guarded`, {
        contentType: jsonPatch,
        body: [{ op: 'remove', path: '/metadata/finalizers' }],
      }),
    owner: async (s) => {
      const c = await s.learner();
      const uid = (await c.send<{ metadata: { uid: string } }>('GET', `${cms}/parent`)).body.metadata.uid;
      await send(s, 'PATCH', `${cms}/child`, {
        contentType: applyYaml,
        query: { fieldManager: 'learner' },
        body: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: child\n  ownerReferences:\n  - apiVersion: v1\n    kind: ConfigMap\n    name: parent\n    uid: ${uid}\n`,
      });
    },
    collect: (s) =>
      send(s, 'DELETE', `${cms}/parent`, {
        body: { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Foreground' },
      }),
    namespace: (s) =>
      send(s, 'DELETE', '/api/v1/namespaces/learn-deletion-scratch', {
        body: { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Foreground' },
      }),
  });
});
