/**
 * Webhook backends hosted by the sandbox: declared through the sandbox API
 * (validation with one cause per problem, list/get/replace/delete), then
 * reached by webhook configurations through their reserved URL or a
 * service reference — a rules backend denying or patching a pod create,
 * JavaScript backends that answer, loop forever (killed at the timeout,
 * the failure policy applies), throw, or answer garbage — with the exact
 * AdmissionReview bodies seen in the admission trace.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from './support/host';

const API = '/sandbox/v1/webhook-backends';
const G = '/apis/admissionregistration.orch.io/v1';
type Json = Record<string, unknown>;

let host: TestHost;

beforeAll(async () => {
  host = await startTestHost();
  // The probe every case's configuration carries: it denies secrets, so a denial shows the configuration is in effect.
  const r = await host.request('PUT', `${API}/probe`, {
    body: { kind: 'rules', rules: [{ allowed: false, message: 'probe' }] },
  });
  expect(r.status, r.text).toBe(201);
}, 30_000);
afterAll(async () => {
  await host?.close();
});

describe('the sandbox API for backends', () => {
  it('validates with one cause per problem', async () => {
    const r = await host.request('PUT', `${API}/bad`, {
      body: {
        kind: 'rules',
        rules: [
          { when: 'object.', allowed: false },
          { allowed: true, patch: [{ op: 'add', path: '/x', value: { expr: '1 +' } }] },
        ],
      },
    });
    expect(r.status).toBe(422);
    const body = r.body as { reason: string; details: { causes: { field: string }[] } };
    expect(body.reason).toBe('Invalid');
    expect(body.details.causes.map((c) => c.field)).toEqual([
      'rules[0].when',
      'rules[1].patch[0].value.expr',
    ]);
    const js = await host.request('PUT', `${API}/bad`, { body: { kind: 'javascript', source: '(r) => {' } });
    expect(js.status).toBe(422);
    expect(
      (js.body as { details: { causes: { field: string }[] } }).details.causes.map((c) => c.field),
    ).toEqual(['source']);
  });

  it('creates, replaces, lists, gets and deletes', async () => {
    const body = { kind: 'rules', rules: [] };
    expect((await host.request('PUT', `${API}/crud`, { body })).status).toBe(201);
    expect((await host.request('PUT', `${API}/crud`, { body: { ...body, namespace: 'x' } })).status).toBe(
      200,
    );
    const one = await host.request('GET', `${API}/crud`);
    expect(one.body).toEqual({ name: 'crud', namespace: 'x', kind: 'rules', rules: [] });
    const list = await host.request('GET', API);
    expect((list.body as { items: { name: string }[] }).items.map((b) => b.name)).toContain('crud');
    expect((await host.request('DELETE', `${API}/crud`)).status).toBe(200);
    expect((await host.request('GET', `${API}/crud`)).status).toBe(404);
    expect((await host.request('DELETE', `${API}/crud`)).status).toBe(404);
  });

  it('is refused to an unprivileged user', async () => {
    expect((await host.request('GET', API, { as: 'alice' })).status).toBe(403);
  });
});

interface Case {
  id: string;
  backend: Json;
  kind?: 'mutating' | 'validating';
  /** Webhook fields over the defaults (e.g. failurePolicy, timeoutSeconds, clientConfig). */
  extra?: Json;
  labels?: Record<string, string>;
  status: number;
  /** The Status message of a rejection (`%n` stands for the webhook's name). */
  message?: string;
  check?: (created: Json, auditId: string) => Promise<void>;
}

const denyUnlabeled = {
  kind: 'rules',
  rules: [
    {
      when: "!has(object.metadata.labels) || !('team' in object.metadata.labels)",
      allowed: false,
      message: 'pods need a team label',
    },
  ],
};

