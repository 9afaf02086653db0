/**
 * Dynamic admission webhooks against a real HTTPS server on loopback: the
 * webhook matrix (match and skip by each rule field, selectors, match
 * conditions, fail open and closed, timeout, garbage and wrong-version
 * answers, reinvocation, dry run, a patch that does not apply, version
 * negotiation, warnings, custom codes), the rejection metric, the
 * configurations' validation, the admission trace of a request through
 * three mutating and two validating webhooks, and kubectl printing a
 * webhook's denial. Each case works in its own namespace, selected by its
 * webhooks, so configurations of other cases never interfere.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from './support/host';
import { kubectl, kubectlSkipReason } from './support/kubectl';
import { startWebhookServer, type WebhookServer } from './support/webhook-server';

const G = '/apis/admissionregistration.orch.io/v1';
type Json = Record<string, unknown>;
type Kind = 'mutating' | 'validating';

let host: TestHost;
let wh: WebhookServer;

beforeAll(async () => {
  wh = await startWebhookServer();
  host = await startTestHost({ featureGates: { AdmissionWebhookMatchConditions: true } });
}, 30_000);
afterAll(async () => {
  await host?.close();
  await wh?.close();
});

/** A webhook on configmap creates and updates in the case's namespace. */
function hook(id: string, name: string, path: string, extra: Json = {}): Json {
  return {
    name: `${name}.${id}.test.io`,
    clientConfig: { url: `${wh.url}${path}`, caBundle: wh.caBundle },
    rules: [
      { operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] },
    ],
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    namespaceSelector: { matchLabels: { case: id } },
    timeoutSeconds: 5,
    ...extra,
  };
}

const resourceOf = (kind: Kind) =>
  kind === 'mutating' ? 'mutatingwebhookconfigurations' : 'validatingwebhookconfigurations';
const kindOf = (kind: Kind) =>
  kind === 'mutating' ? 'MutatingWebhookConfiguration' : 'ValidatingWebhookConfiguration';

interface Setup {
  mutating?: Record<string, Json[]>;
  validating?: Record<string, Json[]>;
}

/**
 * The case's namespace (and those of `others`, for a table set up at once)
 * and configurations, then a probe configuration per kind (created last,
 * so once the server calls it the informer holds the others too).
 */
async function setup(id: string, s: Setup, others: string[] = []): Promise<() => Promise<void>> {
  const ns = `wh-${id}`;
  for (const name of [id, ...others]) {
    const r = await host.request('POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `wh-${name}`, labels: { case: name } } },
    });
    expect(r.status, r.text).toBe(201);
  }
  const created: [Kind, string][] = [];
  for (const kind of ['mutating', 'validating'] as const) {
    const configs = s[kind];
    if (configs === undefined) continue;
    const probe = {
      ...hook(id, `probe-${kind}`, `/probe/${id}-${kind}`),
      rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['secrets'] }],
    };
    for (const [name, webhooks] of [...Object.entries(configs), [`zz-probe-${id}`, [probe]] as const]) {
      const c = await host.request('POST', `${G}/${resourceOf(kind)}`, {
        body: {
          apiVersion: 'admissionregistration.orch.io/v1',
          kind: kindOf(kind),
          metadata: { name },
          webhooks,
        },
      });
      expect(c.status, c.text).toBe(201);
      created.push([kind, name]);
    }
  }
  for (const kind of ['mutating', 'validating'] as const) {
    if (s[kind] === undefined) continue;
    for (let i = 0; wh.calls(`/probe/${id}-${kind}`).length === 0; i++) {
      if (i > 100) throw new Error(`the ${kind} configurations of ${id} never took effect`);
      await host.request('POST', `/api/v1/namespaces/${ns}/secrets?dryRun=All`, {
        body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'probe' } },
      });
      await new Promise((res) => setTimeout(res, 20));
    }
  }
  return async () => {
    for (const [kind, name] of created) await host.request('DELETE', `${G}/${resourceOf(kind)}/${name}`);
  };
}

