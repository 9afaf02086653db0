/**
 * Immutable ConfigMaps and Secrets over HTTP: once `immutable: true` is
 * stored, data and the mark cannot change (422 with the real message), a
 * Secret's type never changes, and metadata still may.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from './support/host';

describe('immutable data', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost();
  });
  afterAll(() => host.close());

  const cases: {
    name: string;
    path: string;
    created: Record<string, unknown>;
    change: Record<string, unknown>;
    status: number;
    message?: string;
  }[] = [
    {
      name: 'ConfigMap data',
      path: '/api/v1/namespaces/default/configmaps',
      created: { apiVersion: 'v1', kind: 'ConfigMap', immutable: true, data: { a: '1' } },
      change: { data: { a: '2' } },
      status: 422,
      message: 'data: Forbidden: field is immutable when `immutable` is set',
    },
    {
      name: 'ConfigMap immutable mark',
      path: '/api/v1/namespaces/default/configmaps',
      created: { apiVersion: 'v1', kind: 'ConfigMap', immutable: true, data: { a: '1' } },
      change: { immutable: false },
      status: 422,
      message: 'immutable: Forbidden: field is immutable when `immutable` is set',
    },
    {
      name: 'ConfigMap labels',
      path: '/api/v1/namespaces/default/configmaps',
      created: { apiVersion: 'v1', kind: 'ConfigMap', immutable: true, data: { a: '1' } },
      change: { metadata: { labels: { x: 'y' } } },
      status: 200,
    },
    {
      name: 'Secret data',
      path: '/api/v1/namespaces/default/secrets',
      created: { apiVersion: 'v1', kind: 'Secret', immutable: true, data: { a: 'MQ==' } },
      change: { data: { a: 'Mg==' } },
      status: 422,
      message: 'data: Forbidden: field is immutable when `immutable` is set',
    },
    {
      name: 'Secret type',
      path: '/api/v1/namespaces/default/secrets',
      created: { apiVersion: 'v1', kind: 'Secret', type: 'Opaque', data: { a: 'MQ==' } },
      change: { type: 'example.com/other' },
      status: 422,
      message: 'type: Invalid value: "example.com/other": field is immutable',
    },
  ];

  it.each(cases.map((c, i) => [c.name, { ...c, objectName: `imm-${i}` }] as const))('%s', async (_n, c) => {
    const created = await host.request('POST', c.path, {
      body: { ...c.created, metadata: { name: c.objectName } },
    });
    expect(created.status, created.text).toBe(201);
    const r = await host.request('PATCH', `${c.path}/${c.objectName}`, {
      body: c.change,
      contentType: 'application/merge-patch+json',
    });
    expect(r.status, r.text).toBe(c.status);
    if (c.message !== undefined) expect(r.body.message).toContain(c.message);
  });
});
