/**
 * ValidatingAdmissionPolicy over HTTP (gate `ValidatingAdmissionPolicy` on,
 * `admissionregistration.orch.io/v1alpha1` enabled with --runtime-config):
 * denials by expression with message, messageExpression and reason (and
 * its code), params from a ConfigMap (and a missing one under Fail and
 * Ignore), Warn and Audit actions, namespaceSelector, excludeResourceRules,
 * a failing expression under Fail, invalid policies refused with one cause
 * per problem, and — gate off, as without the runtime config — the
 * resources not served at all.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdmissionTraceRecord, AdmissionTraceStep } from '../src/api/admission-trace';
import { startTestHost, type TestHost } from './support/host';

const API = '/apis/admissionregistration.orch.io/v1alpha1';
const runtimeConfig = 'admissionregistration.orch.io/v1alpha1=true';

let host: TestHost;
let gateOff: TestHost;
let notServed: TestHost;

beforeAll(async () => {
  [host, gateOff, notServed] = await Promise.all([
    startTestHost({ featureGates: { ValidatingAdmissionPolicy: true }, runtimeConfig }),
    startTestHost({ featureGates: { ValidatingAdmissionPolicy: false }, runtimeConfig }),
    startTestHost(),
  ]);
  for (const h of [host, gateOff]) {
    for (const ns of ['vap', 'vap-free'])
      expect(
        (
          await h.request('POST', '/api/v1/namespaces', {
            body: { metadata: { name: ns, labels: ns === 'vap' ? { policed: 'yes' } : {} } },
          })
        ).status,
      ).toBe(201);
  }
  await install(host);
});
afterAll(async () => {
  await Promise.all([host.close(), gateOff.close(), notServed.close()]);
});

const rules = (resources: string[], operations = ['CREATE', 'UPDATE']) => [
  { apiGroups: [''], apiVersions: ['v1'], operations, resources },
];

function policy(name: string, spec: Record<string, unknown>) {
  return {
    apiVersion: 'admissionregistration.orch.io/v1alpha1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name },
    spec,
  };
}

function binding(name: string, policyName: string, extra: Record<string, unknown> = {}) {
  return {
    apiVersion: 'admissionregistration.orch.io/v1alpha1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name },
    spec: { policyName, validationActions: ['Deny'], ...extra },
  };
}

const policedNamespaces = { namespaceSelector: { matchLabels: { policed: 'yes' } } };

/** Each policy matches ConfigMaps whose name starts with its own prefix, so the cases stay apart. */
const onlyPrefix = (prefix: string) => ({
  name: 'prefix',
  expression: `has(object.metadata.name) && object.metadata.name.startsWith('${prefix}')`,
});

