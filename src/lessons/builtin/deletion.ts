/** Lesson 11: deletion — finalizers, owner references and garbage collection, the namespace cascade. */

import type { LessonDocument } from '../format';
import { check, configMap, jsonMerge, request, terminalLink } from './common';

const ns = 'learn-deletion';
const scratch = 'learn-deletion-scratch';
const cms = `/api/v1/namespaces/${ns}/configmaps`;

export const deletion: LessonDocument = {
  apiVersion: 'sandbox.orch.io/v1',
  kind: 'Lesson',
  id: 'deletion',
  title: 'Deletion, finalizers and garbage collection',
  part: 'Following change',
  minutes: 5,
  goal: 'See an object wait for its finalizers, let the garbage collector delete what an owner leaves behind, and delete a namespace with its contents.',
  sections: [
    {
      text: 'A delete request sets `metadata.deletionTimestamp`; the object stays, terminating, while `metadata.finalizers` lists work someone still has to do. Whoever does the work removes their entry; when the list is empty the object is gone. No order between finalizers is kept.\n\nAn object can name owners in `metadata.ownerReferences` (by name and uid). When the owner goes, the garbage collector deletes the dependents — in the background by default, or first with `propagationPolicy: Foreground`. Deleting a namespace deletes everything in it before the namespace itself goes.',
      spec: ['core-states-and-transitions'],
    },
  ],
  start: {
    namespaces: [ns, scratch],
    objects: [
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'guarded', finalizers: ['learn.example.com/keep'] },
      },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'parent' } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'inside', namespace: scratch } },
    ],
  },
  steps: [
    {
      id: 'terminating',
      title: 'A delete that waits',
      text: 'Delete `guarded`. It is still there: it has a `deletionTimestamp` now and waits for its finalizer `learn.example.com/keep`.',
      open: [
        terminalLink('kubectl delete configmap guarded -n learn-deletion --wait=false'),
        {
          view: 'explorer',
          label: 'Explorer on learn-deletion',
          params: { kind: 'v1/configmaps', ns, name: 'guarded' },
        },
      ],
      checks: [
        check(
          'guarded is terminating',
          { object: configMap(ns, 'guarded') },
          'object != null && has(object.metadata.deletionTimestamp)',
        ),
      ],
      showMe: [request('DELETE', `${cms}/guarded`)],
    },
    {
      id: 'finalize',
      title: 'Finish the work',
      text: 'Remove the finalizer (edit `metadata.finalizers` away, or patch it to `null`). With the list empty, the object goes.',
      open: [
        terminalLink(
          'kubectl patch configmap guarded -n learn-deletion --type=merge -p \'{"metadata":{"finalizers":null}}\'',
        ),
        { view: 'editor', label: 'Editor with guarded', params: { path: `${cms}/guarded` } },
      ],
      checks: [check('guarded is gone', { object: configMap(ns, 'guarded') }, 'object == null')],
      showMe: [
        request('PATCH', `${cms}/guarded`, {
          contentType: jsonMerge,
          body: { metadata: { finalizers: null } },
        }),
      ],
    },
    {
      id: 'owner',
      title: 'An owned object',
      text: 'Create a ConfigMap `child` whose `metadata.ownerReferences` names `parent`: `apiVersion: v1`, `kind: ConfigMap`, `name: parent` and parent’s `uid` (read it first).',
      checks: [
        check(
          'child is owned by parent',
          { object: configMap(ns, 'child') },
          "object != null && has(object.metadata.ownerReferences) && object.metadata.ownerReferences.exists(o, o.name == 'parent')",
        ),
      ],
      showMe: [
        request('GET', `${cms}/parent`, {}, { capture: { uid: 'response.body.metadata.uid' } }),
        request('POST', cms, {
          body: {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: {
              name: 'child',
              ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'parent', uid: '${uid}' }],
            },
          },
        }),
      ],
    },
    {
      id: 'collect',
      title: 'The owner goes, and so does its dependent',
      text: 'Delete `parent`. The garbage collector deletes `child` after it.',
      open: [terminalLink('kubectl delete configmap parent -n learn-deletion')],
      checks: [
        check('parent is gone', { object: configMap(ns, 'parent') }, 'object == null'),
        check('child was collected', { object: configMap(ns, 'child') }, 'object == null'),
      ],
      showMe: [request('DELETE', `${cms}/parent`)],
    },
    {
      id: 'namespace',
      title: 'A namespace and its contents',
      text: `Delete the namespace \`${scratch}\`. It terminates while its ConfigMap \`inside\` is deleted, then goes.`,
      open: [terminalLink('kubectl delete namespace learn-deletion-scratch')],
      checks: [
        check(
          `${scratch} is gone`,
          { object: { apiVersion: 'v1', resource: 'namespaces', name: scratch } },
          'object == null',
        ),
      ],
      showMe: [request('DELETE', `/api/v1/namespaces/${scratch}`)],
    },
  ],
};
