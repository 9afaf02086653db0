/**
 * Feature gates over HTTP, table-driven: one host with v1.27's defaults and
 * one with gates turned off (`APIListChunking`, `CustomResourceValidationExpressions`,
 * `APISelfSubjectReview`); each row sends the same request to both and
 * checks what each gate decides — paging, CRD CEL rules, SelfSubjectReview
 * being served, webhook matchConditions (off by default in v1.27),
 * sendInitialEvents without WatchList. Then the workshop settings' checks
 * (unknown and locked gates refused with the real messages, AllAlpha) and
 * the start-up refusals of `--feature-gates` (parser, and one real process
 * for the exit code).
 */

import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FlagError, parseHostArgs } from '../src/hosts/node/args';
import { featureGateSpecs } from '../src/machinery/feature-gate-list';
import { startTestHost, type TestHost } from './support/host';

const runtimeConfig = 'authentication.orch.io/v1beta1=true';
let defaults: TestHost;
let off: TestHost;

const crd = {
  apiVersion: 'apiextensions.orch.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'gadgets.gates.example.com' },
  spec: {
    group: 'gates.example.com',
    scope: 'Namespaced',
    names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: { size: { type: 'integer' } },
                'x-orch-validations': [{ rule: 'self.size < 10', message: 'too big' }],
              },
            },
          },
        },
      },
    ],
  },
};