function configMap(name: string, labels?: Record<string, string>): Json {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, ...(labels ? { labels } : {}) },
    data: { a: '1' },
  };
}

const createIn = (id: string, body: Json, query = '') =>
  host.request('POST', `/api/v1/namespaces/wh-${id}/configmaps${query}`, { body });

describe('admission trace', () => {
  // First in the file: no other configuration exists yet, so the indexes are the absolute ones.
  it('records each webhook step in order through 3 mutating and 2 validating webhooks with a reinvocation', async () => {
    const id = 'trace';
    const done = await setup(id, {
      mutating: {
        [`a-${id}`]: [hook(id, 'm1', '/patch/t1', { reinvocationPolicy: 'IfNeeded' })],
        [`b-${id}`]: [hook(id, 'm2', '/patch/t2')],
        [`c-${id}`]: [hook(id, 'm3', `/allow/${id}`)],
      },
      validating: { [`d-${id}`]: [hook(id, 'v1', `/allow/${id}-v`), hook(id, 'v2', '/warn/validated')] },
    });
    try {
      const r = await createIn(id, configMap('c1'));
      expect(r.status, r.text).toBe(201);
      expect(r.body.metadata.labels).toEqual({ t1: 'yes', t2: 'yes' });
      const auditId = r.headers.get('audit-id') ?? '';
      const t = await host.request('GET', `/sandbox/v1/traces/${auditId}`);
      expect(t.status, t.text).toBe(200);
      const mine = (t.body.steps as Json[]).filter(
        (s) => s.type === 'webhook' && s.configuration !== `zz-probe-${id}`,
      );
      const n = (w: string, c: string) => `${c}-${id}/${w}.${id}.test.io`;
      expect(mine.map((s) => [s.name, s.phase, s.round, s.index, s.decision])).toEqual([
        [n('m1', 'a'), 'mutating', 0, 0, 'patched'],
        [n('m2', 'b'), 'mutating', 0, 1, 'patched'],
        [n('m3', 'c'), 'mutating', 0, 2, 'allowed'],
        [n('m1', 'a'), 'mutating', 1, 0, 'allowed'],
        [n('m2', 'b'), 'mutating', 1, 1, 'skipped'],
        [n('m3', 'c'), 'mutating', 1, 2, 'skipped'],
        [n('v1', 'd'), 'validating', undefined, 0, 'allowed'],
        [n('v2', 'd'), 'validating', undefined, 1, 'allowed'],
      ]);
      const [m1, m2, m3, again, skipped, , v1, v2] = mine as Json[] & { [k: string]: unknown }[];
      expect(m1).toMatchObject({
        configuration: `a-${id}`,
        failurePolicy: 'Fail',
        patch: [{ op: 'add', path: '/metadata/labels', value: { t1: 'yes' } }],
        before: { metadata: { name: 'c1' } },
        after: { metadata: { name: 'c1', labels: { t1: 'yes' } } },
        annotations: {
          'mutation.webhook.admission.orch.io/round_0_index_0': JSON.stringify({
            configuration: `a-${id}`,
            webhook: `m1.${id}.test.io`,
            mutated: true,
          }),
          'patch.webhook.admission.orch.io/round_0_index_0': JSON.stringify({
            configuration: `a-${id}`,
            webhook: `m1.${id}.test.io`,
            patch: [{ op: 'add', path: '/metadata/labels', value: { t1: 'yes' } }],
            patchType: 'JSONPatch',
          }),
        },
      });
      expect(m1?.review).toMatchObject({
        request: {
          apiVersion: 'admission.orch.io/v1',
          kind: 'AdmissionReview',
          request: { operation: 'CREATE' },
        },
        response: { response: { allowed: true, patchType: 'JSONPatch' } },
      });
      expect(m2).toMatchObject({ patch: [{ op: 'add', path: '/metadata/labels/t2', value: 'yes' }] });
      expect(m3).toMatchObject({
        annotations: {
          'mutation.webhook.admission.orch.io/round_0_index_2': JSON.stringify({
            configuration: `c-${id}`,
            webhook: `m3.${id}.test.io`,
            mutated: false,
          }),
        },
      });
      expect(m3?.patch).toBeUndefined();
      expect(again).toMatchObject({
        annotations: {
          'mutation.webhook.admission.orch.io/round_1_index_0': JSON.stringify({
            configuration: `a-${id}`,
            webhook: `m1.${id}.test.io`,
            mutated: false,
          }),
        },
      });
      // The reinvoked call saw both labels.
      expect((again?.review as Json).request).toMatchObject({
        request: { object: { metadata: { labels: { t1: 'yes', t2: 'yes' } } } },
      });
      expect(skipped?.reason).toMatch(/^not reinvoked/);
      expect(v1?.review).toBeDefined();
      expect(v2).toMatchObject({ warnings: ['careful: validated'] });
      // The probe's rule names secrets: skipped for want of a rule.
      const probe = (t.body.steps as Json[]).find(
        (s) => s.configuration === `zz-probe-${id}` && s.phase === 'mutating',
      );
      expect(probe).toMatchObject({ decision: 'skipped', reason: 'no rule matched', index: 3 });
    } finally {
      await done();
    }
  });
});

