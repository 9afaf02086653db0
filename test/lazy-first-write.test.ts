/**
 * The code 0119 took off the worker's first response (the PATCH handler
 * with its patch machinery, field ownership's machinery, the review kinds'
 * storages) is loaded through its lazy module and answers as before. A
 * started Node host has its controllers up, which create and patch as the
 * worker's do after a first visit, so whether the start loaded them is not
 * asked here: test/worker-lazy-imports.test.ts keeps them out of the
 * worker's script, and scripts/worker-first-visit-coverage.ts shows a first
 * visit does not run them.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldManagement } from '../src/fieldmanager/library';
import { patchHandler } from '../src/http/handlers/patch-library';
import { PROFILES } from '../src/machinery/naming';
import { startTestHost, type TestHost } from './support/host';

const authz = `/apis/${PROFILES.orch.suffixed('authorization')}/v1`;

describe('code loaded with the first write that needs it', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost();
  });
  afterAll(async () => {
    await host.close();
  });

  it('records field ownership and patches through the loaded modules', async () => {
    const cm = await host.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: { metadata: { name: 'patched' }, data: { a: '1' } },
    });
    expect(cm.status, cm.text).toBe(201);
    expect(fieldManagement.loaded).toBe(true);
    expect((cm.body as { metadata: { managedFields?: unknown[] } }).metadata.managedFields).toHaveLength(1);

    const patched = await host.request('PATCH', '/api/v1/namespaces/default/configmaps/patched', {
      contentType: 'application/strategic-merge-patch+json',
      body: { data: { b: '2' } },
    });
    expect(patched.status, patched.text).toBe(200);
    expect((patched.body as { data: Record<string, string> }).data).toEqual({ a: '1', b: '2' });
    expect(patchHandler.loaded).toBe(true);
  });

  it('answers a review through the loaded storages', async () => {
    const review = await host.request('POST', `${authz}/selfsubjectaccessreviews`, {
      body: {
        apiVersion: `${PROFILES.orch.suffixed('authorization')}/v1`,
        kind: 'SelfSubjectAccessReview',
        spec: { nonResourceAttributes: { path: '/healthz', verb: 'get' } },
      },
    });
    expect(review.status, review.text).toBe(201);
    expect((review.body as { status: { allowed: boolean } }).status.allowed).toBe(true);
  });
});
