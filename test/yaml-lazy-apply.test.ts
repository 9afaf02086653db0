/**
 * A server-side apply (`application/apply-patch+yaml`, in mixed case) as a
 * fresh server's first use of the YAML library: a body in JSON text (what
 * kubectl and the controllers send) is read without it, and the first body
 * in YAML text loads it before it is decoded. This file must not load the
 * library itself.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { yamlLibrary } from '../src/machinery/decode/yaml-library';
import { startTestHost, type TestHost } from './support/host';

const applyType = 'Application/Apply-Patch+YAML';
const configmaps = '/api/v1/namespaces/default/configmaps';

describe('server-side apply as the first use of the YAML library', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost({ profile: 'kubernetes' });
  });
  afterAll(async () => {
    await host.close();
  });

  it('reads a JSON apply body without the library', async () => {
    expect(yamlLibrary.loaded).toBe(false);
    const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'lazy-json' } });
    const res = await host.request('PATCH', `${configmaps}/lazy-json?fieldManager=tester`, {
      body,
      contentType: applyType,
    });
    expect(res.status, res.text).toBe(201);
    expect(yamlLibrary.loaded).toBe(false);
  });

  it('loads it for a YAML apply body, and answers in JSON', async () => {
    const body = [
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      '  name: lazy-yaml',
      'data:',
      '  a: "1"',
      '',
    ].join('\n');
    const res = await host.request('PATCH', `${configmaps}/lazy-yaml?fieldManager=tester`, {
      body,
      contentType: applyType,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.body.data).toEqual({ a: '1' });
    expect(res.body.metadata.managedFields?.[0]).toMatchObject({ manager: 'tester', operation: 'Apply' });
    expect(yamlLibrary.loaded).toBe(true);
  });
});