interface MatchCase {
  id: string;
  /** The validating webhook (at `/deny`) with these fields changed. */
  change: Json;
  labels?: Record<string, string>;
  called: boolean;
}

const rule = (r: Json) => ({
  rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'], ...r }],
});

const matchCases: MatchCase[] = [
  { id: 'rule-exact', change: rule({}), called: true },
  { id: 'rule-operation', change: rule({ operations: ['DELETE'] }), called: false },
  { id: 'rule-operation-star', change: rule({ operations: ['*'] }), called: true },
  { id: 'rule-group', change: rule({ apiGroups: ['apps'] }), called: false },
  { id: 'rule-group-star', change: rule({ apiGroups: ['*'] }), called: true },
  { id: 'rule-version', change: { ...rule({ apiVersions: ['v2'] }), matchPolicy: 'Exact' }, called: false },
  { id: 'rule-version-star', change: rule({ apiVersions: ['*'] }), called: true },
  { id: 'rule-resource', change: rule({ resources: ['secrets'] }), called: false },
  { id: 'rule-resource-star', change: rule({ resources: ['*'] }), called: true },
  { id: 'rule-resource-star-star', change: rule({ resources: ['*/*'] }), called: true },
  { id: 'rule-subresources-only', change: rule({ resources: ['configmaps/*'] }), called: false },
  { id: 'rule-status-only', change: rule({ resources: ['*/status'] }), called: false },
  { id: 'rule-scope-namespaced', change: rule({ scope: 'Namespaced' }), called: true },
  { id: 'rule-scope-cluster', change: rule({ scope: 'Cluster' }), called: false },
  {
    id: 'ns-selector-miss',
    change: { namespaceSelector: { matchLabels: { case: 'ns-selector-miss', tier: 'gold' } } },
    called: false,
  },
  {
    id: 'ns-selector-expr',
    change: {
      namespaceSelector: {
        matchExpressions: [{ key: 'case', operator: 'In', values: ['ns-selector-expr'] }],
      },
    },
    called: true,
  },
  {
    id: 'obj-selector-hit',
    change: { objectSelector: { matchLabels: { app: 'web' } } },
    labels: { app: 'web' },
    called: true,
  },
  {
    id: 'obj-selector-miss',
    change: { objectSelector: { matchLabels: { app: 'web' } } },
    labels: { app: 'db' },
    called: false,
  },
  {
    id: 'condition-true',
    change: { matchConditions: [{ name: 'named-c1', expression: "object.metadata.name == 'c1'" }] },
    called: true,
  },
  {
    id: 'condition-false',
    change: {
      matchConditions: [
        { name: 'is-create', expression: "request.operation == 'CREATE'" },
        { name: 'named-other', expression: "object.metadata.name == 'other'" },
      ],
    },
    called: false,
  },
  {
    id: 'condition-authorizer',
    change: {
      matchConditions: [
        { name: 'admin', expression: "authorizer.requestResource.check('create').allowed()" },
      ],
    },
    called: true,
  },
];

