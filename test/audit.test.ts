/**
 * Audit through the Node host: a policy file's rules choose each request's
 * level (first match wins, None skips), events are written as JSON lines to
 * `--audit-log-path` with the stages the policy keeps, and carry the
 * authorization decision, the deprecated-API annotations and — at Request
 * and RequestResponse levels — the bodies. The sandbox's live view serves
 * the same events.
 */

import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHostArgs } from '../src/hosts/node/args';
import { startTestHost, type TestHost } from './support/host';
import { eventually } from './support/crd';

interface Event {
  level: string;
  stage: string;
  verb: string;
  auditID: string;
  requestURI: string;
  user: { username: string };
  impersonatedUser?: { username: string };
  objectRef?: {
    resource?: string;
    namespace?: string;
    name?: string;
    apiGroup?: string;
    apiVersion?: string;
  };
  responseStatus?: { code: number; reason?: string };
  requestObject?: { metadata?: { name?: string; managedFields?: unknown } };
  responseObject?: { metadata?: { name?: string; managedFields?: unknown } };
  annotations?: Record<string, string>;
}

const policy = `apiVersion: audit.orch.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
  - level: None
    resources: [{ group: "", resources: ["events"] }]
  - level: RequestResponse
    omitManagedFields: true
    resources: [{ group: "", resources: ["configmaps"] }]
  - level: Request
    verbs: ["create"]
    namespaces: ["audited"]
  - level: None
    nonResourceURLs: ["/healthz*", "/readyz", "/livez"]
  - level: None
    users: ["system:kube-proxy"]
  - level: Request
    users: ["audit-only-when-acted-as"]
  - level: Metadata
`;

let host: TestHost;
let logPath: string;

function events(): Event[] {
  if (!existsSync(logPath)) return [];
  const text = readFileSync(logPath, 'utf8');
  // The server appends while the test reads: a last line without its newline is still being written.
  return text
    .slice(0, text.lastIndexOf('\n') + 1)
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Event);
}

async function eventsFor(auditId: string): Promise<Event[]> {
  return eventually(async () => {
    const found = events().filter((e) => e.auditID === auditId);
    return found.some((e) => e.stage === 'ResponseComplete') ? found : undefined;
  }, `the audit events of ${auditId}`);
}

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'orch-audit-'));
  logPath = join(dir, 'audit.log');
  const policyPath = join(dir, 'policy.yaml');
  const { writeFileSync } = await import('node:fs');
  writeFileSync(policyPath, policy);
  const parsed = parseHostArgs([`--audit-policy-file=${policyPath}`, `--audit-log-path=${logPath}`]);
  host = await startTestHost({ ...parsed });
  await host.request('POST', '/api/v1/namespaces', {
    body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'audited' } },
  });
});

afterAll(async () => {
  await host.close();
});

