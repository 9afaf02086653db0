/**
 * The CEL library is loaded on first use by a custom resource's write: a
 * CRD created without rules or patterns (so its own validation did not load
 * the library) gets a validation rule and a pattern written to storage
 * directly, as an earlier server left it; the first write of its resources
 * then loads the library and gets the rule's and the pattern's real errors,
 * on create, update and the status subresource. This file must not load the
 * library itself (each test file runs in its own process).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { celLibrary } from '../src/cel/engine';
import { PROFILES } from '../src/machinery/naming';
import { causes, crdBody, createEstablished, withSpec, type Json } from './support/crd';
import { startTestHost, type TestHost } from './support/host';

const profile = PROFILES.orch;
const apiGroup = profile.suffixed('apiextensions');
const group = 'stored.example.com';
const crdName = `widgets.${group}`;
const path = `/apis/${group}/v1/namespaces/default/widgets`;

const widget = (name: string, spec: Json, extra: Json = {}): Json => ({
  apiVersion: `${group}/v1`,
  kind: 'Widget',
  metadata: { name },
  spec,
  ...extra,
});

describe('the lazily loaded CEL library, first used by a custom resource write', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost();
    const spec: Json = {
      type: 'object',
      properties: { name: { type: 'string' }, replicas: { type: 'integer' } },
    };
    await createEstablished(
      host,
      crdBody(withSpec(spec, { type: 'object', properties: { ready: { type: 'integer' } } }), {
        group,
        apiGroup,
        version: { subresources: { status: {} } },
      }),
      apiGroup,
    );
    const created = await host.request('POST', path, {
      body: widget('existing', { name: 'web', replicas: 1 }),
    });
    expect(created.status, created.text).toBe(201);
  });
  afterAll(async () => {
    await host.close();
  });

  it('is loaded by the first write under a stored rule and pattern, which get their real errors', async () => {
    expect(celLibrary.loaded).toBe(false);
    const key = `/${apiGroup}/customresourcedefinitions/${crdName}`;
    const stored = await host.storage.get(key);
    if (stored === undefined) throw new Error(`${key} is not stored`);
    const crd = structuredClone(stored.object) as Json & { spec: { versions: Json[] } };
    const schema = ((crd.spec.versions[0] as Json).schema as Json).openAPIV3Schema as Json;
    const props = schema.properties as Record<string, Json>;
    props.spec = {
      type: 'object',
      properties: { name: { type: 'string', pattern: '^[a-z]+$' }, replicas: { type: 'integer' } },
      [profile.ext('validations')]: [{ rule: 'self.replicas <= 5', message: 'at most 5 replicas' }],
    };
    props.status = {
      type: 'object',
      properties: { ready: { type: 'integer', [profile.ext('validations')]: [{ rule: 'self >= 0' }] } },
    };
    await host.storage.update(key, crd, stored.revision);

    const cases: {
      what: string;
      method: string;
      at: string;
      body: Json;
      status: number;
      causes?: string[];
    }[] = [
      {
        what: 'create breaking the rule',
        method: 'POST',
        at: path,
        body: widget('many', { name: 'web', replicas: 9 }),
        status: 422,
        causes: ['spec: Invalid value: "object": at most 5 replicas'],
      },
      {
        what: 'create breaking the pattern',
        method: 'POST',
        at: path,
        body: widget('upper', { name: 'Web', replicas: 1 }),
        status: 422,
        causes: [`spec.name: Invalid value: "Web": spec.name in body should match '^[a-z]+$'`],
      },
      {
        what: 'update breaking the rule',
        method: 'PUT',
        at: `${path}/existing`,
        body: widget('existing', { name: 'web', replicas: 6 }),
        status: 422,
        causes: ['spec: Invalid value: "object": at most 5 replicas'],
      },
      {
        what: 'status breaking its rule',
        method: 'PUT',
        at: `${path}/existing/status`,
        body: widget('existing', { name: 'web', replicas: 1 }, { status: { ready: -1 } }),
        status: 422,
        causes: ['status.ready: Invalid value: "integer": failed rule: self >= 0'],
      },
      {
        what: 'a valid create',
        method: 'POST',
        at: path,
        body: widget('fine', { name: 'web', replicas: 5 }),
        status: 201,
      },
    ];
    for (const c of cases) {
      const r = await host.request(c.method, c.at, { body: c.body });
      expect(r.status, `${c.what}: ${r.text}`).toBe(c.status);
      if (c.causes !== undefined) expect(causes(r), c.what).toEqual(c.causes);
    }
    expect(celLibrary.loaded).toBe(true);
  });
});