describe('webhook matching', () => {
  // One configuration per case, all set up at once: each selects only its own namespace.
  let done: () => Promise<void>;
  beforeAll(async () => {
    done = await setup(
      'match',
      {
        validating: Object.fromEntries(
          matchCases.map((c) => [`cfg-${c.id}`, [hook(c.id, 'deny', '/deny', c.change)]]),
        ),
      },
      matchCases.map((c) => c.id),
    );
  }, 15_000);
  afterAll(() => done());

  it.each(matchCases)('$id: called=$called', async (c) => {
    const r = await createIn(c.id, configMap('c1', c.labels));
    if (c.called) {
      expect(r.status, r.text).toBe(400);
      expect(r.body.message).toBe(
        `admission webhook "deny.${c.id}.test.io" denied the request without explanation`,
      );
    } else expect(r.status, r.text).toBe(201);
  });

  it.each([
    ['Equivalent', 400],
    ['Exact', 201],
  ])(
    'matchPolicy %s on events.orch.io/v1 events, a core v1 Event created → %i',
    async (matchPolicy, status) => {
      const id = `equivalent-${matchPolicy.toLowerCase()}`;
      const done = await setup(id, {
        validating: {
          [`cfg-${id}`]: [
            hook(id, 'deny', `/deny/${id}`, {
              rules: [
                {
                  operations: ['CREATE'],
                  apiGroups: ['events.orch.io'],
                  apiVersions: ['v1'],
                  resources: ['events'],
                },
              ],
              matchPolicy,
            }),
          ],
        },
      });
      try {
        const r = await host.request('POST', `/api/v1/namespaces/wh-${id}/events`, {
          body: {
            apiVersion: 'v1',
            kind: 'Event',
            metadata: { name: 'e1' },
            involvedObject: { kind: 'ConfigMap', name: 'c1', namespace: `wh-${id}` },
            reason: 'Test',
            message: 'hello',
            type: 'Normal',
          },
        });
        expect(r.status, r.text).toBe(status);
        if (status !== 400) return;
        const sent = wh.calls(`/deny/${id}`).at(-1)?.review.request;
        expect(sent.kind).toEqual({ group: 'events.orch.io', version: 'v1', kind: 'Event' });
        expect(sent.resource).toEqual({ group: 'events.orch.io', version: 'v1', resource: 'events' });
        expect(sent.requestKind).toEqual({ group: '', version: 'v1', kind: 'Event' });
        expect(sent.requestResource).toEqual({ group: '', version: 'v1', resource: 'events' });
        // Converted to the version the rule names: events.orch.io/v1 calls the message `note`.
        expect(sent.object).toMatchObject({ apiVersion: 'events.orch.io/v1', kind: 'Event', note: 'hello' });
      } finally {
        await done();
      }
    },
  );
});

interface OutcomeCase {
  id: string;
  path: string;
  extra?: Json;
  kind?: Kind;
  status: number;
  /** The exact message, as a function of the webhook's name. */
  message?: (name: string) => string;
  contains?: string;
}

const url = (path: string, seconds = 5) => `${wh.url}${path}?timeout=${seconds}s`;
const failingCondition = [{ name: 'labelled', expression: "object.metadata.labels['team'] == 'a'" }];

