/** Lesson 6: the three patch types (JSON merge, JSON patch, strategic merge). */

import type { LessonDocument } from '../format';
import {
  check,
  configMap,
  jsonMerge,
  jsonPatch,
  objectCheck,
  request,
  sent,
  strategicMerge,
  terminalLink,
} from './common';

const ns = 'learn-patches';
const cmPath = `/api/v1/namespaces/${ns}/configmaps/settings`;
const svcPath = `/api/v1/namespaces/${ns}/services/web`;
const service = { apiVersion: 'v1', resource: 'services', namespace: ns, name: 'web' };

export const patches: LessonDocument = {
  apiVersion: 'sandbox.orch.io/v1',
  kind: 'Lesson',
  id: 'patches',
  title: 'Three ways to patch',
  part: 'Reading and writing',
  minutes: 4,
  goal: 'Change part of an object with a JSON merge patch, a JSON patch and a strategic merge patch, and know how each treats lists.',
  sections: [
    {
      text: 'A PATCH sends only a change; its `Content-Type` says how to read it.\n\n**JSON merge patch** (`application/merge-patch+json`) looks like the object: keys present are set, `null` removes a key, and a list is replaced whole. **JSON patch** (`application/json-patch+json`) is a list of operations — `add`, `remove`, `replace`, `move`, `copy`, `test` — on paths like `/data/size`; a failing `test` stops the whole patch. **Strategic merge patch** (`application/strategic-merge-patch+json`) is a merge patch that knows the built-in kinds: lists such as a Service’s `ports` merge by a key (`port`) instead of being replaced.',
      spec: ['core-verbs', 'core-content-negotiation'],
    },
  ],
  start: {
    namespaces: [ns],
    objects: [
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'settings' },
        data: { color: 'blue', size: 'small' },
      },
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'web' },
        spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80 }] },
      },
    ],
  },
  steps: [
    {
      id: 'merge',
      title: 'A JSON merge patch',
      text: `Send \`PATCH ${cmPath}\` with \`Content-Type: application/merge-patch+json\` that sets \`size\` to \`large\` and removes \`color\` (a \`null\` value removes a key).`,
      open: [
        terminalLink(
          'kubectl patch configmap settings -n learn-patches --type=merge -p \'{"data":{"size":"large","color":null}}\'',
        ),
        {
          view: 'console',
          label: 'Console with the PATCH',
          params: {
            method: 'PATCH',
            path: cmPath,
            contentType: jsonMerge,
            body: '{"data": {"size": "large", "color": null}}',
          },
        },
      ],
      hints: ['Body: `{"data": {"size": "large", "color": null}}`.'],
      checks: [
        objectCheck(
          'settings has size: large and no color',
          configMap(ns, 'settings'),
          "object != null && object.data.size == 'large' && !('color' in object.data)",
        ),
        sent(
          'It was a merge patch',
          "requests.exists(r, r.method == 'PATCH' && r.requestHeaders['content-type'].startsWith('application/merge-patch+json') && r.status == 200)",
        ),
      ],
      showMe: [
        request('PATCH', cmPath, { contentType: jsonMerge, body: { data: { size: 'large', color: null } } }),
      ],
    },
    {
      id: 'json-patch',
      title: 'A JSON patch with a test',
      text: 'Add `mode: dark` with a JSON patch, guarded so it only applies while `size` is still `large`: `[{"op": "test", "path": "/data/size", "value": "large"}, {"op": "add", "path": "/data/mode", "value": "dark"}]`.',
      open: [
        {
          view: 'console',
          label: 'Console with the PATCH',
          params: {
            method: 'PATCH',
            path: cmPath,
            contentType: jsonPatch,
            body: '[{"op": "test", "path": "/data/size", "value": "large"}, {"op": "add", "path": "/data/mode", "value": "dark"}]',
          },
        },
      ],
      checks: [
        objectCheck(
          'settings has mode: dark',
          configMap(ns, 'settings'),
          "object != null && object.data.mode == 'dark'",
        ),
        sent(
          'It was a JSON patch',
          "requests.exists(r, r.method == 'PATCH' && r.requestHeaders['content-type'].startsWith('application/json-patch+json') && r.status == 200)",
        ),
      ],
      showMe: [
        request('PATCH', cmPath, {
          contentType: jsonPatch,
          body: [
            { op: 'test', path: '/data/size', value: 'large' },
            { op: 'add', path: '/data/mode', value: 'dark' },
          ],
        }),
      ],
    },
    {
      id: 'strategic',
      title: 'A strategic merge patch on a list',
      text: `Add a second port to the Service \`web\` without repeating the first: \`PATCH ${svcPath}\` with \`Content-Type: application/strategic-merge-patch+json\` and only the new port in \`spec.ports\`. The ports merge by their \`port\` number.`,
      open: [
        terminalLink(
          'kubectl patch service web -n learn-patches -p \'{"spec":{"ports":[{"name":"https","port":443}]}}\'',
        ),
        {
          view: 'console',
          label: 'Console with the PATCH',
          params: {
            method: 'PATCH',
            path: svcPath,
            contentType: strategicMerge,
            body: '{"spec": {"ports": [{"name": "https", "port": 443}]}}',
          },
        },
      ],
      hints: ['Body: `{"spec": {"ports": [{"name": "https", "port": 443}]}}`.'],
      checks: [
        check(
          'web has two ports, 80 among them',
          { object: service },
          'object != null && object.spec.ports.size() == 2 && object.spec.ports.exists(p, p.port == 80)',
        ),
        sent(
          'It was a strategic merge patch',
          "requests.exists(r, r.method == 'PATCH' && r.requestHeaders['content-type'].startsWith('application/strategic-merge-patch+json') && r.status == 200)",
        ),
      ],
      showMe: [
        request('PATCH', svcPath, {
          contentType: strategicMerge,
          body: { spec: { ports: [{ name: 'https', port: 443 }] } },
        }),
      ],
    },
    {
      id: 'merge-list',
      title: 'The same list, merge patched',
      text: 'Now send one port in `spec.ports` as a JSON merge patch: the list is replaced whole, so the Service is left with that one port.',
      open: [
        {
          view: 'console',
          label: 'Console with the PATCH',
          params: {
            method: 'PATCH',
            path: svcPath,
            contentType: jsonMerge,
            body: '{"spec": {"ports": [{"name": "https", "port": 443}]}}',
          },
        },
      ],
      checks: [
        check(
          'web has one port left',
          { object: service },
          'object != null && object.spec.ports.size() == 1',
        ),
        sent(
          'It was a merge patch of the Service',
          "requests.exists(r, r.method == 'PATCH' && r.path.endsWith('/services/web') && r.requestHeaders['content-type'].startsWith('application/merge-patch+json') && r.status == 200)",
        ),
      ],
      showMe: [
        request('PATCH', svcPath, {
          contentType: jsonMerge,
          body: { spec: { ports: [{ name: 'https', port: 443 }] } },
        }),
      ],
    },
  ],
};