describe('audit policy levels', () => {
  const cases: {
    name: string;
    method: string;
    path: string;
    body?: unknown;
    level: string | undefined;
    check?: (e: Event) => void;
  }[] = [
    {
      name: 'RequestResponse keeps both bodies, without managedFields (omitManagedFields)',
      method: 'POST',
      path: '/api/v1/namespaces/default/configmaps?fieldManager=audit-test',
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm1' }, data: { a: 'b' } },
      level: 'RequestResponse',
      check: (e) => {
        expect(e.requestObject?.metadata?.name).toBe('cm1');
        expect(e.responseObject?.metadata?.name).toBe('cm1');
        expect(e.responseObject?.metadata?.managedFields).toBeUndefined();
        expect(e.objectRef).toMatchObject({ resource: 'configmaps', namespace: 'default', apiVersion: 'v1' });
        expect(e.responseStatus?.code).toBe(201);
      },
    },
    {
      name: 'Request keeps the request body only',
      method: 'POST',
      path: '/api/v1/namespaces/audited/secrets',
      body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' } },
      level: 'Request',
      check: (e) => {
        expect(e.requestObject?.metadata?.name).toBe('s1');
        expect(e.responseObject).toBeUndefined();
      },
    },
    {
      name: 'Metadata keeps no body, and names the authorization decision',
      method: 'GET',
      path: '/api/v1/namespaces/default/secrets',
      level: 'Metadata',
      check: (e) => {
        expect(e.requestObject).toBeUndefined();
        expect(e.responseObject).toBeUndefined();
        expect(e.annotations?.['authorization.orch.io/decision']).toBe('allow');
        // The admin is in system:masters: the privileged-group authorizer allows with an empty reason, as on a real server.
        expect(e.annotations?.['authorization.orch.io/reason']).toBe('');
      },
    },
    {
      name: 'a deprecated API is annotated with its removal release',
      method: 'GET',
      path: '/apis/flowcontrol.apiserver.orch.io/v1beta2/flowschemas',
      level: 'Metadata',
      check: (e) => {
        expect(e.annotations?.['orch.io/deprecated']).toBe('true');
        expect(e.annotations?.['orch.io/removed-release']).toBe('1.29');
      },
    },
    {
      name: 'a forbidden request is audited with forbid and its status',
      method: 'GET',
      path: '/api/v1/namespaces/default/secrets?as=alice',
      level: 'Metadata',
      check: (e) => {
        expect(e.responseStatus).toMatchObject({ code: 403, reason: 'Forbidden' });
        expect(e.annotations?.['authorization.orch.io/decision']).toBe('forbid');
      },
    },
    {
      name: 'level None writes nothing',
      method: 'GET',
      path: '/api/v1/namespaces/default/events',
      level: undefined,
    },
  ];

  for (const c of cases)
    it(c.name, async () => {
      const as = c.path.endsWith('?as=alice') ? 'alice' : undefined;
      const path = c.path.replace('?as=alice', '');
      const r = await host.request(c.method, path, {
        ...(c.body !== undefined ? { body: c.body } : {}),
        ...(as !== undefined ? { as } : {}),
      });
      const auditId = r.headers.get('audit-id') ?? '';
      expect(auditId).not.toBe('');
      if (c.level === undefined) {
        // A later request's complete event proves the log caught up; the skipped one never appears.
        const probe = await host.request('GET', '/api/v1/namespaces/default/pods');
        await eventsFor(probe.headers.get('audit-id') ?? '');
        expect(events().filter((e) => e.auditID === auditId)).toEqual([]);
        return;
      }
      const found = await eventsFor(auditId);
      // omitStages: RequestReceived is left out by the policy.
      expect(found.map((e) => e.stage)).toEqual(['ResponseComplete']);
      const e = found[0]!;
      expect(e.level).toBe(c.level);
      c.check?.(e);
    });

  it('impersonation records both the user and the one acted as', async () => {
    const r = await host.request('GET', '/api/v1/namespaces/default/configmaps', {
      headers: { 'Impersonate-User': 'jane' },
    });
    const [e] = await eventsFor(r.headers.get('audit-id') ?? '');
    expect(e?.impersonatedUser?.username).toBe('jane');
    expect(e?.user.username).not.toBe('jane');
  });

  it.each([
    { actedAs: 'system:kube-proxy', rule: 'a None rule for the impersonated user does not hide the request' },
    { actedAs: 'audit-only-when-acted-as', rule: 'a Request rule for the impersonated user does not apply' },
  ])('the policy matches the authenticated user, not the impersonated one: $rule', async ({ actedAs }) => {
    const r = await host.request('GET', '/api/v1/namespaces/default/pods', {
      headers: { 'Impersonate-User': actedAs },
    });
    const [e] = await eventsFor(r.headers.get('audit-id') ?? '');
    expect(e?.impersonatedUser?.username).toBe(actedAs);
    expect(e?.level).toBe('Metadata');
  });

  it('a watch writes ResponseStarted, then ResponseComplete when it ends', async () => {
    const r = await host.request('GET', '/api/v1/namespaces/default/pods?watch=true&timeoutSeconds=1');
    const found = await eventsFor(r.headers.get('audit-id') ?? '');
    expect(found.map((e) => e.stage)).toEqual(['ResponseStarted', 'ResponseComplete']);
  });

  it('the sandbox live view serves the same events', async () => {
    const r = await host.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-live' } },
    });
    const id = r.headers.get('audit-id');
    const view = await host.request('GET', '/sandbox/v1/audit?limit=50');
    expect(view.status).toBe(200);
    const body = view.body as { enabled: boolean; items: Event[] };
    expect(body.enabled).toBe(true);
    expect(body.items.some((e) => e.auditID === id && e.stage === 'ResponseComplete')).toBe(true);
  });

  it("the live view hides the cluster components' own requests when asked, and refuses an unknown choice", async () => {
    const r = await host.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-people' } },
    });
    const id = r.headers.get('audit-id');
    const all = (await host.request('GET', '/sandbox/v1/audit')).body as { items: Event[] };
    const users = (items: Event[]) => new Set(items.map((e) => e.user.username));
    // The in-process controllers list and watch as their service accounts from the start.
    expect([...users(all.items)].some((u) => u.startsWith('system:serviceaccount:'))).toBe(true);
    const hidden = (await host.request('GET', '/sandbox/v1/audit?components=hide')).body as {
      items: Event[];
    };
    expect(hidden.items.some((e) => e.auditID === id)).toBe(true);
    for (const u of users(hidden.items)) {
      expect(u).not.toMatch(
        /^system:(node:|serviceaccount:[a-z]+-system:|[a-z]+-(scheduler|controller-manager)$)/,
      );
      expect(u).not.toBe('system:apiserver');
    }
    const shown = (await host.request('GET', '/sandbox/v1/audit?components=show')).body as { items: Event[] };
    expect(shown.items.length).toBeGreaterThanOrEqual(all.items.length);
    const bad = await host.request('GET', '/sandbox/v1/audit?components=some');
    expect(bad.status).toBe(400);
    expect((bad.body as { message: string }).message).toContain('components must be "hide" or "show"');
  });
});

