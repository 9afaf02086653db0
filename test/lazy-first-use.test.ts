/**
 * The code decision 0070's third round left off the worker's first response
 * is loaded by the first request that needs it, and not before: a started
 * server (the Node host runs the same server code as the worker; here every
 * post-start hook has run and the controllers are up) has not loaded
 * PodSecurity's checks, the policy dispatch, the webhook backends' calls,
 * the admission configurations' validation, the external token
 * authenticators or the JSON patch library; each is loaded by its first
 * use, which is answered as before. This file must not load them itself
 * (each test file runs in its own process).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { podSecurityChecks } from '../src/admission/pod-security/library';
import { policyDispatch } from '../src/admission/policy/library';
import { backendCalls } from '../src/admission/backends/library';
import { admissionConfigurationValidation } from '../src/registry/kinds/admissionregistration/needs-cel';
import { externalTokenAuthenticators } from '../src/auth/authn/library';
import { jsonPatchLibrary } from '../src/machinery/json-patch-library';
import { PROFILES } from '../src/machinery/naming';
import { startTestHost, type TestHost } from './support/host';

const enforce = PROFILES.orch.subPrefixed('pod-security', 'enforce');
const admissionGroup = PROFILES.orch.suffixed('admissionregistration');

describe('code loaded with its first use', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost();
  });
  afterAll(async () => {
    await host.close();
  });

  it('is not loaded by the start, the post-start hooks or the controllers', async () => {
    expect((await host.request('GET', '/readyz')).status).toBe(200);
    expect(podSecurityChecks.loaded).toBe(false);
    expect(policyDispatch.loaded).toBe(false);
    expect(backendCalls.loaded).toBe(false);
    expect(admissionConfigurationValidation.loaded).toBe(false);
    expect(externalTokenAuthenticators.loaded).toBe(false);
    expect(jsonPatchLibrary.loaded).toBe(false);
  });

  it('loads PodSecurity’s checks with the first namespace carrying a policy label', async () => {
    const plain = await host.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'plain' } } });
    expect(plain.status, plain.text).toBe(201);
    expect(podSecurityChecks.loaded).toBe(false);

    const bad = await host.request('POST', '/api/v1/namespaces', {
      body: { metadata: { name: 'labelled', labels: { [enforce]: 'strict' } } },
    });
    expect(bad.status, bad.text).toBe(422);
    expect((bad.body as { message: string }).message).toContain(enforce);
    expect(podSecurityChecks.loaded).toBe(true);
  });

  it('loads the external token authenticators with the first token nothing before them accepts', async () => {
    expect((await host.request('GET', '/api/v1/namespaces')).status).toBe(200);
    expect(externalTokenAuthenticators.loaded).toBe(false);
    const unknown = await host.request('GET', '/api/v1/namespaces', { as: 'not-a-known-token' });
    expect(unknown.status).toBe(401);
    expect(externalTokenAuthenticators.loaded).toBe(true);
  });

  it('loads the JSON patch library with the first JSON patch', async () => {
    const cm = await host.request('POST', '/api/v1/namespaces/plain/configmaps', {
      body: { metadata: { name: 'patched' }, data: { a: '1' } },
    });
    expect(cm.status, cm.text).toBe(201);
    expect(jsonPatchLibrary.loaded).toBe(false);
    const patched = await host.request('PATCH', '/api/v1/namespaces/plain/configmaps/patched', {
      contentType: 'application/json-patch+json',
      body: [{ op: 'replace', path: '/data/a', value: '2' }],
    });
    expect(patched.status, patched.text).toBe(200);
    expect((patched.body as { data: Record<string, string> }).data).toEqual({ a: '2' });
    expect(jsonPatchLibrary.loaded).toBe(true);
  });

  it('loads the admission configurations’ validation with the first write of one', async () => {
    const bad = await host.request('POST', `/apis/${admissionGroup}/v1/validatingwebhookconfigurations`, {
      body: { metadata: { name: 'no-client' }, webhooks: [{ name: 'no-dots' }] },
    });
    expect(bad.status, bad.text).toBe(422);
    expect(admissionConfigurationValidation.loaded).toBe(true);
    expect(policyDispatch.loaded).toBe(false);
    expect(backendCalls.loaded).toBe(false);
  });
});
