/**
 * CEL rules, certificates, bootstrap tokens, webhooks and ValidatingAdmissionPolicy:
 * each lesson completed by "Show me" and by a learner's own different requests
 * (test/support/lessons.ts).
 */

import { afterAll, beforeAll, it } from 'vitest';
import { celRules } from '../../src/lessons/builtin/cel-rules';
import { bootstrapTokens } from '../../src/lessons/builtin/bootstrap-tokens';
import { certificates } from '../../src/lessons/builtin/certificates';
import { webhooks } from '../../src/lessons/builtin/webhooks';
import { clientProofHeaders, credentialFromPEM, signRequest } from '../../src/client/proof-of-possession';
import { decodeBase64Text } from '../../src/machinery/base64-text';
import { csrObject, generateRequest } from '../../src/ui/certificates/csr-request';
import { completeLesson, startLessonServer, type LessonServer } from '../support/lessons';

let server: LessonServer;
beforeAll(async () => {
  server = await startLessonServer();
});
afterAll(async () => {
  await server.close();
});

const applyYaml = 'application/apply-patch+yaml';
const jsonPatch = 'application/json-patch+json';

async function send(
  s: LessonServer,
  method: string,
  path: string,
  options: {
    body?: unknown;
    contentType?: string;
    query?: Record<string, string>;
    as?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<{ status: number; body: unknown }> {
  const c = await s.learner(options.as);
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] = options.contentType ?? 'application/json';
  }
  const query = new URLSearchParams(options.query ?? {}).toString();
  const response = await c.raw(method, `${path}${query === '' ? '' : `?${query}`}`, {
    ...(body !== undefined ? { body } : {}),
    headers,
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: the text.
  }
  return { status: response.status, body: parsed };
}

/** Sends until the answer is not 404 (a resource just defined is served a moment after its CRD is Established). */
async function sendServed(...args: Parameters<typeof send>): Promise<{ status: number; body: unknown }> {
  for (let attempt = 0; ; attempt++) {
    const answer = await send(...args);
    if (answer.status !== 404 || attempt >= 50) return answer;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

it('cel-rules: an unbounded rule refused, bounded by apply, a bad Rollout, an immutable mode changed by JSON patch', async () => {
  const group = 'learn.example.com';
  const crd = '/apis/apiextensions.orch.io/v1/customresourcedefinitions';
  const rollouts = `/apis/${group}/v1/namespaces/learn-cel/rollouts`;
  // The learner's own CRD: other field names, a rule the estimate also refuses (a regex over unbounded strings).
  const definition = (bounded: boolean) =>
    `apiVersion: apiextensions.orch.io/v1
kind: CustomResourceDefinition
metadata:
  name: rollouts.${group}
spec:
  group: ${group}
  scope: Namespaced
  names: {plural: rollouts, kind: Rollout}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-orch-validations:
            - rule: "!has(self.minReplicas) || !has(self.maxReplicas) || self.minReplicas <= self.maxReplicas"
              message: minReplicas must not exceed maxReplicas
            properties:
              minReplicas: {type: integer}
              maxReplicas: {type: integer}
              mode:
                type: string
                x-orch-validations: [{rule: self == oldSelf, message: mode is immutable}]
              stages:
                type: array${bounded ? '\n                maxItems: 8' : ''}
                items: {type: string${bounded ? ', maxLength: 63' : ''}}
                x-orch-validations:
                - rule: "self.all(s, s.matches('^[a-z]([-a-z0-9]*[a-z0-9])?$'))"
`;
  await completeLesson(server, celRules, {
    'too-costly': (s) =>
      send(s, 'PATCH', `${crd}/rollouts.${group}`, {
        contentType: applyYaml,
        query: { fieldManager: 'learner' },
        body: definition(false),
      }).then(() => undefined),
    bounded: (s) =>
      send(s, 'PATCH', `${crd}/rollouts.${group}`, {
        contentType: applyYaml,
        query: { fieldManager: 'learner' },
        body: definition(true),
      }).then(() => undefined),
    rule: (s) =>
      sendServed(s, 'PATCH', `${rollouts}/api`, {
        contentType: applyYaml,
        query: { fieldManager: 'learner' },
        body: `apiVersion: ${group}/v1\nkind: Rollout\nmetadata:\n  name: api\nspec:\n  minReplicas: 9\n  maxReplicas: 1\n`,
      }).then(() => undefined),
    transition: async (s) => {
      await sendServed(s, 'POST', rollouts, {
        body: {
          apiVersion: `${group}/v1`,
          kind: 'Rollout',
          metadata: { name: 'api' },
          spec: { mode: 'rolling' },
        },
      });
      await send(s, 'PATCH', `${rollouts}/api`, {
        contentType: jsonPatch,
        body: [{ op: 'replace', path: '/spec/mode', value: 'recreate' }],
      });
    },
  });
});

it('certificates: the form’s own key and usages, approval by a full update, a list, a request signed by the new key', async () => {
  const csrs = '/apis/certificates.orch.io/v1/certificatesigningrequests';
  let keyPEM = '';
  await completeLesson(server, certificates, {
    submit: async (s) => {
      // What the Identity view's form does: a fresh key pair in the page, another group, all three usages.
      const draft = {
        commonName: 'learn-jane',
        organizations: ['learn-team', 'learn-readers'],
        signerName: 'orch.io/apiserver-client',
        usages: ['digital signature', 'key encipherment', 'client auth'],
        dnsNames: [],
        ipAddresses: [],
        expirationSeconds: '',
      };
      const generated = await generateRequest(draft);
      keyPEM = generated.keyPEM;
      await send(s, 'POST', csrs, {
        body: csrObject('learn-jane', 'certificates.orch.io/v1', generated.requestPEM, draft),
      });
    },
    approve: async (s) => {
      // As `kubectl certificate approve` does it: the whole object, one more condition, PUT.
      const current = (await send(s, 'GET', `${csrs}/learn-jane`)).body as {
        status?: { conditions?: unknown[] };
      };
      await send(s, 'PUT', `${csrs}/learn-jane/approval`, {
        body: {
          ...current,
          status: {
            ...current.status,
            conditions: [
              ...(current.status?.conditions ?? []),
              { type: 'Approved', status: 'True', reason: 'KubectlApprove', message: 'by the learner' },
            ],
          },
        },
      });
    },
    issued: (s) => send(s, 'GET', csrs).then(() => undefined),
    use: async (s) => {
      const csr = (await send(s, 'GET', `${csrs}/learn-jane`)).body as { status: { certificate: string } };
      const credential = await credentialFromPEM(decodeBase64Text(csr.status.certificate), keyPEM);
      const path = '/api/v1/namespaces/learn-csr/configmaps';
      const signed = await signRequest(new Request(`http://sandbox.test${path}`), credential);
      const headers: Record<string, string> = {};
      for (const name of Object.values(clientProofHeaders)) headers[name] = signed.headers.get(name) ?? '';
      await (await s.learner('anonymous')).raw('GET', path, { headers });
    },
  });
});

it('bootstrap-tokens: data instead of stringData by apply, another path, a read at resourceVersion 0, deletion', async () => {
  const secrets = '/api/v1/namespaces/orch-system/secrets';
  const b64 = (text: string) => Buffer.from(text).toString('base64');
  await completeLesson(server, bootstrapTokens, {
    token: (s) =>
      send(s, 'PATCH', `${secrets}/bootstrap-token-learn1`, {
        contentType: applyYaml,
        query: { fieldManager: 'learner' },
        body: JSON.stringify({
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: 'bootstrap-token-learn1' },
          type: 'bootstrap.orch.io/token',
          data: {
            'token-id': b64('learn1'),
            'token-secret': b64('0123456789abcdef'),
            'usage-bootstrap-authentication': b64('true'),
            'usage-bootstrap-signing': b64('true'),
          },
        }),
      }).then(() => undefined),
    authenticate: (s) =>
      send(s, 'GET', '/api/v1/nodes', {
        headers: { authorization: 'Bearer learn1.0123456789abcdef' },
      }).then(() => undefined),
    'cluster-info': (s) =>
      send(s, 'GET', '/api/v1/namespaces/orch-public/configmaps/cluster-info', {
        as: 'anonymous',
        query: { resourceVersion: '0' },
      }).then(() => undefined),
    expire: (s) => send(s, 'DELETE', `${secrets}/bootstrap-token-learn1`).then(() => undefined),
  });
});

it('webhooks: another rule, a configuration by apply with a path, an update refused, the version named without =true, a Deny+Audit binding by apply', async () => {
  const ns = 'learn-webhooks';
  const alpha = 'admissionregistration.orch.io/v1alpha1';
  await completeLesson(
    server,
    webhooks,
    {
      backend: (s) =>
        send(s, 'PUT', '/sandbox/v1/webhook-backends/learn-guard', {
          body: {
            name: 'learn-guard',
            kind: 'rules',
            rules: [
              {
                when: `request.namespace == '${ns}' && request.operation in ['CREATE', 'UPDATE'] && has(object.data) && object.data.exists(k, k.contains('password'))`,
                allowed: false,
                message: 'no passwords here',
              },
            ],
          },
        }).then(() => undefined),
      wire: (s) =>
        send(
          s,
          'PATCH',
          '/apis/admissionregistration.orch.io/v1/validatingwebhookconfigurations/backend-learn-guard',
          {
            contentType: applyYaml,
            query: { fieldManager: 'learner' },
            body: `apiVersion: admissionregistration.orch.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: backend-learn-guard
webhooks:
- name: guard.learn.example.com
  clientConfig:
    url: https://learn-guard.webhooks.sandbox.invalid/validate
  rules:
  - {operations: [CREATE, UPDATE], apiGroups: [""], apiVersions: [v1], resources: [configmaps], scope: Namespaced}
  namespaceSelector:
    matchLabels: {orch.io/metadata.name: ${ns}}
  failurePolicy: Ignore
  sideEffects: None
  admissionReviewVersions: [v1]
`,
          },
        ).then(() => undefined),
      denied: async (s) => {
        // An update this time: a harmless ConfigMap first, then a password added to it.
        await send(s, 'POST', `/api/v1/namespaces/${ns}/configmaps`, {
          body: { metadata: { name: 'app', labels: { owner: 'me' } }, data: { color: 'red' } },
        });
        await send(s, 'PATCH', `/api/v1/namespaces/${ns}/configmaps/app`, {
          contentType: 'application/merge-patch+json',
          body: { data: { 'db-password': 'x' } },
        });
      },
      enable: (s) =>
        send(s, 'PUT', '/sandbox/v1/settings', {
          body: { runtimeConfig: `${alpha}`, featureGates: { ValidatingAdmissionPolicy: true } },
        }).then(() => undefined),
      policy: async (s) => {
        for (const [resource, body] of [
          [
            'validatingadmissionpolicies',
            `apiVersion: ${alpha}\nkind: ValidatingAdmissionPolicy\nmetadata:\n  name: learn-owner-label\nspec:\n  matchConstraints:\n    resourceRules:\n    - {apiGroups: [""], apiVersions: ["*"], operations: ["*"], resources: [configmaps]}\n  validations:\n  - expression: "request.operation == 'DELETE' || (has(object.metadata.labels) && 'owner' in object.metadata.labels)"\n    messageExpression: "'ConfigMap ' + object.metadata.name + ' has no owner'"\n`,
          ],
          [
            'validatingadmissionpolicybindings',
            `apiVersion: ${alpha}\nkind: ValidatingAdmissionPolicyBinding\nmetadata:\n  name: learn-owner-label\nspec:\n  policyName: learn-owner-label\n  validationActions: [Deny, Audit]\n  matchResources:\n    namespaceSelector:\n      matchLabels: {orch.io/metadata.name: ${ns}}\n`,
          ],
        ] as const)
          await send(s, 'PATCH', `/apis/${alpha}/${resource}/learn-owner-label`, {
            contentType: applyYaml,
            query: { fieldManager: 'learner' },
            body,
          });
      },
      'policy-denied': (s) =>
        send(s, 'PATCH', `/api/v1/namespaces/${ns}/configmaps/plain`, {
          contentType: applyYaml,
          query: { fieldManager: 'learner' },
          body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: plain\n',
        }).then(() => undefined),
    },
    {
      // Reset leaves sandbox settings as they are: off again, for the learner's way to turn them on.
      beforeLearner: (s) =>
        send(s, 'PUT', '/sandbox/v1/settings', {
          body: { runtimeConfig: '', featureGates: { ValidatingAdmissionPolicy: false } },
        }).then(() => undefined),
    },
  );
});
