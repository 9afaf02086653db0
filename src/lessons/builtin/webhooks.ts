/** Lesson 21: admission webhooks written in the Webhooks view, then the same idea in CEL: ValidatingAdmissionPolicy. */

import type { LessonDocument } from '../format';
import { check, consoleLink, request, sent } from './common';

const ns = 'learn-webhooks';
const backend = 'learn-guard';
const configuration = `backend-${backend}`;
const policy = 'learn-owner-label';
const admissionGroup = 'admissionregistration.orch.io';
const alphaVersion = `${admissionGroup}/v1alpha1`;
const policyLabel = 'learn.example.com/owner-required';

const backendDocument = {
  name: backend,
  kind: 'rules',
  rules: [
    {
      when: `object != null && object.metadata.namespace == '${ns}' && has(object.data) && 'password' in object.data`,
      allowed: false,
      code: 403,
      message: 'a password belongs in a Secret, not a ConfigMap',
    },
  ],
};

const backendYaml = `name: ${backend}
kind: rules
rules:
- when: >-
    object != null && object.metadata.namespace == '${ns}'
    && has(object.data) && 'password' in object.data
  allowed: false
  code: 403
  message: a password belongs in a Secret, not a ConfigMap
`;

const webhookConfiguration = {
  apiVersion: `${admissionGroup}/v1`,
  kind: 'ValidatingWebhookConfiguration',
  metadata: { name: configuration },
  webhooks: [
    {
      name: `${backend}.webhooks.sandbox.invalid`,
      clientConfig: { url: `https://${backend}.webhooks.sandbox.invalid/` },
      rules: [
        { operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] },
      ],
      failurePolicy: 'Fail',
      sideEffects: 'None',
      admissionReviewVersions: ['v1'],
      timeoutSeconds: 5,
    },
  ],
};

const policyObject = {
  apiVersion: alphaVersion,
  kind: 'ValidatingAdmissionPolicy',
  metadata: { name: policy },
  spec: {
    failurePolicy: 'Fail',
    matchConstraints: {
      resourceRules: [
        { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['configmaps'] },
      ],
    },
    validations: [
      {
        expression: "has(object.metadata.labels) && 'owner' in object.metadata.labels",
        message: 'ConfigMaps here need an owner label',
      },
    ],
  },
};

const bindingObject = {
  apiVersion: alphaVersion,
  kind: 'ValidatingAdmissionPolicyBinding',
  metadata: { name: policy },
  spec: {
    policyName: policy,
    validationActions: ['Deny'],
    matchResources: { namespaceSelector: { matchLabels: { [policyLabel]: 'true' } } },
  },
};

const policyYaml = `apiVersion: ${alphaVersion}
kind: ValidatingAdmissionPolicy
metadata:
  name: ${policy}
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: [v1]
      operations: [CREATE, UPDATE]
      resources: [configmaps]
  validations:
  - expression: has(object.metadata.labels) && 'owner' in object.metadata.labels
    message: ConfigMaps here need an owner label
`;

const bindingYaml = `apiVersion: ${alphaVersion}
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: ${policy}
spec:
  policyName: ${policy}
  validationActions: [Deny]
  matchResources:
    namespaceSelector:
      matchLabels:
        ${policyLabel}: "true"
`;

const settingsBody = (runtimeConfig: string) => ({
  runtimeConfig,
  featureGates: { ValidatingAdmissionPolicy: true },
});

