/** Lesson 16: RBAC — roles, bindings, aggregation, escalation prevention — and impersonation. */

import type { LessonDocument } from '../format';
import { check, consoleLink, request, sent, terminalLink } from './common';

const ns = 'learn-rbac';
const rbac = 'rbac.authorization.orch.io';

export const rbacLesson: LessonDocument = {
  apiVersion: 'sandbox.orch.io/v1',
  kind: 'Lesson',
  id: 'rbac',
  title: 'Who may do what: RBAC and impersonation',
  part: 'Who may do what',
  minutes: 6,
  goal: 'Grant a user exactly what they need with a Role and a RoleBinding, see aggregation fill a ClusterRole, meet escalation prevention, and act as someone else.',
  sections: [
    {
      text: 'A Role lists rules — verbs on resources of API groups, optionally by name — in one namespace; a ClusterRole does so cluster-wide. A RoleBinding or ClusterRoleBinding grants a role to users, groups or service accounts. Nothing is allowed unless some rule allows it.\n\nAn aggregated ClusterRole has an `aggregationRule`: a controller fills its rules from every ClusterRole whose labels match. You cannot grant what you do not hold: creating a role with rules beyond your own is refused (escalation prevention) unless you may `escalate`.\n\nWith the `impersonate` verb, a request can act as another user with `Impersonate-User` (and `Impersonate-Group`); authorization then checks the impersonated user.',
      spec: ['auth-errors', 'auth-impersonation'],
    },
  ],
  start: {
    namespaces: [ns],
    objects: [
      {
        apiVersion: `${rbac}/v1`,
        kind: 'Role',
        metadata: { name: 'role-maker' },
        rules: [
          { apiGroups: [rbac], resources: ['roles', 'rolebindings'], verbs: ['get', 'list', 'create'] },
        ],
      },
      {
        apiVersion: `${rbac}/v1`,
        kind: 'RoleBinding',
        metadata: { name: 'alice-role-maker' },
        roleRef: { apiGroup: rbac, kind: 'Role', name: 'role-maker' },
        subjects: [{ apiGroup: rbac, kind: 'User', name: 'alice' }],
      },
    ],
  },
  cleanup: [
    { apiVersion: `${rbac}/v1`, resource: 'clusterroles', name: 'learn-aggregate' },
    { apiVersion: `${rbac}/v1`, resource: 'clusterroles', name: 'learn-aggregated-part' },
    { apiVersion: `${rbac}/v1`, resource: 'clusterroles', name: 'learn-rbac-reader' },
  ],
  steps: [
    {
      id: 'forbidden',
      title: 'alice may not',
      text: `As alice, list ConfigMaps in \`${ns}\`: 403, and the app explains which rule is missing.`,
      identity: 'alice',
      open: [
        terminalLink('kubectl get configmaps -n learn-rbac'),
        consoleLink('GET', `/api/v1/namespaces/${ns}/configmaps`),
      ],
      checks: [
        sent(
          'alice was refused with 403',
          `requests.exists(r, r.status == 403 && r.path.startsWith('/api/v1/namespaces/${ns}/configmaps'))`,
        ),
      ],
      showMe: [request('GET', `/api/v1/namespaces/${ns}/configmaps`, {}, { expectStatus: [403] })],
    },
    {
      id: 'grant',
      title: 'Grant exactly that',
      text: `As admin, create a Role \`cm-reader\` in \`${ns}\` allowing get, list and watch on configmaps, and a RoleBinding granting it to the user \`alice\`. (Under the 403, **Grant this as admin…** drafts both.)`,
      identity: 'admin',
      checks: [
        check(
          `alice may list configmaps in ${ns}`,
          { access: { user: 'alice', verb: 'list', resource: 'configmaps', namespace: ns } },
          'allowed',
        ),
      ],
      showMe: [
        request('POST', `/apis/${rbac}/v1/namespaces/${ns}/roles`, {
          body: {
            apiVersion: `${rbac}/v1`,
            kind: 'Role',
            metadata: { name: 'cm-reader' },
            rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] }],
          },
        }),
        request('POST', `/apis/${rbac}/v1/namespaces/${ns}/rolebindings`, {
          body: {
            apiVersion: `${rbac}/v1`,
            kind: 'RoleBinding',
            metadata: { name: 'alice-cm-reader' },
            roleRef: { apiGroup: rbac, kind: 'Role', name: 'cm-reader' },
            subjects: [{ apiGroup: rbac, kind: 'User', name: 'alice' }],
          },
        }),
      ],
    },
    {
      id: 'aggregate',
      title: 'An aggregated ClusterRole',
      text: 'Create a ClusterRole `learn-aggregate` with `aggregationRule.clusterRoleSelectors: [{matchLabels: {learn.example.com/aggregate: "true"}}]` and no rules, then a ClusterRole `learn-aggregated-part` with that label and a rule. The controller copies the rule into `learn-aggregate`.',
      identity: 'admin',
      checks: [
        check(
          'learn-aggregate has rules',
          { object: { apiVersion: `${rbac}/v1`, resource: 'clusterroles', name: 'learn-aggregate' } },
          'object != null && has(object.rules) && object.rules.size() > 0',
        ),
      ],
      showMe: [
        request('POST', `/apis/${rbac}/v1/clusterroles`, {
          body: {
            apiVersion: `${rbac}/v1`,
            kind: 'ClusterRole',
            metadata: { name: 'learn-aggregate' },
            aggregationRule: {
              clusterRoleSelectors: [{ matchLabels: { 'learn.example.com/aggregate': 'true' } }],
            },
          },
        }),
        request('POST', `/apis/${rbac}/v1/clusterroles`, {
          body: {
            apiVersion: `${rbac}/v1`,
            kind: 'ClusterRole',
            metadata: { name: 'learn-aggregated-part', labels: { 'learn.example.com/aggregate': 'true' } },
            rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['list'] }],
          },
        }),
      ],
    },
    {
      id: 'escalation',
      title: 'No granting what you do not hold',
      text: `alice may create Roles in \`${ns}\` (the lesson gave her \`role-maker\`). As alice, create a Role that allows deleting secrets: refused with 403, since she cannot delete secrets herself.`,
      identity: 'alice',
      checks: [
        sent(
          'A role beyond alice’s own rights was refused',
          "requests.exists(r, r.method == 'POST' && r.path.endsWith('/roles') && r.status == 403)",
        ),
      ],
      showMe: [
        request(
          'POST',
          `/apis/${rbac}/v1/namespaces/${ns}/roles`,
          {
            body: {
              apiVersion: `${rbac}/v1`,
              kind: 'Role',
              metadata: { name: 'too-much' },
              rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['delete'] }],
            },
          },
          { expectStatus: [403] },
        ),
      ],
    },
    {
      id: 'impersonate',
      title: 'Act as someone else',
      text: `As admin, list ConfigMaps in \`${ns}\` with the header \`Impersonate-User: alice\`: the server authorizes the request as alice. (The identity switcher has an “impersonate” field too.)`,
      identity: 'admin',
      open: [terminalLink('kubectl get configmaps -n learn-rbac --as=alice')],
      checks: [
        sent(
          'A request impersonated alice',
          "requests.exists(r, 'impersonate-user' in r.requestHeaders && r.requestHeaders['impersonate-user'] == 'alice' && r.status != 0)",
        ),
      ],
      showMe: [
        request('GET', `/api/v1/namespaces/${ns}/configmaps`, { headers: { 'impersonate-user': 'alice' } }),
      ],
    },
  ],
};