const cases: Case[] = [
  {
    id: 'deny',
    backend: denyUnlabeled,
    status: 403,
    message: 'admission webhook "%n" denied the request: pods need a team label',
    async check(_, auditId) {
      const step = await webhookStep(auditId);
      expect(step.review?.response).toEqual({
        apiVersion: 'admission.orch.io/v1',
        kind: 'AdmissionReview',
        response: {
          uid: (step.review?.request as { request: { uid: string } }).request.uid,
          allowed: false,
          status: { code: 403, message: 'pods need a team label' },
        },
      });
    },
  },
  { id: 'allow', backend: denyUnlabeled, labels: { team: 'a' }, status: 201 },
  {
    id: 'service',
    backend: { ...denyUnlabeled, service: { namespace: 'hooks', name: 'policy', path: '/validate' } },
    extra: { clientConfig: { service: { namespace: 'hooks', name: 'policy', path: '/validate' } } },
    status: 403,
    message: 'admission webhook "%n" denied the request: pods need a team label',
  },
  {
    id: 'patch',
    kind: 'mutating',
    backend: {
      kind: 'rules',
      rules: [
        {
          when: '!has(object.metadata.labels)',
          allowed: true,
          patch: [
            {
              op: 'add',
              path: '/metadata/labels',
              value: { team: { expr: "request.userInfo.username.replace(':', '-')" } },
            },
          ],
        },
      ],
    },
    status: 201,
    async check(created) {
      expect((created.metadata as { labels?: unknown }).labels).toEqual({ team: 'system-admin' });
    },
  },
  {
    id: 'js',
    kind: 'mutating',
    backend: {
      kind: 'javascript',
      source:
        '(review) => ({ allowed: true, patch: [{ op: "add", path: "/metadata/annotations", value: { seen: review.request.operation } }] })',
    },
    status: 201,
    async check(created) {
      expect((created.metadata as { annotations?: unknown }).annotations).toEqual({ seen: 'CREATE' });
    },
  },
  {
    id: 'loop',
    backend: { kind: 'javascript', source: '() => { for (;;) {} }' },
    extra: { timeoutSeconds: 1 },
    status: 500,
    message:
      'Internal error occurred: failed calling webhook "%n": failed to call webhook: Post "https://loop.webhooks.sandbox.invalid/check?timeout=1s": context deadline exceeded',
  },
  {
    id: 'loop-ignore',
    backend: { kind: 'javascript', source: '() => { for (;;) {} }' },
    extra: { timeoutSeconds: 1, failurePolicy: 'Ignore' },
    status: 201,
  },
  {
    id: 'throws',
    backend: { kind: 'javascript', source: '() => { throw new TypeError("boom") }' },
    status: 500,
    message:
      'Internal error occurred: failed calling webhook "%n": failed to call webhook: an error on the server ("TypeError: boom") has prevented the request from succeeding',
  },
  {
    id: 'garbage',
    backend: { kind: 'javascript', source: '() => "not json"' },
    status: 500,
    message:
      "Internal error occurred: failed calling webhook \"%n\": failed to call webhook: couldn't get version/kind; json parse error: invalid character 'n' looking for beginning of value",
  },
  {
    id: 'unknown',
    backend: denyUnlabeled,
    extra: { clientConfig: { url: 'https://nobody.webhooks.sandbox.invalid/check' } },
    status: 500,
    message:
      'Internal error occurred: failed calling webhook "%n": failed to call webhook: Post "https://nobody.webhooks.sandbox.invalid/check?timeout=5s": dial tcp: lookup nobody.webhooks.sandbox.invalid: no such host',
  },
];

async function webhookStep(auditId: string) {
  const r = await host.request('GET', `/sandbox/v1/traces/${auditId}`);
  const record = r.body as {
    passes: { steps: { name: string; review?: { request: unknown; response?: unknown } }[] }[];
  };
  const step = record.passes.flatMap((p) => p.steps).find((s) => s.review !== undefined);
  if (step === undefined) throw new Error(`no webhook step in ${r.text}`);
  return step;
}

/** The case's backend, namespace and configuration; resolves once the configuration is in effect. */
async function setup(c: Case): Promise<string> {
  const ns = `wb-${c.id}`;
  const kind = c.kind ?? 'validating';
  expect((await host.request('PUT', `${API}/${c.id}`, { body: c.backend })).status).toBe(201);
  const n = await host.request('POST', '/api/v1/namespaces', {
    body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: { case: c.id } } },
  });
  expect(n.status, n.text).toBe(201);
  const common = {
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    namespaceSelector: { matchLabels: { case: c.id } },
    timeoutSeconds: 5,
  };
  const name = `${c.id}.backends.test.io`;
  const resource = kind === 'mutating' ? 'mutatingwebhookconfigurations' : 'validatingwebhookconfigurations';
  const r = await host.request('POST', `${G}/${resource}`, {
    body: {
      apiVersion: 'admissionregistration.orch.io/v1',
      kind: kind === 'mutating' ? 'MutatingWebhookConfiguration' : 'ValidatingWebhookConfiguration',
      metadata: { name: `backend-${c.id}` },
      webhooks: [
        {
          name,
          clientConfig: { url: `https://${c.id}.webhooks.sandbox.invalid/check` },
          rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
          ...common,
          ...c.extra,
        },
        {
          name: `probe.${name}`,
          clientConfig: { url: 'https://probe.webhooks.sandbox.invalid/' },
          rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['secrets'] }],
          ...common,
        },
      ],
    },
  });
  expect(r.status, r.text).toBe(201);
  for (let i = 0; ; i++) {
    const probe = await host.request('POST', `/api/v1/namespaces/${ns}/secrets?dryRun=All`, {
      body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'probe' } },
    });
    if (probe.status === 403) break;
    if (i > 100) throw new Error(`the configuration of ${c.id} never took effect`);
    await new Promise((res) => setTimeout(res, 20));
  }
  return name;
}

describe('webhook calls answered by sandbox backends', () => {
  for (const c of cases)
    it(c.id, async () => {
      const name = await setup(c);
      const r = await host.request('POST', `/api/v1/namespaces/wb-${c.id}/pods`, {
        body: {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'web', ...(c.labels !== undefined ? { labels: c.labels } : {}) },
          spec: { containers: [{ name: 'app', image: 'nginx' }] },
        },
      });
      expect(r.status, r.text).toBe(c.status);
      if (c.message !== undefined)
        expect((r.body as { message: string }).message).toBe(c.message.replace('%n', name));
      await c.check?.(r.body as Json, r.headers.get('audit-id') ?? '');
    });
});
