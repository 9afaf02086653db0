/**
 * Server settings over HTTP: `--runtime-config` turning group/versions on
 * and off, the history window (compaction interval) set through
 * `/sandbox/v1/settings` making old versions answer 410 on schedule, and a
 * watch that starts at a version the server has not reached yet.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from './support/host';
import { openWatch } from './support/watch';

describe('--runtime-config', () => {
  let host: TestHost;
  beforeAll(async () => {
    // v1alpha1's resources (ValidatingAdmissionPolicy) are served only with their gate on, as in v1.27.
    host = await startTestHost({
      runtimeConfig: 'admissionregistration.orch.io/v1alpha1=true,batch/v1=false',
      featureGates: { ValidatingAdmissionPolicy: true },
    });
  });
  afterAll(async () => {
    await host.close();
  });

  it('serves an alpha version when enabled and stops serving a disabled one', async () => {
    const apis = await host.request('GET', '/apis');
    const versions: string[] = apis.body.groups.flatMap((g: { versions: { groupVersion: string }[] }) =>
      g.versions.map((v) => v.groupVersion),
    );
    expect(versions).toContain('admissionregistration.orch.io/v1alpha1');
    expect(versions.some((v) => v.startsWith('batch/'))).toBe(false);
    expect((await host.request('GET', '/apis/admissionregistration.orch.io/v1alpha1')).status).toBe(200);
    expect((await host.request('GET', '/apis/batch/v1/jobs')).status).toBe(404);
  });
});

describe('history window and future versions', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost();
  });
  afterAll(async () => {
    await host.close();
  });

  it('a shortened compaction interval makes an old version answer 410 on schedule', async () => {
    const set = await host.request('PUT', '/sandbox/v1/settings', { body: { compactionIntervalMs: 1000 } });
    expect(set.status).toBe(200);
    expect(set.body.compactionIntervalMs).toBe(1000);
    const created = await host.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: { metadata: { name: 'old' } },
    });
    const rv = created.body.metadata.resourceVersion as string;
    await host.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: { metadata: { name: 'newer' } },
    });
    // Two ticks: the first records the revision, the second compacts to it.
    const deadline = Date.now() + 10_000;
    let status = 0;
    while (Date.now() < deadline) {
      status = (
        await host.request(
          'GET',
          `/api/v1/namespaces/default/configmaps?resourceVersion=${rv}&resourceVersionMatch=Exact`,
        )
      ).status;
      if (status === 410) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(410);
    const settings = await host.request('GET', '/sandbox/v1/settings');
    expect(Number(settings.body.compactedRevision)).toBeGreaterThanOrEqual(Number(rv));
  });

  it('rejects a history window below one second', async () => {
    const r = await host.request('PUT', '/sandbox/v1/settings', { body: { compactionIntervalMs: 10 } });
    expect(r.status).toBe(400);
  });

  it('a watch from a version the server has not reached delivers the changes after it once they happen', async () => {
    const current = Number(
      (await host.request('GET', '/api/v1/namespaces/default/configmaps')).body.metadata.resourceVersion,
    );
    const w = await openWatch(
      host.url,
      `/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${current + 1}`,
    );
    expect(w.status).toBe(200);
    await host.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: { metadata: { name: 'f1' } },
    });
    await host.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: { metadata: { name: 'f2' } },
    });
    const events = await w.waitFor(1);
    // f1 is revision current+1 itself: only what comes after the requested version is sent.
    expect(events.map((e) => e.object.metadata.name)).toEqual(['f2']);
    w.abort();
  });
});
