/** Lesson 3: names, generated names, labels and label selectors. */

import type { LessonDocument } from '../format';
import { configMap, consoleLink, jsonMerge, objectCheck, request, sent, terminalLink } from './common';

const ns = 'learn-labels';

export const objectsLabels: LessonDocument = {
  apiVersion: 'sandbox.orch.io/v1',
  kind: 'Lesson',
  id: 'objects-labels',
  title: 'Names, labels and selectors',
  part: 'Finding your way',
  minutes: 3,
  goal: 'Name objects the way the server accepts, let it generate names, and select objects by label.',
  sections: [
    {
      text: 'A name is unique per kind within its namespace and must be a DNS name: lower case letters, digits, `-` and `.`. With `generateName` instead of `name`, the server appends a random suffix, so many clients can create without colliding. `uid` and `creationTimestamp` are always the server’s.\n\nLabels are string pairs for selecting: `color=red`, `color!=red`, `color in (red,blue)`, `!color`. A list with `labelSelector` returns only the matching objects.',
      spec: ['core-object-envelope'],
    },
  ],
  start: {
    namespaces: [ns],
    objects: [
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'red-1', labels: { color: 'red' } } },
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'red-2', labels: { color: 'red', size: 'large' } },
      },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'blue-1', labels: { color: 'blue' } } },
    ],
  },
  steps: [
    {
      id: 'generate-name',
      title: 'Let the server pick a name',
      text: 'Create a ConfigMap in `learn-labels` with `metadata.generateName: note-` and no `name`. The answer shows the name the server made.',
      open: [
        {
          view: 'editor',
          label: 'Editor with a generateName',
          params: {
            text: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  generateName: note-\n  namespace: ${ns}\ndata:\n  text: hello\n`,
          },
        },
      ],
      checks: [
        {
          description: 'A ConfigMap with a generated note- name exists',
          read: { list: { apiVersion: 'v1', resource: 'configmaps', namespace: ns } },
          expect: "items.exists(i, i.metadata.name.startsWith('note-') && has(i.metadata.generateName))",
        },
      ],
      showMe: [
        request('POST', `/api/v1/namespaces/${ns}/configmaps`, {
          body: {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { generateName: 'note-' },
            data: { text: 'hello' },
          },
        }),
      ],
    },
    {
      id: 'label',
      title: 'Label an object',
      text: 'Give `blue-1` the label `tier: web` (edit it in the Editor, or send a patch of `metadata.labels`).',
      open: [
        terminalLink('kubectl label configmap blue-1 tier=web -n learn-labels'),
        {
          view: 'editor',
          label: 'Editor with blue-1',
          params: { path: `/api/v1/namespaces/${ns}/configmaps/blue-1` },
        },
      ],
      checks: [
        objectCheck(
          'blue-1 has the label tier: web',
          configMap(ns, 'blue-1'),
          "object != null && has(object.metadata.labels) && object.metadata.labels['tier'] == 'web'",
        ),
      ],
      showMe: [
        request('PATCH', `/api/v1/namespaces/${ns}/configmaps/blue-1`, {
          contentType: jsonMerge,
          body: { metadata: { labels: { tier: 'web' } } },
        }),
      ],
    },
    {
      id: 'select',
      title: 'Select by label',
      text: 'List only the red ConfigMaps: `GET /api/v1/namespaces/learn-labels/configmaps?labelSelector=color=red`. Try `color in (red,blue)` or `!size` too.',
      open: [
        terminalLink("kubectl get configmaps -n learn-labels -l 'color in (red,blue),!size'"),
        consoleLink('GET', `/api/v1/namespaces/${ns}/configmaps?labelSelector=color%3Dred`),
      ],
      checks: [
        sent(
          'A list with a label selector on color was answered',
          "requests.exists(r, r.method == 'GET' && r.path.endsWith('/configmaps') && 'labelSelector' in r.query && r.query.labelSelector.contains('color') && r.status == 200)",
        ),
      ],
      showMe: [
        request('GET', `/api/v1/namespaces/${ns}/configmaps`, { query: { labelSelector: 'color=red' } }),
      ],
    },
    {
      id: 'bad-name',
      title: 'A name the server refuses',
      text: 'Try to create a ConfigMap named `Hello` (a capital letter). The server answers 422 Invalid and its Status names the field and the rule; the app adds where the offending character is.',
      open: [
        terminalLink('kubectl create configmap under_score -n learn-labels'),
        {
          view: 'editor',
          label: 'Editor with the bad name',
          params: { text: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: Hello\n  namespace: ${ns}\n` },
        },
      ],
      checks: [
        sent(
          'A create was refused with 422 Invalid',
          "requests.exists(r, r.method in ['POST', 'PUT', 'PATCH'] && r.status == 422)",
        ),
      ],
      showMe: [
        request(
          'POST',
          `/api/v1/namespaces/${ns}/configmaps`,
          { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'Hello' } } },
          { expectStatus: [422] },
        ),
      ],
    },
  ],
};