describe('webhook annotations in the audit log', () => {
  beforeAll(async () => {
    const backend = await host.request('PUT', '/sandbox/v1/webhook-backends/add-label', {
      body: {
        name: 'add-label',
        kind: 'rules',
        rules: [
          { allowed: true, patch: [{ op: 'add', path: '/metadata/labels', value: { audited: 'yes' } }] },
        ],
      },
    });
    expect([200, 201]).toContain(backend.status);
    const config = await host.request(
      'POST',
      '/apis/admissionregistration.orch.io/v1/mutatingwebhookconfigurations',
      {
        body: {
          apiVersion: 'admissionregistration.orch.io/v1',
          kind: 'MutatingWebhookConfiguration',
          metadata: { name: 'label-pods' },
          webhooks: [
            {
              name: 'add-label.example.com',
              clientConfig: { url: 'https://add-label.webhooks.sandbox.invalid/' },
              rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
              sideEffects: 'None',
              admissionReviewVersions: ['v1'],
            },
          ],
        },
      },
    );
    expect(config.status).toBe(201);
  });

  const pod = (name: string) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: { containers: [{ name: 'c', image: 'nginx' }] },
  });

  /** Creates pods until the webhook's label shows it is in the chain; returns the last answer's audit events. */
  async function createMutated(namespace: string, prefix: string): Promise<Event> {
    for (let i = 0; ; i++) {
      const r = await host.request('POST', `/api/v1/namespaces/${namespace}/pods`, {
        body: pod(`${prefix}-${i}`),
      });
      expect(r.status).toBe(201);
      if (r.body.metadata.labels?.audited === 'yes') {
        const found = await eventsFor(r.headers.get('audit-id') ?? '');
        return found[found.length - 1]!;
      }
      if (i > 100) throw new Error('the webhook configuration never took effect');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('Metadata records the mutation annotation only; Request also records the patch', async () => {
    const metadata = await createMutated('default', 'm');
    expect(metadata.level).toBe('Metadata');
    expect(
      JSON.parse(metadata.annotations?.['mutation.webhook.admission.orch.io/round_0_index_0'] ?? '{}'),
    ).toEqual({
      configuration: 'label-pods',
      webhook: 'add-label.example.com',
      mutated: true,
    });
    expect(metadata.annotations?.['patch.webhook.admission.orch.io/round_0_index_0']).toBeUndefined();

    const request = await createMutated('audited', 'r');
    expect(request.level).toBe('Request');
    const patch = JSON.parse(
      request.annotations?.['patch.webhook.admission.orch.io/round_0_index_0'] ?? '{}',
    );
    expect(patch).toMatchObject({
      configuration: 'label-pods',
      webhook: 'add-label.example.com',
      patchType: 'JSONPatch',
    });
    expect(patch.patch).toEqual([{ op: 'add', path: '/metadata/labels', value: { audited: 'yes' } }]);
  });
});

describe('audit flags', () => {
  it('refuses a policy with a bad level, as the real server does', () => {
    const dir = mkdtempSync(join(tmpdir(), 'orch-audit-bad-'));
    const path = join(dir, 'p.yaml');
    const read = (p: string): string => {
      if (p !== path) throw new Error('no such file');
      return 'apiVersion: audit.orch.io/v1\nkind: Policy\nrules:\n  - level: Loud\n';
    };
    expect(() => parseHostArgs([`--audit-policy-file=${path}`], read)).toThrow(
      /rules\[0\]\.level: Unsupported value: "Loud"/,
    );
  });
});