async function install(h: TestHost): Promise<void> {
  // The param exists before its policy: a binding whose param is missing fails every matching write.
  const param = await h.request('POST', '/api/v1/namespaces/vap-free/configmaps', {
    body: { metadata: { name: 'vap-params' }, data: { env: 'prod' } },
  });
  expect(param.status, JSON.stringify(param.body)).toBe(201);
  const objects: [string, unknown][] = [
    [
      'validatingadmissionpolicies',
      policy('max-keys', {
        matchConstraints: { resourceRules: rules(['configmaps']), ...policedNamespaces },
        matchConditions: [onlyPrefix('keys-')],
        validations: [{ expression: 'size(object.data) <= 2' }],
      }),
    ],
    ['validatingadmissionpolicybindings', binding('max-keys-binding', 'max-keys')],
    [
      'validatingadmissionpolicies',
      policy('msg', {
        matchConstraints: { resourceRules: rules(['configmaps']) },
        matchConditions: [onlyPrefix('msg-')],
        validations: [
          {
            expression: '!has(object.data.forbidden)',
            messageExpression: "'key forbidden is not allowed in ' + object.metadata.name",
            reason: 'Forbidden',
          },
          { expression: '!has(object.data.big)', message: 'too big', reason: 'RequestEntityTooLarge' },
        ],
      }),
    ],
    ['validatingadmissionpolicybindings', binding('msg-binding', 'msg')],
    [
      'validatingadmissionpolicies',
      policy('params', {
        paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
        matchConstraints: { resourceRules: rules(['configmaps']) },
        matchConditions: [onlyPrefix('param-')],
        validations: [
          {
            expression: 'object.data.env == params.data.env',
            messageExpression: "'env must be ' + params.data.env",
          },
        ],
        auditAnnotations: [{ key: 'env', valueExpression: 'object.data.env' }],
      }),
    ],
    [
      'validatingadmissionpolicybindings',
      binding('params-binding', 'params', { paramRef: { name: 'vap-params', namespace: 'vap-free' } }),
    ],
    [
      'validatingadmissionpolicies',
      policy('missing-fail', {
        paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
        // The param is looked up before match conditions run: scope by resourceNames instead.
        matchConstraints: { resourceRules: [{ ...rules(['configmaps'])[0], resourceNames: ['missing-a'] }] },
        validations: [{ expression: 'true' }],
      }),
    ],
    [
      'validatingadmissionpolicybindings',
      binding('missing-fail-binding', 'missing-fail', { paramRef: { name: 'nope', namespace: 'vap-free' } }),
    ],
    [
      'validatingadmissionpolicies',
      policy('missing-ignore', {
        failurePolicy: 'Ignore',
        paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
        matchConstraints: { resourceRules: [{ ...rules(['configmaps'])[0], resourceNames: ['ignored-a'] }] },
        validations: [{ expression: 'false' }],
      }),
    ],
    [
      'validatingadmissionpolicybindings',
      binding('missing-ignore-binding', 'missing-ignore', {
        paramRef: { name: 'nope', namespace: 'vap-free' },
      }),
    ],
    [
      'validatingadmissionpolicies',
      policy('warn-audit', {
        matchConstraints: { resourceRules: rules(['configmaps']) },
        matchConditions: [onlyPrefix('soft-')],
        validations: [
          {
            expression: "has(object.metadata.labels) && 'team' in object.metadata.labels",
            message: 'a team label is expected',
          },
        ],
      }),
    ],
    [
      'validatingadmissionpolicybindings',
      binding('warn-binding', 'warn-audit', { validationActions: ['Warn', 'Audit'] }),
    ],
    [
      'validatingadmissionpolicies',
      policy('no-secrets', {
        matchConstraints: {
          resourceRules: rules(['*']),
          excludeResourceRules: [
            {
              ...rules(['configmaps', 'namespaces', 'pods', 'serviceaccounts', 'events'])[0],
              resourceNames: [],
            },
          ],
        },
        validations: [
          { expression: "!has(object.metadata.name) || !object.metadata.name.startsWith('blocked-')" },
        ],
      }),
    ],
    ['validatingadmissionpolicybindings', binding('no-secrets-binding', 'no-secrets')],
    [
      'validatingadmissionpolicies',
      policy('broken', {
        matchConstraints: { resourceRules: rules(['configmaps']) },
        matchConditions: [onlyPrefix('broken-')],
        validations: [{ expression: 'object.data.missing == "x"' }],
      }),
    ],
    ['validatingadmissionpolicybindings', binding('broken-binding', 'broken')],
  ];
  for (const [resource, body] of objects) {
    const res = await h.request('POST', `${API}/${resource}`, { body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
  // Policies take effect once the informer has seen them: wait until the last binding denies a dry run.
  for (let i = 0; i < 100; i++) {
    const probe = await h.request('POST', '/api/v1/namespaces/vap/configmaps?dryRun=All', {
      body: { metadata: { name: 'broken-probe' } },
    });
    if (probe.status === 422 || h === gateOff) break;
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface Case {
  name: string;
  path: string;
  body: Record<string, unknown>;
  status: number;
  reason?: string;
  message?: string;
  warning?: string;
  step?: Partial<AdmissionTraceStep>;
  annotation?: [string, string];
}

const cm = (name: string, data: Record<string, string>, labels?: Record<string, string>) => ({
  metadata: { name, ...(labels !== undefined ? { labels } : {}) },
  data,
});

const cases: Case[] = [
  {
    name: 'an expression admits',
    path: '/api/v1/namespaces/vap/configmaps',
    body: cm('keys-ok', { a: '1' }),
    status: 201,
  },
  {
    name: 'an expression denies with the default message and 422 Invalid',
    path: '/api/v1/namespaces/vap/configmaps',
    body: cm('keys-many', { a: '1', b: '2', c: '3' }),
    status: 422,
    reason: 'Invalid',
    message: `configmaps "keys-many" is forbidden: ValidatingAdmissionPolicy 'max-keys' with binding 'max-keys-binding' denied request: failed expression: size(object.data) <= 2`,
    step: {
      decision: 'denied',
      configuration: 'max-keys',
      binding: 'max-keys-binding',
      rule: 'size(object.data) <= 2',
      code: 422,
    },
  },
  {
    name: 'namespaceSelector: the same object elsewhere is not policed',
    path: '/api/v1/namespaces/vap-free/configmaps',
    body: cm('keys-many', { a: '1', b: '2', c: '3' }),
    status: 201,
    step: {
      decision: 'skipped',
      configuration: 'max-keys',
      reason: 'matchConstraints.namespaceSelector did not match',
    },
  },
  {
    name: 'messageExpression and reason Forbidden → 403',
    path: '/api/v1/namespaces/vap/configmaps',
    body: cm('msg-a', { forbidden: 'x' }),
    status: 403,
    reason: 'Forbidden',
    message: `configmaps "msg-a" is forbidden: ValidatingAdmissionPolicy 'msg' with binding 'msg-binding' denied request: key forbidden is not allowed in msg-a`,
  },
  {
    name: 'message and reason RequestEntityTooLarge → 413',
    path: '/api/v1/namespaces/vap/configmaps',
    body: cm('msg-b', { big: 'x' }),
    status: 413,
    reason: 'RequestEntityTooLarge',
    message: `configmaps "msg-b" is forbidden: ValidatingAdmissionPolicy 'msg' with binding 'msg-binding' denied request: too big`,
  },
  {
    name: 'params from a ConfigMap admit and publish the audit annotation',
    path: '/api/v1/namespaces/vap/configmaps',
    body: cm('param-ok', { env: 'prod' }),
    status: 201,
    step: { decision: 'allowed', configuration: 'params', binding: 'params-binding' },
    annotation: ['params/env', 'prod'],
  },
  {
    name: 'params from a ConfigMap deny',
    path: '/api/v1/namespaces/vap/configmaps',
    body: cm('param-bad', { env: 'dev' }),
    status: 422,
    message: `configmaps "param-bad" is forbidden: ValidatingAdmissionPolicy 'params' with binding 'params-binding' denied request: env must be prod`,
  },
  {
    name: 'a missing param fails the request under Fail',
    path: '/api/v1/namespaces/vap/configmaps',
    body: cm('missing-a', {}),
    status: 422,
    message: `configmaps "missing-a" is forbidden: ValidatingAdmissionPolicy 'missing-fail' with binding 'missing-fail-binding' denied request: failed to configure binding: nope not found`,
  },
  {
    name: 'a missing param is ignored under Ignore',
    path: '/api/v1/namespaces/vap/configmaps',
    body: cm('ignored-a', {}),
    status: 201,
    step: {
      decision: 'error',
      configuration: 'missing-ignore',
      binding: 'missing-ignore-binding',
      reason: 'nope not found',
    },
  },
  {
    name: 'Warn and Audit: admitted with a Warning header and the validation_failure annotation',
    path: '/api/v1/namespaces/vap/configmaps',
    body: cm('soft-a', {}),
    status: 201,
    warning: `Validation failed for ValidatingAdmissionPolicy 'warn-audit' with binding 'warn-binding': a team label is expected`,
    annotation: [
      'validation.policy.admission.orch.io/validation_failure',
      JSON.stringify([
        {
          message: 'a team label is expected',
          policy: 'warn-audit',
          binding: 'warn-binding',
          expressionIndex: 0,
          validationActions: ['Warn', 'Audit'],
        },
      ]),
    ],
  },
  {
    name: 'excludeResourceRules: excluded resources pass',
    path: '/api/v1/namespaces/vap/configmaps',
    body: cm('blocked-cm', {}),
    status: 201,
    step: {
      decision: 'skipped',
      configuration: 'no-secrets',
      reason: 'matchConstraints.excludeResourceRules matched',
    },
  },
  {
    name: 'excludeResourceRules: other resources are denied',
    path: '/api/v1/namespaces/vap/secrets',
    body: { metadata: { name: 'blocked-secret' } },
    status: 422,
    message: `secrets "blocked-secret" is forbidden: ValidatingAdmissionPolicy 'no-secrets' with binding 'no-secrets-binding' denied request: failed expression: !has(object.metadata.name) || !object.metadata.name.startsWith('blocked-')`,
  },
  {
    name: 'an expression that fails at runtime fails the request under Fail',
    path: '/api/v1/namespaces/vap/configmaps',
    body: cm('broken-a', {}),
    status: 422,
    reason: 'Invalid',
    message: `configmaps "broken-a" is forbidden: ValidatingAdmissionPolicy 'broken' with binding 'broken-binding' denied request: expression 'object.data.missing == "x"' resulted in error: no such key: missing`,
    step: { decision: 'denied', configuration: 'broken', rule: 'object.data.missing == "x"' },
  },
];

async function stepsOf(h: TestHost, auditId: string | null): Promise<AdmissionTraceStep[]> {
  const res = await h.request('GET', `/sandbox/v1/traces/${auditId ?? ''}`);
  expect(res.status).toBe(200);
  return (res.body as AdmissionTraceRecord).steps.filter((s) => s.type === 'policy');
}

describe('policies decide writes', () => {
  it.each(cases)('$name', async (c) => {
    const res = await host.request('POST', c.path, { body: c.body });
    const status = res.body as {
      reason?: string;
      message?: string;
      details?: { causes?: { message?: string }[] };
    };
    expect(res.status, JSON.stringify(res.body)).toBe(c.status);
    if (c.reason !== undefined) expect(status.reason).toBe(c.reason);
    if (c.message !== undefined) {
      expect(status.message).toBe(c.message);
      expect(status.details?.causes?.[0]?.message).toBe(
        c.message.slice(c.message.indexOf('ValidatingAdmissionPolicy')),
      );
    }
    if (c.warning !== undefined) expect(res.headers.get('warning')).toContain(c.warning);
    const steps = await stepsOf(host, res.headers.get('audit-id'));
    expect(steps.every((s) => s.phase === 'validating')).toBe(true);
    if (c.step !== undefined) expect(steps).toContainEqual(expect.objectContaining(c.step));
    if (c.annotation !== undefined) {
      const step = steps.find((s) => s.annotations?.[c.annotation![0]] !== undefined);
      expect(step?.annotations?.[c.annotation[0]]).toBe(c.annotation[1]);
    }
  });
});

describe('policies are validated on create', () => {
  const invalid: { name: string; resource: string; body: unknown; causes: string[] }[] = [
    {
      name: 'a policy with a bad expression, a bad reason and no matchConstraints',
      resource: 'validatingadmissionpolicies',
      body: policy('bad', {
        validations: [{ expression: 'object.', reason: 'Teapot' }, { expression: '1 + 1' }],
      }),
      causes: [
        'spec.matchConstraints',
        'spec.validations[0].expression',
        'spec.validations[0].reason',
        'spec.validations[1].expression',
      ],
    },
    {
      name: 'a policy without validations',
      resource: 'validatingadmissionpolicies',
      body: policy('empty', { matchConstraints: { resourceRules: rules(['pods']) } }),
      causes: ['spec.validations'],
    },
    {
      name: 'params used without a paramKind',
      resource: 'validatingadmissionpolicies',
      body: policy('noparams', {
        matchConstraints: { resourceRules: rules(['pods']) },
        validations: [{ expression: 'params.x == 1' }],
      }),
      causes: ['spec.validations[0].expression'],
    },
    {
      name: 'a binding without policyName, with Deny and Warn',
      resource: 'validatingadmissionpolicybindings',
      body: { ...binding('b', ''), spec: { validationActions: ['Deny', 'Warn', 'Nope'] } },
      causes: ['spec.policyName', 'spec.validationActions[2]', 'spec.validationActions'],
    },
    {
      name: 'a binding without validationActions',
      resource: 'validatingadmissionpolicybindings',
      body: { ...binding('b2', 'x'), spec: { policyName: 'x' } },
      causes: ['spec.validationActions'],
    },
  ];
  it.each(invalid)('$name → 422 with one cause per problem', async (c) => {
    const res = await host.request('POST', `${API}/${c.resource}`, { body: c.body });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    const body = res.body as { reason: string; details: { causes: { field: string; message: string }[] } };
    expect(body.reason).toBe('Invalid');
    expect(body.details.causes.map((x) => x.field)).toEqual(c.causes);
  });

  it('words a compile error as the real server does', async () => {
    const res = await host.request('POST', `${API}/validatingadmissionpolicies`, {
      body: policy('bad2', {
        matchConstraints: { resourceRules: rules(['pods']) },
        validations: [{ expression: '1 + 1' }],
      }),
    });
    const body = res.body as { details: { causes: { message: string }[] } };
    expect(body.details.causes[0]?.message).toBe('Invalid value: "1 + 1": must evaluate to bool');
  });

  it('stores defaults and no typeChecking status (v1.27)', async () => {
    const res = await host.request('GET', `${API}/validatingadmissionpolicies/max-keys`);
    expect(res.status).toBe(200);
    const spec = (res.body as { spec: Record<string, unknown>; status?: Record<string, unknown> }).spec;
    expect(spec.failurePolicy).toBe('Fail');
    expect(spec.matchConstraints).toMatchObject({ matchPolicy: 'Equivalent', objectSelector: {} });
    expect((res.body as { status?: { typeChecking?: unknown } }).status?.typeChecking).toBeUndefined();
  });
});

describe('the gate and the runtime config', () => {
  it('gate off: the policy resources are not served (as v1.27) and the plugin consults nothing', async () => {
    expect((await gateOff.request('GET', `${API}/validatingadmissionpolicies`)).status).toBe(404);
    const res = await gateOff.request('POST', '/api/v1/namespaces/vap/configmaps', {
      body: cm('keys-many', { a: '1', b: '2', c: '3' }),
    });
    expect(res.status).toBe(201);
    expect(await stepsOf(gateOff, res.headers.get('audit-id'))).toEqual([]);
  });

  it('without --runtime-config the v1alpha1 resources are not served', async () => {
    const res = await notServed.request('GET', `${API}/validatingadmissionpolicies`);
    expect(res.status).toBe(404);
    const denied = await notServed.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: cm('keys-many', { a: '1', b: '2', c: '3' }),
    });
    expect(denied.status).toBe(201);
  });
});