const outcomeCases: OutcomeCase[] = [
  { id: 'allow', path: '/allow', status: 201 },
  {
    id: 'condition-error-fail',
    path: '/deny',
    extra: { matchConditions: failingCondition },
    status: 500,
    contains: 'failed to evaluate match condition: expression',
  },
  {
    id: 'condition-error-ignore',
    path: '/deny',
    extra: { failurePolicy: 'Ignore', matchConditions: failingCondition },
    status: 201,
  },
  {
    id: 'deny-plain',
    path: '/deny',
    status: 400,
    message: (n) => `admission webhook "${n}" denied the request without explanation`,
  },
  {
    id: 'deny-code',
    path: '/deny-status/418',
    status: 418,
    message: (n) => `admission webhook "${n}" denied the request: custom denial 418`,
  },
  {
    id: 'deny-forbidden',
    path: '/deny-status/403',
    kind: 'mutating',
    status: 403,
    message: (n) => `admission webhook "${n}" denied the request: custom denial 403`,
  },
  {
    id: 'garbage-fail',
    path: '/garbage',
    status: 500,
    message: (n) =>
      `Internal error occurred: failed calling webhook "${n}": failed to call webhook: couldn't get version/kind; json parse error: invalid character 't' looking for beginning of value`,
  },
  { id: 'garbage-ignore', path: '/garbage', extra: { failurePolicy: 'Ignore' }, status: 201 },
  {
    id: 'wrong-version',
    path: '/wrong-version',
    status: 500,
    message: (n) =>
      `Internal error occurred: failed calling webhook "${n}": received invalid webhook response: expected webhook response of admission.orch.io/v1, Kind=AdmissionReview, got admission.orch.io/v1beta1, Kind=AdmissionReview`,
  },
  {
    id: 'wrong-uid',
    path: '/wrong-uid',
    kind: 'mutating',
    status: 500,
    contains: 'received invalid webhook response: expected response.uid=',
  },
  {
    id: 'timeout-fail',
    path: '/slow',
    extra: { timeoutSeconds: 1 },
    status: 500,
    message: (n) =>
      `Internal error occurred: failed calling webhook "${n}": failed to call webhook: Post "${url('/slow', 1)}": context deadline exceeded`,
  },
  {
    id: 'timeout-ignore',
    path: '/slow',
    extra: { timeoutSeconds: 1, failurePolicy: 'Ignore' },
    kind: 'mutating',
    status: 201,
  },
  {
    id: 'refused',
    path: '/x',
    extra: { clientConfig: { url: 'https://127.0.0.1:1/x' } },
    status: 500,
    message: (n) =>
      `Internal error occurred: failed calling webhook "${n}": failed to call webhook: Post "https://127.0.0.1:1/x?timeout=5s": dial tcp 127.0.0.1:1: connect: connection refused`,
  },
  {
    id: 'refused-ignore',
    path: '/x',
    extra: { clientConfig: { url: 'https://127.0.0.1:1/x' }, failurePolicy: 'Ignore' },
    status: 201,
  },
  {
    id: 'untrusted',
    path: '/allow',
    status: 500,
    contains: 'tls: failed to verify certificate: x509: certificate signed by unknown authority',
  },
  {
    id: 'bad-patch-ignore',
    path: '/bad-patch',
    kind: 'mutating',
    extra: { failurePolicy: 'Ignore' },
    status: 500,
    message: () =>
      'Internal error occurred: remove operation does not apply: doc is missing path: "/spec/missing": missing value',
  },
];

