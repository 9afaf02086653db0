/**
 * Server settings over HTTP: `--runtime-config` turning group/versions on
 * and off (as a flag, and as a workshop setting while the server runs and
 * after a restart), the history window (compaction interval) set through
 * `/sandbox/v1/settings` making old versions answer 410 on schedule, and a
 * watch that starts at a version the server has not reached yet.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiServer } from '../src/server/index';
import { createMemoryStorage } from '../src/storage/memory/memory-storage';
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

describe('the runtime config as a workshop setting', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost({ runtimeConfig: 'batch/v1=true' });
  });
  afterAll(async () => {
    await host.close();
  });

  const vap = '/apis/admissionregistration.orch.io/v1alpha1/validatingadmissionpolicies';

  it('serves ValidatingAdmissionPolicy once the version and its gate are on, and stops when turned off', async () => {
    expect((await host.request('GET', vap)).status).toBe(404);
    // The version alone has nothing to serve: its resources wait for the gate.
    const versionOnly = await host.request('PUT', '/sandbox/v1/settings', {
      body: { runtimeConfig: 'admissionregistration.orch.io/v1alpha1=true' },
    });
    expect(versionOnly.status).toBe(200);
    expect(versionOnly.body.runtimeConfig).toBe('admissionregistration.orch.io/v1alpha1=true');
    expect((await host.request('GET', vap)).status).toBe(404);
    await host.request('PUT', '/sandbox/v1/settings', {
      body: { featureGates: { ValidatingAdmissionPolicy: true } },
    });
    expect((await host.request('GET', vap)).status).toBe(200);
    const group = await host.request('GET', '/apis/admissionregistration.orch.io');
    expect(group.body.versions.map((v: { version: string }) => v.version)).toEqual(['v1', 'v1alpha1']);

    // Served means enforced: a policy and its binding refuse a write.
    await host.request('POST', vap, {
      body: {
        apiVersion: 'admissionregistration.orch.io/v1alpha1',
        kind: 'ValidatingAdmissionPolicy',
        metadata: { name: 'small' },
        spec: {
          matchConstraints: {
            resourceRules: [
              { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] },
            ],
          },
          validations: [{ expression: "!has(object.data) || !('big' in object.data)", message: 'no big' }],
        },
      },
    });
    await host.request('POST', `${vap.replace('policies', 'policybindings')}`, {
      body: {
        apiVersion: 'admissionregistration.orch.io/v1alpha1',
        kind: 'ValidatingAdmissionPolicyBinding',
        metadata: { name: 'small' },
        spec: { policyName: 'small', validationActions: ['Deny'] },
      },
    });
    const refused = await host.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: { metadata: { name: 'big' }, data: { big: 'x' } },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toContain(
      "ValidatingAdmissionPolicy 'small' with binding 'small' denied request",
    );

    // Off again: not served; the flag's own entry (batch/v1) was never the setting's to change.
    await host.request('PUT', '/sandbox/v1/settings', { body: { runtimeConfig: '' } });
    expect((await host.request('GET', vap)).status).toBe(404);
    expect((await host.request('GET', '/apis/batch/v1/jobs')).status).toBe(200);
    // The flag wins where both name a key.
    await host.request('PUT', '/sandbox/v1/settings', { body: { runtimeConfig: 'batch/v1=false' } });
    expect((await host.request('GET', '/apis/batch/v1/jobs')).status).toBe(200);
  });

  it('refuses a runtime config the flag would refuse, and changes nothing', async () => {
    const before = await host.request('GET', '/sandbox/v1/settings');
    for (const runtimeConfig of ['apps/v1=maybe', 'a/b/c/d', 42]) {
      const r = await host.request('PUT', '/sandbox/v1/settings', { body: { runtimeConfig } });
      expect(r.status, JSON.stringify(runtimeConfig)).toBe(400);
    }
    expect(
      (await host.request('PUT', '/sandbox/v1/settings', { body: { runtimeConfig: 'apps/v1=maybe' } })).body
        .message,
    ).toBe('invalid value of apps/v1: maybe, err: strconv.ParseBool: parsing "maybe": invalid syntax');
    expect((await host.request('GET', '/sandbox/v1/settings')).body.runtimeConfig).toBe(
      before.body.runtimeConfig,
    );
  });

  it('a server started on a store with the setting saved serves what it names', async () => {
    const storage = createMemoryStorage();
    const first = createApiServer({ storage, openSandboxApi: true });
    await first.ready;
    const put = await first.fetch(
      new Request('http://sandbox.test/sandbox/v1/settings', {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          runtimeConfig: 'api/alpha=true',
          featureGates: { ValidatingAdmissionPolicy: true },
        }),
      }),
    );
    expect(put.status).toBe(200);
    // A second replica on the same store reads the saved settings at its start.
    const second = createApiServer({ storage, openSandboxApi: true });
    await second.ready;
    const identities = await second.identities();
    const token = identities.find((i) => i.name === 'admin')?.token ?? '';
    const answer = await second.fetch(
      new Request(`http://sandbox.test${vap}`, { headers: { authorization: `Bearer ${token}` } }),
    );
    expect(answer.status).toBe(200);
    await second.close();
    await first.close();
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
