/** Lesson 5: resourceVersion, optimistic concurrency, a 409 provoked and resolved. */

import type { LessonDocument } from '../format';
import { configMap, consoleLink, jsonMerge, objectCheck, request, sent } from './common';

const ns = 'learn-versions';
const path = `/api/v1/namespaces/${ns}/configmaps/counter`;

export const conflicts: LessonDocument = {
  apiVersion: 'sandbox.orch.io/v1',
  kind: 'Lesson',
  id: 'conflicts',
  title: 'resourceVersion and conflicts',
  part: 'Finding your way',
  minutes: 3,
  goal: 'Use resourceVersion to change an object safely when others change it too: provoke a 409 Conflict and recover from it.',
  sections: [
    {
      text: 'Every stored object carries `metadata.resourceVersion`, an opaque string that changes on every write. A write that sends one is a promise: "change it only if nobody else did since I read it". If someone did, the answer is 409 Conflict and nothing is written. The way out is to read the object again, apply your change to what is there now, and send it with the new version.\n\nCompare resource versions only for equality: they are not counters you may do arithmetic with.',
      spec: ['core-resource-version-semantics'],
    },
  ],
  start: {
    namespaces: [ns],
    objects: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'counter' }, data: { count: '1' } }],
  },
  steps: [
    {
      id: 'read',
      title: 'Read it and note its version',
      text: `Send \`GET ${path}\` and note \`metadata.resourceVersion\`.`,
      open: [consoleLink('GET', path)],
      checks: [
        sent(
          'counter was read',
          `requests.exists(r, r.method == 'GET' && r.path == '${path}' && r.status == 200)`,
        ),
      ],
      showMe: [request('GET', path)],
    },
    {
      id: 'conflict',
      title: 'Lose a race: 409 Conflict',
      text: 'Open counter in the Editor, then change it somewhere else first (in a second tab, or by a patch in the Console), and only then press **Update…** in the Editor with the version you loaded. The server answers 409 Conflict; the Editor shows your change and theirs.',
      open: [{ view: 'editor', label: 'Editor with counter', params: { path } }],
      hints: [
        'In the Console: `PATCH` with `Content-Type: application/merge-patch+json` and body `{"data":{"count":"2"}}` is the "someone else".',
      ],
      checks: [
        sent(
          'A write to counter was answered 409 Conflict',
          `requests.exists(r, r.method in ['PUT', 'PATCH'] && r.path == '${path}' && r.status == 409)`,
        ),
      ],
      showMe: [
        request('GET', path, {}, { capture: { rv: 'response.body.metadata.resourceVersion' } }),
        request('PATCH', path, { contentType: jsonMerge, body: { data: { count: '2' } } }),
        request(
          'PUT',
          path,
          {
            body: {
              apiVersion: 'v1',
              kind: 'ConfigMap',
              metadata: { name: 'counter', namespace: ns, resourceVersion: '${rv}' },
              data: { count: '3' },
            },
          },
          { expectStatus: [409] },
        ),
      ],
    },
    {
      id: 'resolve',
      title: 'Read again and write again',
      text: 'Set `count` to `"3"` with a write that carries the current resourceVersion: reload the object (the Editor offers **Reload the stored object and re-apply my change**) and update again.',
      open: [{ view: 'editor', label: 'Editor with counter', params: { path } }],
      checks: [
        objectCheck(
          'counter holds count: "3"',
          configMap(ns, 'counter'),
          "object != null && object.data.count == '3'",
        ),
      ],
      showMe: [
        request('GET', path, {}, { capture: { rv: 'response.body.metadata.resourceVersion' } }),
        request('PUT', path, {
          body: {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: 'counter', namespace: ns, resourceVersion: '${rv}' },
            data: { count: '3' },
          },
        }),
      ],
    },
  ],
};
