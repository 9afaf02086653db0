/** Lesson 1: the sandbox itself — a first object created, changed and deleted, and where to see what was sent. */

import type { LessonDocument } from '../format';
import { terminalLink } from './common';

export const welcome: LessonDocument = {
  apiVersion: 'sandbox.orch.io/v1',
  kind: 'Lesson',
  id: 'welcome',
  title: 'Your first object',
  part: 'Finding your way',
  minutes: 2,
  goal: 'Create, change and delete an object, and see the requests the app sent for you.',
  sections: [
    {
      text: 'Everything in this app talks to a real API server running inside this browser tab. Each view sends ordinary HTTP requests — the header counts them — and the Console lists every one with its answer.\n\nAn object is a JSON document with `apiVersion`, `kind` and `metadata`. A ConfigMap is the simplest: a name and a map of strings under `data`.',
      spec: ['core-object-envelope'],
    },
  ],
  start: { namespaces: ['learn-welcome'] },
  steps: [
    {
      id: 'create',
      title: 'Create a ConfigMap',
      text: 'Create a ConfigMap named `hello` in the namespace `learn-welcome` whose data holds `answer: "42"`. The Editor link below opens with the object ready: press **Create…**, look at the preview, then confirm.',
      open: [
        terminalLink('kubectl create configmap hello --from-literal=answer=42 -n learn-welcome'),
        {
          view: 'editor',
          label: 'Editor with the ConfigMap',
          params: {
            text: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: hello\n  namespace: learn-welcome\ndata:\n  answer: "42"\n',
          },
        },
        {
          view: 'explorer',
          label: 'Explorer on learn-welcome',
          params: { kind: 'v1/configmaps', ns: 'learn-welcome' },
        },
      ],
      hints: [
        'Quote the value: `answer: 42` would be a number, and ConfigMap data holds strings only (the server says so with a 400).',
      ],
      checks: [
        {
          description: 'ConfigMap hello holds answer: "42"',
          read: {
            object: { apiVersion: 'v1', resource: 'configmaps', namespace: 'learn-welcome', name: 'hello' },
          },
          expect: "object != null && has(object.data) && object.data.answer == '42'",
        },
      ],
      showMe: [
        {
          request: {
            method: 'POST',
            path: '/api/v1/namespaces/learn-welcome/configmaps',
            body: {
              apiVersion: 'v1',
              kind: 'ConfigMap',
              metadata: { name: 'hello', namespace: 'learn-welcome' },
              data: { answer: '42' },
            },
          },
        },
      ],
    },
    {
      id: 'change',
      title: 'Change it',
      text: 'Change `answer` to `"43"`. In the Explorer open `hello` and choose **Edit in editor**, or load it in the Editor below; press **Update…** and confirm. The server answers with the stored object and a new `resourceVersion`.',
      open: [
        terminalLink('kubectl patch configmap hello -n learn-welcome -p \'{"data":{"answer":"43"}}\''),
        {
          view: 'editor',
          label: 'Editor with hello',
          params: { path: '/api/v1/namespaces/learn-welcome/configmaps/hello' },
        },
      ],
      checks: [
        {
          description: 'ConfigMap hello holds answer: "43"',
          read: {
            object: { apiVersion: 'v1', resource: 'configmaps', namespace: 'learn-welcome', name: 'hello' },
          },
          expect: "object != null && has(object.data) && object.data.answer == '43'",
        },
      ],
      showMe: [
        {
          request: {
            method: 'PATCH',
            path: '/api/v1/namespaces/learn-welcome/configmaps/hello',
            contentType: 'application/merge-patch+json',
            body: { data: { answer: '43' } },
          },
        },
      ],
    },
    {
      id: 'requests',
      title: 'See what was sent',
      text: 'Open the Console: on the right is the log of every request the app sent, newest last. Find the write that changed `hello` and open it to see its method, path, headers and the answer. Then send one request yourself: a `GET` of `/api/v1/namespaces/learn-welcome/configmaps/hello`.',
      open: [
        terminalLink('kubectl get configmap hello -n learn-welcome -o yaml'),
        {
          view: 'console',
          label: 'Console with the GET ready',
          params: { method: 'GET', path: '/api/v1/namespaces/learn-welcome/configmaps/hello' },
        },
      ],
      checks: [
        {
          description: 'A GET of hello was answered 200',
          read: { requests: {} },
          expect:
            "requests.exists(r, r.method == 'GET' && r.path == '/api/v1/namespaces/learn-welcome/configmaps/hello' && r.status == 200)",
        },
      ],
      showMe: [{ request: { method: 'GET', path: '/api/v1/namespaces/learn-welcome/configmaps/hello' } }],
    },
    {
      id: 'delete',
      title: 'Delete it',
      text: 'Delete `hello` (the Explorer’s **Delete** names what the deletion reaches first). A ConfigMap has no finalizers, so it is gone at once.',
      open: [
        terminalLink('kubectl delete configmap hello -n learn-welcome'),
        {
          view: 'explorer',
          label: 'Explorer on learn-welcome',
          params: { kind: 'v1/configmaps', ns: 'learn-welcome' },
        },
      ],
      checks: [
        {
          description: 'ConfigMap hello no longer exists',
          read: {
            object: { apiVersion: 'v1', resource: 'configmaps', namespace: 'learn-welcome', name: 'hello' },
          },
          expect: 'object == null',
        },
      ],
      showMe: [{ request: { method: 'DELETE', path: '/api/v1/namespaces/learn-welcome/configmaps/hello' } }],
    },
  ],
};