export const webhooks: LessonDocument = {
  apiVersion: 'sandbox.orch.io/v1',
  kind: 'Lesson',
  id: 'webhooks',
  title: 'Webhooks and ValidatingAdmissionPolicy',
  part: 'Admission',
  minutes: 7,
  goal: 'Write an admission webhook in the Webhooks view, wire it to a resource and see it refuse a write; then express a rule as a ValidatingAdmissionPolicy, evaluated in the server with no webhook at all.',
  sections: [
    {
      title: 'Webhooks',
      text: 'Admission can call out. A ValidatingWebhookConfiguration lists webhooks: which operations on which resources they want (`rules`, narrowed by namespace and object selectors), where to send them (`clientConfig`: an https URL or a Service), and what happens when the call fails (`failurePolicy`). For each matching write the server POSTs an AdmissionReview — who asks, the operation, the object and the old one — and the webhook answers with the same review, `response.allowed` and, when it refuses, a status code and message the client sees. Validating webhooks run in parallel and cannot change the object; mutating ones run first, in order, and may return a JSON patch.\n\nA workshop has no webhook server, so the sandbox hosts backends: in the Webhooks view, a backend is a list of CEL rules (or a JavaScript function) answering at `https://<name>.webhooks.sandbox.invalid/`. The Traces view shows each call with the exact AdmissionReview sent and received.',
      spec: ['auth-webhooks', 'auth-admission'],
    },
    {
      title: 'Policies in CEL',
      text: 'A ValidatingAdmissionPolicy says the same kind of thing without a network call: `matchConstraints` choose the requests, `validations` are CEL expressions over `object`, `oldObject`, `request` (and `params`), each with a message. It does nothing until a ValidatingAdmissionPolicyBinding binds it, with `validationActions` (`Deny`, `Warn`, `Audit`) and, optionally, narrower `matchResources`. In v1.27 it is alpha: the version `admissionregistration.orch.io/v1alpha1` and the feature gate `ValidatingAdmissionPolicy` must both be on — here, in Workshop → Settings.',
      spec: ['auth-admission', 'core-cel', 'core-versioning'],
    },
  ],
  start: {
    namespaces: [ns],
    objects: [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: { [policyLabel]: 'true' } } },
    ],
  },
  cleanup: [
    {
      apiVersion: `${admissionGroup}/v1`,
      resource: 'validatingwebhookconfigurations',
      name: configuration,
    },
    { apiVersion: alphaVersion, resource: 'validatingadmissionpolicybindings', name: policy },
    { apiVersion: alphaVersion, resource: 'validatingadmissionpolicies', name: policy },
  ],
  steps: [
    {
      id: 'backend',
      title: 'Write a backend',
      text: `In the Webhooks view, save the backend \`${backend}\` (the link opens the editor with it): one rule refusing, with 403, a ConfigMap in \`${ns}\` whose data has a \`password\` key. Anything no rule matches is allowed.`,
      open: [{ view: 'webhooks', label: 'Webhooks with the backend', params: { text: backendYaml } }],
      hints: ['`object` is null for a DELETE: test it first, or the rule fails and the call with it.'],
      checks: [
        check(
          `The sandbox hosts the backend ${backend}`,
          { http: { path: `/sandbox/v1/webhook-backends/${backend}` } },
          "response.status == 200 && response.body.kind in ['rules', 'javascript']",
        ),
      ],
      showMe: [request('PUT', `/sandbox/v1/webhook-backends/${backend}`, { body: backendDocument })],
    },
    {
      id: 'wire',
      title: 'Wire it to ConfigMaps',
      text: `In **Wire it up**, send the validating calls for \`v1/configmaps\` (CREATE, UPDATE) to \`${backend}\`. It creates the ValidatingWebhookConfiguration \`${configuration}\` pointing at the backend’s URL.`,
      open: [
        { view: 'webhooks', label: 'Webhooks → Wire it up' },
        {
          view: 'editor',
          label: 'Or the configuration in the Editor',
          params: { text: JSON.stringify(webhookConfiguration, null, 2) },
        },
      ],
      checks: [
        check(
          `${configuration} sends calls to ${backend}`,
          {
            object: {
              apiVersion: `${admissionGroup}/v1`,
              resource: 'validatingwebhookconfigurations',
              name: configuration,
            },
          },
          `object != null && object.webhooks.exists(w, has(w.clientConfig.url) && w.clientConfig.url.startsWith('https://${backend}.webhooks.sandbox.invalid'))`,
        ),
      ],
      showMe: [
        request('POST', `/apis/${admissionGroup}/v1/validatingwebhookconfigurations`, {
          body: webhookConfiguration,
        }),
      ],
    },
    {
      id: 'denied',
      title: 'Refused by your webhook',
      text: `Create a ConfigMap in \`${ns}\` with a \`password\` key. The answer is 403: \`admission webhook "${backend}.webhooks.sandbox.invalid" denied the request\`, with your message. Open Traces to see the AdmissionReview both ways.`,
      open: [
        {
          view: 'editor',
          label: 'Editor with a ConfigMap',
          params: {
            text: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: db\n  namespace: ${ns}\n  labels:\n    owner: me\ndata:\n  password: hunter2\n`,
          },
        },
        { view: 'traces', label: 'Traces' },
      ],
      checks: [
        sent(
          'A ConfigMap was refused by a webhook',
          "requests.exists(r, r.status == 403 && r.message.contains('denied the request'))",
        ),
      ],
      showMe: [
        request(
          'POST',
          `/api/v1/namespaces/${ns}/configmaps`,
          {
            body: {
              apiVersion: 'v1',
              kind: 'ConfigMap',
              metadata: { name: 'db', labels: { owner: 'me' } },
              data: { password: 'hunter2' },
            },
          },
          { expectStatus: [403] },
        ),
      ],
    },
    {
      id: 'enable',
      title: 'Turn on the alpha API',
      text: `In Workshop → Settings, add \`${alphaVersion}=true\` to the runtime config and turn on the feature gate \`ValidatingAdmissionPolicy\`. Discovery then lists \`validatingadmissionpolicies\` in \`${alphaVersion}\`. (On the Node host: \`--runtime-config\` and \`--feature-gates\`.)`,
      open: [{ view: 'workshop', label: 'Workshop → Settings' }, consoleLink('GET', `/apis/${alphaVersion}`)],
      hints: [
        'The version alone serves nothing: its resources wait for the gate, as in a real v1.27 server.',
      ],
      checks: [
        check(
          `${alphaVersion} serves validatingadmissionpolicies`,
          { http: { path: `/apis/${alphaVersion}` } },
          "response.status == 200 && response.body.resources.exists(r, r.name == 'validatingadmissionpolicies')",
        ),
      ],
      showMe: [
        request(
          'GET',
          '/sandbox/v1/settings',
          {},
          { capture: { runtimeConfig: 'response.body.runtimeConfig' } },
        ),
        request('PUT', '/sandbox/v1/settings', {
          body: settingsBody(`\${runtimeConfig},${alphaVersion}=true`),
        }),
      ],
    },
    {
      id: 'policy',
      title: 'A policy and its binding',
      text: `Create the ValidatingAdmissionPolicy \`${policy}\` (ConfigMaps need an \`owner\` label) and its binding with the action \`Deny\`, limited to namespaces labelled \`${policyLabel}: "true"\` — \`${ns}\` is.`,
      open: [
        { view: 'editor', label: 'Editor with the policy', params: { text: policyYaml } },
        { view: 'editor', label: 'Editor with the binding', params: { text: bindingYaml } },
      ],
      hints: ['A policy without a binding does nothing; a binding without `validationActions` is refused.'],
      checks: [
        check(
          `${policy} validates with CEL`,
          { object: { apiVersion: alphaVersion, resource: 'validatingadmissionpolicies', name: policy } },
          'object != null && object.spec.validations.size() > 0',
        ),
        check(
          `A binding of ${policy} denies`,
          {
            object: { apiVersion: alphaVersion, resource: 'validatingadmissionpolicybindings', name: policy },
          },
          `object != null && object.spec.policyName == '${policy}' && 'Deny' in object.spec.validationActions`,
        ),
      ],
      showMe: [
        request('POST', `/apis/${alphaVersion}/validatingadmissionpolicies`, { body: policyObject }),
        request('POST', `/apis/${alphaVersion}/validatingadmissionpolicybindings`, { body: bindingObject }),
      ],
    },
    {
      id: 'policy-denied',
      title: 'Refused by the policy',
      text: `Create a ConfigMap without an \`owner\` label in \`${ns}\`. The policy refuses it: \`ValidatingAdmissionPolicy '${policy}' with binding '${policy}' denied request\`. No webhook was called — compare the two traces.`,
      open: [
        {
          view: 'editor',
          label: 'Editor with an unlabelled ConfigMap',
          params: {
            text: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: ${ns}\ndata:\n  color: blue\n`,
          },
        },
        { view: 'traces', label: 'Traces' },
      ],
      checks: [
        sent(
          'A ConfigMap was refused by a ValidatingAdmissionPolicy',
          "requests.exists(r, r.status >= 400 && r.message.contains('ValidatingAdmissionPolicy '))",
        ),
      ],
      showMe: [
        request(
          'POST',
          `/api/v1/namespaces/${ns}/configmaps`,
          {
            body: {
              apiVersion: 'v1',
              kind: 'ConfigMap',
              metadata: { name: 'settings' },
              data: { color: 'blue' },
            },
          },
          { expectStatus: [422] },
        ),
      ],
    },
  ],
};
