/**
 * The CEL library (the CEL engine with RE2) is loaded on first use: a fresh
 * server answers ordinary requests and serves a CRD without rules or
 * patterns without it; the first CRD with a validation rule and a pattern
 * loads it, and its custom resources get the rule's and the pattern's real
 * errors. The CRD machinery (a CRD's validation, its resources' builder) is
 * a lazy script too, loaded by the first CRD write; the webhook dispatch is
 * not loaded without a webhook configuration. This file must not load
 * any of them itself: the server's own load is what is tested (each test file
 * runs in its own process).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { celLibrary } from '../src/cel/engine';
import { crdMachinery } from '../src/registry/crd/library';
import { webhookDispatch } from '../src/admission/webhook/library';
import { PROFILES } from '../src/machinery/naming';
import { causes, crdBody, createEstablished, withSpec, type Json } from './support/crd';
import { startTestHost, type TestHost } from './support/host';

const profile = PROFILES.orch;
const apiGroup = profile.suffixed('apiextensions');
const validations = profile.ext('validations');

describe('the lazily loaded CEL library, first used by a CRD', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost();
  });
  afterAll(async () => {
    await host.close();
  });

  it('is not loaded by start-up and ordinary requests', async () => {
    const steps: [string, string, unknown][] = [
      ['GET', '/api/v1/namespaces', undefined],
      ['POST', '/api/v1/namespaces', { metadata: { name: 'lazy' } }],
      ['POST', '/api/v1/namespaces/lazy/configmaps', { metadata: { name: 'c' }, data: { a: 'b' } }],
      [
        'POST',
        '/api/v1/namespaces/lazy/pods',
        { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      ],
      ['GET', '/api/v1/namespaces/lazy/pods', undefined],
    ];
    for (const [method, path, body] of steps) {
      const r = await host.request(method, path, body === undefined ? {} : { body });
      expect(r.status, `${method} ${path}: ${r.text}`).toBeLessThan(300);
    }
    expect(celLibrary.loaded).toBe(false);
    // Nor the CRD machinery (validation, the served resources' builder): no CRD was stored yet; nor the webhook
    // dispatch: the writes went through admission, but no webhook configuration exists.
    expect(crdMachinery.loaded).toBe(false);
    expect(webhookDispatch.loaded).toBe(false);
  });

  it('is not loaded by a CRD without rules or patterns, nor by its custom resources', async () => {
    const group = 'plain.example.com';
    await createEstablished(
      host,
      crdBody(withSpec({ type: 'object', properties: { size: { type: 'integer', maximum: 3 } } }), {
        group,
        apiGroup,
      }),
      apiGroup,
    );
    const path = `/apis/${group}/v1/namespaces/lazy/widgets`;
    const ok = await host.request('POST', path, {
      body: { apiVersion: `${group}/v1`, kind: 'Widget', metadata: { name: 'w' }, spec: { size: 2 } },
    });
    expect(ok.status, ok.text).toBe(201);
    // The CRD's write loaded the CRD machinery first; its resources were served as soon as it was established.
    expect(crdMachinery.loaded).toBe(true);
    const tooBig = await host.request('POST', path, {
      body: { apiVersion: `${group}/v1`, kind: 'Widget', metadata: { name: 'w2' }, spec: { size: 4 } },
    });
    expect(causes(tooBig)).toEqual([
      'spec.size: Invalid value: 4: spec.size in body should be less than or equal to 3',
    ]);
    expect(celLibrary.loaded).toBe(false);
  });

  it('is loaded by the first CRD with a rule and a pattern, whose resources get their real errors', async () => {
    const group = 'ruled.example.com';
    const spec: Json = {
      type: 'object',
      properties: {
        name: { type: 'string', pattern: '^[a-z]+$' },
        replicas: { type: 'integer' },
        minReplicas: { type: 'integer' },
      },
      [validations]: [{ rule: 'self.minReplicas <= self.replicas', message: 'replicas below minReplicas' }],
    };
    await createEstablished(host, crdBody(withSpec(spec), { group, apiGroup }), apiGroup);
    expect(celLibrary.loaded).toBe(true);

    const path = `/apis/${group}/v1/namespaces/lazy/widgets`;
    const widget = (name: string, s: Json): Json => ({
      apiVersion: `${group}/v1`,
      kind: 'Widget',
      metadata: { name },
      spec: s,
    });
    const cases: { name: string; spec: Json; status: number; causes?: string[] }[] = [
      { name: 'ok', spec: { name: 'web', replicas: 2, minReplicas: 1 }, status: 201 },
      {
        name: 'rule',
        spec: { name: 'web', replicas: 1, minReplicas: 2 },
        status: 422,
        causes: ['spec: Invalid value: "object": replicas below minReplicas'],
      },
      {
        name: 'pattern',
        spec: { name: 'Web_1', replicas: 2, minReplicas: 1 },
        status: 422,
        causes: [`spec.name: Invalid value: "Web_1": spec.name in body should match '^[a-z]+$'`],
      },
    ];
    for (const c of cases) {
      const r = await host.request('POST', path, { body: widget(c.name, c.spec) });
      expect(r.status, `${c.name}: ${r.text}`).toBe(c.status);
      if (c.causes !== undefined) expect(causes(r)).toEqual(c.causes);
    }
  });
});