describe('webhook outcomes', () => {
  const hookFor = (c: OutcomeCase): Json => {
    const h = hook(c.id, 'hook', c.path, c.extra ?? {});
    // No caBundle: the system roots, which do not know the test CA.
    if (c.id === 'untrusted') h.clientConfig = { url: `${wh.url}/allow` };
    return h;
  };
  let done: () => Promise<void>;
  beforeAll(async () => {
    const of = (kind: Kind) =>
      Object.fromEntries(
        outcomeCases
          .filter((c) => (c.kind ?? 'validating') === kind)
          .map((c) => [`cfg-${c.id}`, [hookFor(c)]]),
      );
    done = await setup(
      'outcome',
      { mutating: of('mutating'), validating: of('validating') },
      outcomeCases.map((c) => c.id),
    );
  }, 15_000);
  afterAll(() => done());

  it.concurrent.each(outcomeCases)('$id → $status', async (c) => {
    const r = await createIn(c.id, configMap('c1'));
    expect(r.status, r.text).toBe(c.status);
    if (c.message !== undefined) expect(r.body.message).toBe(c.message(String(hookFor(c).name)));
    if (c.contains !== undefined) expect(r.body.message).toContain(c.contains);
    if (c.status >= 400) {
      expect(r.body.kind).toBe('Status');
      expect((await host.request('GET', `/api/v1/namespaces/wh-${c.id}/configmaps/c1`)).status).toBe(404);
    }
    if (c.status === 500) expect(r.body.reason).toBe('InternalError');
  });
});

describe('mutation, reinvocation, dry run, versions, warnings', () => {
  it('applies patches in order; webhook changes are owned by nobody in managedFields', async () => {
    const id = 'patch';
    const done = await setup(id, {
      mutating: {
        [`a-${id}`]: [hook(id, 'first', '/patch/first')],
        [`b-${id}`]: [hook(id, 'second', '/patch/second')],
      },
    });
    try {
      const r = await createIn(id, configMap('c1'));
      expect(r.status, r.text).toBe(201);
      expect(r.body.metadata.labels).toEqual({ first: 'yes', second: 'yes' });
      // The second webhook saw the first one's label.
      expect(wh.calls('/patch/second').at(-1)?.review.request.object.metadata.labels).toEqual({
        first: 'yes',
      });
      expect(JSON.stringify(r.body.metadata.managedFields)).not.toContain('f:first');
    } finally {
      await done();
    }
  });

  it('reinvokes an IfNeeded webhook once a later webhook changed the object', async () => {
    const id = 'reinvoke';
    const done = await setup(id, {
      mutating: {
        [`a-${id}`]: [hook(id, 'again', '/allow', { reinvocationPolicy: 'IfNeeded' })],
        [`b-${id}`]: [hook(id, 'once', '/allow')],
        [`c-${id}`]: [hook(id, 'changer', '/patch/changed')],
      },
    });
    try {
      const before = wh.calls('/allow').length;
      const r = await createIn(id, configMap('c1'));
      expect(r.status, r.text).toBe(201);
      const names = wh
        .calls('/allow')
        .slice(before)
        .map((c) => c.review.request.name as string);
      // `again` in rounds 0 and 1, `once` only in round 0.
      expect(names).toHaveLength(3);
      expect(wh.calls('/patch/changed').at(-1)?.review.request.object.metadata.labels).toBeUndefined();
    } finally {
      await done();
    }
  });

  it.each([
    ['None', 'None'],
    ['NoneOnDryRun', 'NoneOnDryRun'],
  ])('dry run reaches a webhook with sideEffects %s, dryRun true, nothing stored', async (_, sideEffects) => {
    const id = `dry-${sideEffects.toLowerCase()}`;
    const done = await setup(id, {
      mutating: { [`a-${id}`]: [hook(id, 'dry', `/patch/dry-${id}`, { sideEffects })] },
    });
    try {
      const r = await createIn(id, configMap('c1'), '?dryRun=All');
      expect(r.status, r.text).toBe(201);
      expect(r.body.metadata.labels).toEqual({ [`dry-${id}`]: 'yes' });
      const sent = wh.calls(`/patch/dry-${id}`).at(-1)?.review.request;
      expect(sent.dryRun).toBe(true);
      expect(sent.options).toMatchObject({ kind: 'CreateOptions', dryRun: ['All'] });
      expect((await host.request('GET', `/api/v1/namespaces/wh-${id}/configmaps/c1`)).status).toBe(404);
    } finally {
      await done();
    }
  });

  it('sends the first supported version (v1beta1 when only it is accepted) and accepts its answer', async () => {
    const id = 'beta';
    const done = await setup(id, {
      validating: {
        [`a-${id}`]: [hook(id, 'beta', `/allow/${id}`, { admissionReviewVersions: ['v9', 'v1beta1', 'v1'] })],
      },
    });
    try {
      const r = await createIn(id, configMap('c1'));
      expect(r.status, r.text).toBe(201);
      expect(wh.calls(`/allow/${id}`).at(-1)?.review.apiVersion).toBe('admission.orch.io/v1beta1');
    } finally {
      await done();
    }
  });

  it('returns webhook warnings as 299 Warning headers', async () => {
    const id = 'warn';
    const done = await setup(id, {
      mutating: { [`a-${id}`]: [hook(id, 'warn-m', '/warn/from-mutating')] },
      validating: { [`b-${id}`]: [hook(id, 'warn-v', '/warn/from-validating')] },
    });
    try {
      const r = await createIn(id, configMap('c1'));
      expect(r.status, r.text).toBe(201);
      const warning = r.headers.get('warning') ?? '';
      expect(warning).toContain('299 - "careful: from-mutating"');
      expect(warning).toContain('299 - "careful: from-validating"');
    } finally {
      await done();
    }
  });
});

