/**
 * The YAML library is loaded on first use: a fresh server has not loaded it,
 * and the first request that asks for YAML in mixed letter case (media
 * types compare case-insensitively) is answered in YAML. This file must not
 * load the library itself, so the server's own load is what is tested
 * (test/yaml-lazy-apply.test.ts covers an apply as the first YAML use).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { yamlLibrary } from '../src/machinery/decode/yaml-library';
import { namingProfile } from '../src/machinery/naming';
import { createApiServer } from '../src/server/index';
import { defaultBrowserAuditPolicy } from '../src/server/admission-settings';
import { createMemoryStorage } from '../src/storage/memory/memory-storage';
import { startTestHost, type TestHost } from './support/host';

describe('the lazily loaded YAML library', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost({ profile: 'kubernetes' });
  });
  afterAll(async () => {
    await host.close();
  });

  it('is not loaded by a start with the defaults, nor by JSON requests', async () => {
    // As the browser starts its server: the default audit policy text, the sandbox API open to the page.
    const token = 'yaml-lazy-admin';
    const browserLike = createApiServer({
      storage: createMemoryStorage(),
      profile: 'orch',
      adminTokens: [token],
      openSandboxApi: true,
      defaultAuditPolicy: defaultBrowserAuditPolicy(namingProfile('orch')),
      authentication: { bootstrapTokens: true },
    });
    await browserLike.ready;
    const settings = await browserLike.fetch(
      new Request('http://sandbox.test/sandbox/v1/settings', {
        headers: { authorization: `Bearer ${token}` },
      }),
    );
    expect(settings.status).toBe(200);
    expect(((await settings.json()) as { auditPolicy: string }).auditPolicy).toBe(
      defaultBrowserAuditPolicy(namingProfile('orch')),
    );
    await browserLike.close();
    const res = await host.request('GET', '/api/v1/namespaces/default');
    expect(res.status).toBe(200);
    expect(yamlLibrary.loaded).toBe(false);
  });

  it('is loaded by the first request that asks for YAML in mixed case', async () => {
    const res = await host.request('GET', '/api/v1/namespaces/default', {
      headers: { accept: 'Application/YAML' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/yaml');
    // Block-style YAML, not JSON text.
    expect(res.text).toMatch(/^kind: Namespace$/m);
    expect(res.text).toMatch(/^apiVersion: v1$/m);
    expect(res.text).toMatch(/^ {2}name: default$/m);
    expect(yamlLibrary.loaded).toBe(true);
  });
});
