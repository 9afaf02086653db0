/** Lesson 2: discovery, groups and versions, paths and scopes. */

import type { LessonDocument } from '../format';
import { configMap, consoleLink, objectCheck, request, sent, terminalLink } from './common';

export const apiShape: LessonDocument = {
  apiVersion: 'sandbox.orch.io/v1',
  kind: 'Lesson',
  id: 'api-shape',
  title: 'The shape of the API',
  part: 'Finding your way',
  minutes: 3,
  goal: 'Find what the server serves by asking it, and build any object’s URL from its group, version, resource, namespace and name.',
  sections: [
    {
      text: 'The server describes itself. `GET /api` and `GET /apis` list the groups and their versions; `GET /api/v1` or `GET /apis/<group>/<version>` lists the resources of one group version, each with its kind, whether it is namespaced, and its verbs. Clients read this (discovery) instead of hard-coding URLs.\n\nThe core group has no name and lives under `/api/v1`; every other group under `/apis/<group>/<version>`. A namespaced resource adds `/namespaces/<ns>` before the resource; a cluster-scoped one (Namespace, ClusterRole, CustomResourceDefinition) does not.',
      spec: ['core-path-shapes', 'core-object-envelope'],
    },
  ],
  start: { namespaces: ['learn-shape'] },
  steps: [
    {
      id: 'core-group',
      title: 'Ask what the core group serves',
      text: 'Send `GET /api/v1` in the Console. Find `configmaps` in the answer: its `kind` is `ConfigMap`, `namespaced` is true, and `verbs` lists what you may send.',
      open: [consoleLink('GET', '/api/v1'), terminalLink('kubectl api-resources --api-group=""')],
      hints: ['`GET /api` alone lists the core versions (just `v1`).'],
      checks: [
        sent(
          'The core group was read by discovery',
          "requests.exists(r, r.method == 'GET' && (r.path == '/api' || r.path == '/api/v1') && r.status == 200)",
        ),
      ],
      showMe: [request('GET', '/api/v1')],
    },
    {
      id: 'named-groups',
      title: 'List the named groups',
      text: 'Send `GET /apis`: every named group with its versions and the preferred one. Pick a group, say `rbac.authorization.orch.io`, and read its version list with `GET /apis/rbac.authorization.orch.io/v1`.',
      open: [consoleLink('GET', '/apis'), terminalLink('kubectl api-versions')],
      checks: [
        sent(
          'A named group or the group list was read',
          "requests.exists(r, r.method == 'GET' && r.path.startsWith('/apis') && r.path.split('/').size() <= 4 && r.status == 200)",
        ),
      ],
      showMe: [request('GET', '/apis')],
    },
    {
      id: 'namespaced-path',
      title: 'Write to a namespaced path',
      text: 'Create a ConfigMap named `first` in `learn-shape` by POSTing it to its collection: `/api/v1/namespaces/learn-shape/configmaps`. The Console link has the path ready; put the object in the body.',
      open: [
        {
          view: 'console',
          label: 'Console: POST to the collection',
          params: { method: 'POST', path: '/api/v1/namespaces/learn-shape/configmaps' },
        },
      ],
      hints: ['A minimal body: `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "first"}}`.'],
      checks: [
        objectCheck(
          'ConfigMap first exists in learn-shape',
          configMap('learn-shape', 'first'),
          'object != null',
        ),
      ],
      showMe: [
        request('POST', '/api/v1/namespaces/learn-shape/configmaps', {
          body: {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: 'first' },
            data: { shape: 'namespaced' },
          },
        }),
      ],
    },
    {
      id: 'all-namespaces',
      title: 'Read across every namespace',
      text: 'A namespaced resource can also be listed across all namespaces: leave the namespace out of the path. Send `GET /api/v1/configmaps` and notice the items come from several namespaces.',
      open: [
        consoleLink('GET', '/api/v1/configmaps'),
        terminalLink('kubectl get configmaps --all-namespaces'),
      ],
      checks: [
        sent(
          'ConfigMaps were listed across all namespaces',
          "requests.exists(r, r.method == 'GET' && r.path == '/api/v1/configmaps' && r.status == 200)",
        ),
      ],
      showMe: [request('GET', '/api/v1/configmaps')],
    },
  ],
};