describe('metrics', () => {
  it('counts rejections as the real server labels them', async () => {
    const m = await host.request('GET', '/metrics');
    expect(m.status).toBe(200);
    const line = (labels: string) =>
      m.text.split('\n').find((l) => l.startsWith(`apiserver_admission_webhook_rejection_count{${labels}}`));
    // A webhook that could not be called records 400 while the client got 500.
    expect(
      line(
        'error_type="calling_webhook_error",name="hook.refused.test.io",operation="CREATE",rejection_code="400",type="validating"',
      ),
    ).toMatch(/ 1$/);
    expect(
      line(
        'error_type="no_error",name="hook.deny-code.test.io",operation="CREATE",rejection_code="418",type="validating"',
      ),
    ).toMatch(/ 1$/);
    expect(
      line(
        'error_type="no_error",name="hook.deny-forbidden.test.io",operation="CREATE",rejection_code="403",type="admit"',
      ),
    ).toMatch(/ 1$/);
    expect(
      line(
        'error_type="apiserver_internal_error",name="hook.bad-patch-ignore.test.io",operation="CREATE",rejection_code="0",type="admit"',
      ),
    ).toMatch(/ 1$/);
    for (const family of [
      'apiserver_admission_controller_admission_duration_seconds',
      'apiserver_admission_webhook_admission_duration_seconds',
      'apiserver_admission_step_admission_duration_seconds',
    ])
      expect(m.text).toContain(`# TYPE ${family} histogram`);
    expect(m.text).toMatch(
      /apiserver_admission_webhook_admission_duration_seconds_bucket\{name="hook\.allow\.test\.io",operation="CREATE",rejected="false",type="validating",le="25"\} 1/,
    );
  });
});

