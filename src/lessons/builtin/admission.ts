/** Lesson 20: built-in admission — PodSecurity, LimitRanger, ResourceQuota — and the trace of a write. */

import type { LessonDocument } from '../format';
import { check, request, sent } from './common';

const ns = 'learn-admission';
const pods = `/api/v1/namespaces/${ns}/pods`;

/** A pod the restricted Pod Security level accepts. */
const restrictedPod = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: {
    securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
    containers: [
      {
        name: 'app',
        image: 'registry.example.com/app:1',
        securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
      },
    ],
  },
});

export const admission: LessonDocument = {
  apiVersion: 'sandbox.orch.io/v1',
  kind: 'Lesson',
  id: 'admission',
  title: 'Admission: Pod Security, limits and quota',
  part: 'Admission',
  minutes: 5,
  goal: 'See built-in admission refuse, change and count writes, and read the admission trace of a write step by step.',
  sections: [
    {
      text: 'Between authorization and storage, each write passes admission: mutating plugins may change the object, then validating ones may refuse it. **PodSecurity** checks pods against the level a namespace’s `pod-security.orch.io/enforce` label names (`privileged`, `baseline`, `restricted`). **LimitRanger** fills in default resource requests from the namespace’s LimitRange. **ResourceQuota** refuses what would exceed the namespace’s quota.\n\nThe Traces view draws every write’s admission chain: each plugin, what it changed (as a JSON patch) and who refused.',
      spec: ['auth-admission'],
    },
  ],
  start: {
    namespaces: [ns],
    objects: [
      {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: ns, labels: { 'pod-security.orch.io/enforce': 'restricted' } },
      },
      {
        apiVersion: 'v1',
        kind: 'LimitRange',
        metadata: { name: 'defaults' },
        spec: { limits: [{ type: 'Container', defaultRequest: { cpu: '100m' }, default: { cpu: '200m' } }] },
      },
      {
        apiVersion: 'v1',
        kind: 'ResourceQuota',
        metadata: { name: 'one-pod' },
        spec: { hard: { pods: '1' } },
      },
    ],
  },
  steps: [
    {
      id: 'pod-security',
      title: 'Refused by Pod Security',
      text: `Create a privileged pod in \`${ns}\` (a container with \`securityContext.privileged: true\`). The namespace enforces the restricted level: 403, naming each rule the pod breaks.`,
      open: [
        {
          view: 'editor',
          label: 'Editor with a privileged pod',
          params: {
            text: `apiVersion: v1\nkind: Pod\nmetadata:\n  name: root\n  namespace: ${ns}\nspec:\n  containers:\n  - name: app\n    image: busybox\n    securityContext:\n      privileged: true\n`,
          },
        },
      ],
      checks: [
        sent(
          'A pod was refused by PodSecurity',
          "requests.exists(r, r.method == 'POST' && r.path.endsWith('/pods') && r.status == 403 && r.message.contains('PodSecurity'))",
        ),
      ],
      showMe: [
        request(
          'POST',
          pods,
          {
            body: {
              apiVersion: 'v1',
              kind: 'Pod',
              metadata: { name: 'root' },
              spec: {
                containers: [{ name: 'app', image: 'busybox', securityContext: { privileged: true } }],
              },
            },
          },
          { expectStatus: [403] },
        ),
      ],
    },
    {
      id: 'limit-range',
      title: 'Defaults from a LimitRange',
      text: 'Create a pod that meets the restricted level and sets no resources (the Editor link has one). LimitRanger fills in `resources.requests.cpu: 100m`; open the write’s admission trace in the Traces view to see its patch.',
      open: [
        {
          view: 'editor',
          label: 'Editor with a restricted pod',
          params: {
            text: `apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  namespace: ${ns}\nspec:\n  securityContext:\n    runAsNonRoot: true\n    seccompProfile:\n      type: RuntimeDefault\n  containers:\n  - name: app\n    image: registry.example.com/app:1\n    securityContext:\n      allowPrivilegeEscalation: false\n      capabilities:\n        drop: [ALL]\n`,
          },
        },
        { view: 'traces', label: 'Traces' },
      ],
      checks: [
        check(
          'LimitRanger changed the last pod written',
          { trace: { pathContains: '/pods' } },
          "trace != null && trace.code == 201 && trace.steps.exists(s, s.name == 'LimitRanger' && s.decision == 'patched')",
        ),
      ],
      showMe: [request('POST', pods, { body: restrictedPod('web') })],
    },
    {
      id: 'quota',
      title: 'Over the quota',
      text: 'The namespace’s ResourceQuota allows one pod. Create a second: 403, exceeded quota.',
      checks: [
        sent(
          'A pod was refused for the quota',
          "requests.exists(r, r.method == 'POST' && r.path.endsWith('/pods') && r.status == 403 && r.message.contains('exceeded quota'))",
        ),
      ],
      showMe: [request('POST', pods, { body: restrictedPod('web-2') }, { expectStatus: [403] })],
    },
  ],
};