async function createCrd(h: TestHost): Promise<unknown> {
  const res = await h.request('POST', '/apis/apiextensions.orch.io/v1/customresourcedefinitions', {
    body: crd,
  });
  expect(res.status, res.text).toBe(201);
  for (let i = 0; i < 100; i++) {
    if ((await h.request('GET', '/apis/gates.example.com/v1/namespaces/default/gadgets')).status === 200)
      break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return res.body;
}

beforeAll(async () => {
  [defaults, off] = await Promise.all([
    startTestHost({ runtimeConfig }),
    startTestHost({
      runtimeConfig,
      featureGates: {
        APIListChunking: false,
        CustomResourceValidationExpressions: false,
        APISelfSubjectReview: false,
      },
    }),
  ]);
});
afterAll(async () => {
  await Promise.all([defaults.close(), off.close()]);
});

interface Row {
  gate: string;
  check: (h: TestHost, on: boolean) => Promise<void>;
}

const rows: Row[] = [
  {
    gate: 'APIListChunking',
    async check(h, on) {
      const res = await h.request('GET', '/api/v1/namespaces?limit=1');
      expect(res.status).toBe(200);
      const body = res.body as { items: unknown[]; metadata: { continue?: string } };
      if (on) {
        expect(body.items).toHaveLength(1);
        expect(body.metadata.continue).toBeTruthy();
      } else {
        // The limit is ignored and no continue token is offered.
        expect(body.items.length).toBeGreaterThan(1);
        expect(body.metadata.continue).toBeUndefined();
      }
    },
  },
  {
    gate: 'CustomResourceValidationExpressions',
    async check(h, on) {
      const stored = (await createCrd(h)) as typeof crd;
      const rules = stored.spec.versions[0]?.schema.openAPIV3Schema.properties.spec['x-orch-validations'];
      const res = await h.request('POST', '/apis/gates.example.com/v1/namespaces/default/gadgets', {
        body: {
          apiVersion: 'gates.example.com/v1',
          kind: 'Gadget',
          metadata: { name: 'big' },
          spec: { size: 50 },
        },
      });
      if (on) {
        expect(rules).toHaveLength(1);
        expect(res.status).toBe(422);
        expect(res.text).toContain('too big');
      } else {
        // The rules are dropped from the CRD on create, so nothing checks them.
        expect(rules).toBeUndefined();
        expect(res.status, res.text).toBe(201);
      }
    },
  },
  {
    gate: 'APISelfSubjectReview',
    async check(h, on) {
      const res = await h.request('POST', '/apis/authentication.orch.io/v1beta1/selfsubjectreviews', {
        body: { apiVersion: 'authentication.orch.io/v1beta1', kind: 'SelfSubjectReview' },
      });
      expect(res.status).toBe(on ? 201 : 404);
      const discovery = await h.request('GET', '/apis/authentication.orch.io/v1beta1');
      expect(discovery.status).toBe(on ? 200 : 404);
    },
  },
];

describe.each(rows)('gate $gate', ({ gate, check }) => {
  it('on (v1.27 default): the feature works', async () => {
    await check(defaults, true);
  });
  it(`off (--feature-gates=${gate}=false): the server behaves as v1.27 without it`, async () => {
    await check(off, false);
  });
});

describe('gates off by default in v1.27', () => {
  it('AdmissionWebhookMatchConditions: matchConditions are dropped from a new webhook configuration', async () => {
    const res = await defaults.request(
      'POST',
      '/apis/admissionregistration.orch.io/v1/validatingwebhookconfigurations',
      {
        body: {
          metadata: { name: 'gated' },
          webhooks: [
            {
              name: 'gated.example.com',
              clientConfig: { url: 'https://hook.example.com/' },
              admissionReviewVersions: ['v1'],
              sideEffects: 'None',
              matchConditions: [{ name: 'always', expression: 'true' }],
            },
          ],
        },
      },
    );
    expect(res.status, res.text).toBe(201);
    expect((res.body as { webhooks: Record<string, unknown>[] }).webhooks[0]).not.toHaveProperty(
      'matchConditions',
    );
  });

  it('WatchList: sendInitialEvents is refused with the real message', async () => {
    const res = await defaults.request(
      'GET',
      '/api/v1/namespaces?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan',
    );
    expect(res.status).toBe(422);
    expect(res.text).toContain(
      'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
    );
  });
});

describe('workshop settings', () => {
  it('list every v1.27 gate with its effective value', async () => {
    const res = await off.request('GET', '/sandbox/v1/settings');
    const gates = (res.body as { featureGates: Record<string, boolean> }).featureGates;
    expect(Object.keys(gates)).toHaveLength(featureGateSpecs.length);
    expect(gates).toMatchObject({ APIListChunking: false, WatchList: false, ServerSideApply: true });
  });

  it.each([
    [{ Foo: true }, 'unrecognized feature gate: Foo'],
    [
      { ServerSideApply: false },
      'cannot set feature gate ServerSideApply to false, feature is locked to true',
    ],
  ])('refuse %j with 400: %s', async (featureGates, message) => {
    const res = await defaults.request('PUT', '/sandbox/v1/settings', { body: { featureGates } });
    expect(res.status).toBe(400);
    expect((res.body as { message: string }).message).toBe(message);
  });

  it('AllAlpha turns on every alpha gate not set explicitly, and WatchList then allows streaming lists', async () => {
    const res = await off.request('PUT', '/sandbox/v1/settings', {
      body: { featureGates: { AllAlpha: true } },
    });
    expect(res.status).toBe(200);
    const gates = (res.body as { featureGates: Record<string, boolean> }).featureGates;
    expect(gates).toMatchObject({ WatchList: true, ValidatingAdmissionPolicy: true, APIListChunking: false });
    const back = await off.request('PUT', '/sandbox/v1/settings', {
      body: { featureGates: { AllAlpha: false } },
    });
    expect((back.body as { featureGates: Record<string, boolean> }).featureGates.WatchList).toBe(false);
  });
});

describe('--feature-gates at start-up', () => {
  it.each([
    ['Foo=true', 'invalid argument "Foo=true" for "--feature-gates" flag: unrecognized feature gate: Foo'],
    [
      'LegacyServiceAccountTokenNoAutoGeneration=false',
      'invalid argument "LegacyServiceAccountTokenNoAutoGeneration=false" for "--feature-gates" flag: cannot set feature gate LegacyServiceAccountTokenNoAutoGeneration to false, feature is locked to true',
    ],
    [
      'WatchList=maybe',
      'invalid argument "WatchList=maybe" for "--feature-gates" flag: invalid value of WatchList=maybe, err: strconv.ParseBool: parsing "maybe": invalid syntax',
    ],
  ])('--feature-gates=%s is refused', (value, message) => {
    expect(() => parseHostArgs([`--feature-gates=${value}`])).toThrow(new FlagError(message));
  });

  it('warns for GA gates and merges repeated flags', () => {
    const warnings: string[] = [];
    const options = parseHostArgs(
      ['--feature-gates=ServerSideApply=true', '--feature-gates', 'WatchList=true,AllBeta=false'],
      undefined,
      (w) => warnings.push(w),
    );
    expect(options.featureGates).toEqual({ ServerSideApply: true, WatchList: true, AllBeta: false });
    expect(warnings).toEqual([
      'Setting GA feature gate ServerSideApply=true. It will be removed in a future release.',
    ]);
  });

  it('the process exits 1 with the plain error line', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/hosts/node/main.ts', '--feature-gates=Foo=true'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toBe(
      'Error: invalid argument "Foo=true" for "--feature-gates" flag: unrecognized feature gate: Foo\n',
    );
  });
});
