/**
 * Dry run answers as the write would, storing nothing: a dry-run create of
 * a name that is taken is 409 AlreadyExists, as on the real server, and a
 * dry-run create of a free name is 201 and leaves it free.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from './support/host';

describe('dry-run create', () => {
  let host: TestHost;
  const path = '/api/v1/namespaces/default/configmaps';
  beforeAll(async () => {
    host = await startTestHost();
    await host.request('POST', path, {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'taken' } },
    });
  });
  afterAll(() => host.close());

  it.each([
    ['taken', 409, 'AlreadyExists'],
    ['free', 201, undefined],
  ])('of %s answers %i', async (name, status, reason) => {
    const r = await host.request('POST', `${path}?dryRun=All`, {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } },
    });
    expect(r.status, r.text).toBe(status);
    expect(r.body.reason).toBe(reason);
    if (name === 'free') expect((await host.request('GET', `${path}/free`)).status).toBe(404);
  });
});
