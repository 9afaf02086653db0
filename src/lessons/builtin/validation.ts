/** Lesson 7: field validation (Warn, Strict), defaulting and dry run. */

import type { LessonDocument } from '../format';
import { check, request, sent, terminalLink } from './common';

const ns = 'learn-validation';
const cms = `/api/v1/namespaces/${ns}/configmaps`;
const services = `/api/v1/namespaces/${ns}/services`;
const preview = { apiVersion: 'v1', resource: 'services', namespace: ns, name: 'preview' };

export const validation: LessonDocument = {
  apiVersion: 'sandbox.orch.io/v1',
  kind: 'Lesson',
  id: 'validation',
  title: 'Validation, defaults and dry run',
  part: 'Reading and writing',
  minutes: 4,
  goal: 'Choose how strictly unknown fields are treated, see the defaults the server fills in, and preview a write without storing it.',
  sections: [
    {
      text: 'Types are always checked. Fields the schema does not know are dropped — silently with `fieldValidation=Ignore`, with one `Warning` header per field under `Warn` (the default), or refused with 400 under `Strict`.\n\nThe server fills in defaults (a Service’s `type`, `sessionAffinity`, `clusterIP`). With `dryRun=All` a write runs every stage — admission, defaulting, validation — and answers with the object it would have stored, but stores nothing.',
      spec: ['core-field-validation', 'core-dry-run'],
    },
  ],
  start: { namespaces: [ns] },
  steps: [
    {
      id: 'warn',
      title: 'An unknown field, with a warning',
      text: 'Create a ConfigMap with a field ConfigMaps do not have, such as `colour: red` at the top level. It is created, the field is dropped, and the answer carries a `Warning` header naming it (the Console shows it).',
      open: [
        {
          view: 'console',
          label: 'Console: POST a ConfigMap',
          params: {
            method: 'POST',
            path: cms,
            body: '{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "warned"}, "colour": "red"}',
          },
        },
      ],
      checks: [
        sent(
          'A create succeeded with a Warning',
          "requests.exists(r, r.method == 'POST' && r.status == 201 && r.warnings.size() > 0)",
        ),
      ],
      showMe: [
        request('POST', cms, {
          body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'warned' }, colour: 'red' },
        }),
      ],
    },
    {
      id: 'strict',
      title: 'The same, strictly',
      text: 'Send a create with an unknown field again, this time with `?fieldValidation=Strict`: 400 Bad Request, and nothing is created.',
      open: [
        {
          view: 'console',
          label: 'Console: POST strictly',
          params: {
            method: 'POST',
            path: `${cms}?fieldValidation=Strict`,
            body: '{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "strict"}, "colour": "red"}',
          },
        },
      ],
      checks: [
        sent(
          'A strict write was refused with 400',
          "requests.exists(r, r.status == 400 && 'fieldValidation' in r.query && r.query.fieldValidation == 'Strict')",
        ),
      ],
      showMe: [
        request(
          'POST',
          cms,
          {
            query: { fieldValidation: 'Strict' },
            body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'strict' }, colour: 'red' },
          },
          { expectStatus: [400] },
        ),
      ],
    },
    {
      id: 'dry-run',
      title: 'Preview a write',
      text: 'Create a Service named `preview` with `?dryRun=All`. The answer shows the defaults the server filled in (`type`, `sessionAffinity`, a `clusterIP`) — and `preview` does not exist afterwards. The Editor’s Create… does exactly this before it asks you to confirm.',
      open: [
        terminalLink(
          'kubectl create service clusterip preview --tcp=80 -n learn-validation --dry-run=server -o yaml',
        ),
        {
          view: 'console',
          label: 'Console: dry-run POST',
          params: {
            method: 'POST',
            path: `${services}?dryRun=All`,
            body: '{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "preview"}, "spec": {"ports": [{"port": 80}]}}',
          },
        },
      ],
      hints: [
        'Body: `{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "preview"}, "spec": {"ports": [{"port": 80}]}}`.',
      ],
      checks: [
        sent(
          'A dry-run write of a Service was answered',
          "requests.exists(r, r.method in ['POST', 'PATCH', 'PUT'] && r.path.contains('/services') && 'dryRun' in r.query && r.query.dryRun == 'All' && r.status in [200, 201])",
        ),
        check('preview was not stored', { object: preview }, 'object == null'),
      ],
      showMe: [
        request('POST', services, {
          query: { dryRun: 'All' },
          body: {
            apiVersion: 'v1',
            kind: 'Service',
            metadata: { name: 'preview' },
            spec: { ports: [{ port: 80 }] },
          },
        }),
      ],
    },
    {
      id: 'defaults',
      title: 'Store it and find the defaults',
      text: 'Now create `preview` for real, sending only its ports. Read it back: `spec.type` is `ClusterIP` and `spec.sessionAffinity` is `None` though you sent neither.',
      open: [
        {
          view: 'console',
          label: 'Console: POST the Service',
          params: {
            method: 'POST',
            path: services,
            body: '{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "preview"}, "spec": {"ports": [{"port": 80}]}}',
          },
        },
      ],
      checks: [
        check(
          'preview is stored with its defaults',
          { object: preview },
          "object != null && object.spec.type == 'ClusterIP' && object.spec.sessionAffinity == 'None'",
        ),
      ],
      showMe: [
        request('POST', services, {
          body: {
            apiVersion: 'v1',
            kind: 'Service',
            metadata: { name: 'preview' },
            spec: { ports: [{ port: 80 }] },
          },
        }),
      ],
    },
  ],
};