describe('configuration validation', () => {
  it('refuses an invalid configuration with one cause per problem', async () => {
    const r = await host.request('POST', `${G}/mutatingwebhookconfigurations`, {
      body: {
        apiVersion: 'admissionregistration.orch.io/v1',
        kind: 'MutatingWebhookConfiguration',
        metadata: { name: 'invalid' },
        webhooks: [
          {
            name: 'dup.example.com',
            clientConfig: { url: 'http://user@example.com/x?q=1#frag' },
            rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
            sideEffects: 'Some',
            admissionReviewVersions: ['v2'],
            timeoutSeconds: 31,
            matchConditions: [
              { name: 'same', expression: 'true' },
              { name: 'same', expression: 'undefinedThing' },
            ],
          },
          {
            name: 'dup.example.com',
            clientConfig: { service: { namespace: '', name: '', port: 70000 } },
            admissionReviewVersions: [],
          },
          {
            name: 'short',
            clientConfig: { url: 'https://ok.example.com' },
            sideEffects: 'None',
            admissionReviewVersions: ['v1'],
          },
        ],
      },
    });
    expect(r.status, r.text).toBe(422);
    expect(r.body.reason).toBe('Invalid');
    const causes = (r.body.details.causes as { field: string; message: string }[]).map(
      (c) => `${c.field}: ${c.message}`,
    );
    expect(causes).toEqual(
      expect.arrayContaining([
        'webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"',
        'webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds',
        `webhooks[0].clientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme; desired format: https://host[/path]`,
        'webhooks[0].clientConfig.url: Invalid value: "user": user information is not permitted in the URL',
        'webhooks[0].clientConfig.url: Invalid value: "frag": fragments are not permitted in the URL',
        'webhooks[0].clientConfig.url: Invalid value: "q=1": query parameters are not permitted in the URL',
        'webhooks[0].admissionReviewVersions: Invalid value: []string{"v2"}: must include at least one of v1, v1beta1',
        'webhooks[0].matchConditions[1].name: Duplicate value: "same"',
        'webhooks[1].sideEffects: Required value: must specify one of None, NoneOnDryRun',
        'webhooks[1].clientConfig.service.name: Required value: service name is required',
        'webhooks[1].clientConfig.service.namespace: Required value: service namespace is required',
        'webhooks[1].clientConfig.service.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive',
        'webhooks[1].admissionReviewVersions: Required value: must specify one of v1, v1beta1',
        'webhooks[1].name: Duplicate value: "dup.example.com"',
        'webhooks[2].name: Invalid value: "short": should be a domain with at least three segments separated by dots',
      ]),
    );
    expect(
      causes.some((c) =>
        c.startsWith(
          'webhooks[0].matchConditions[1].expression: Invalid value: "undefinedThing": compilation failed:',
        ),
      ),
    ).toBe(true);
  });

  it('stores the v1 defaults', async () => {
    const r = await host.request('POST', `${G}/validatingwebhookconfigurations`, {
      body: {
        apiVersion: 'admissionregistration.orch.io/v1',
        kind: 'ValidatingWebhookConfiguration',
        metadata: { name: 'defaults' },
        webhooks: [
          {
            name: 'defaults.example.com',
            clientConfig: { service: { namespace: 'default', name: 'svc' } },
            rules: [
              {
                operations: ['CREATE'],
                apiGroups: ['nothing.example.com'],
                apiVersions: ['v1'],
                resources: ['things'],
              },
            ],
            sideEffects: 'None',
            admissionReviewVersions: ['v1'],
          },
        ],
      },
    });
    expect(r.status, r.text).toBe(201);
    expect(r.body.webhooks[0]).toMatchObject({
      failurePolicy: 'Fail',
      matchPolicy: 'Equivalent',
      namespaceSelector: {},
      objectSelector: {},
      timeoutSeconds: 10,
      rules: [{ scope: '*' }],
      clientConfig: { service: { port: 443 } },
    });
    await host.request('DELETE', `${G}/validatingwebhookconfigurations/defaults`);
  });
});

describe('kubectl', () => {
  const skip = kubectlSkipReason();
  it.skipIf(skip !== undefined)('prints the webhook denial of kubectl apply', async () => {
    const id = 'kubectl';
    const done = await setup(id, { validating: { [`cfg-${id}`]: [hook(id, 'policy', '/deny-status/403')] } });
    try {
      const manifest = JSON.stringify({
        ...configMap('from-kubectl'),
        metadata: { name: 'from-kubectl', namespace: `wh-${id}` },
      });
      const r = await kubectl(host.kubeconfigPath, ['apply', '-f', '-'], manifest);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain(
        `admission webhook "policy.${id}.test.io" denied the request: custom denial 403`,
      );
    } finally {
      await done();
    }
  });
});
