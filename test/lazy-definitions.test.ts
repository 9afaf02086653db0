/**
 * The built-in definitions the worker's start does not carry (every group's but the core group's, meta's and
 * the CRD kinds', decision 0134) are a lazy script, loaded by the first request that may need them: on a
 * worker-like host whose lazy scripts are loaded on demand (a host loader, as the service worker installs,
 * here holding the definitions' script until the test lets it go), a first screen's reads (discovery, the
 * core group's lists, a Table) are answered without it, a read of apps/v1 waits for it, and every answer
 * is the bytes the server gave when the start carried all of them (recorded from main at 7be2344, with the
 * values a run makes up — uids, times, resource versions — written as placeholders). The vitest setup
 * leaves this file's definitions unloaded (its name holds `lazy-definitions`).
 */

import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRequestInfo } from '../src/http/request-info';
import { setLazyModuleLoader } from '../src/machinery/lazy-module';
import { builtInDefinitions, builtInDefinitionsComplete } from '../src/registry/builtins';
import { createApiServer, type ApiServer } from '../src/server/index';
import { mayNeedLazyDefinitions } from '../src/server/pipeline';
import { createMemoryStorage } from '../src/storage/memory/memory-storage';
import { lazyModuleFiles } from '../scripts/lazy-module-graph';
// Recorded from main (7be2344), where the start carried every definition, with placeholders() applied.
import recorded from './lazy-definitions.recorded.json';

const token = 'lazy-definitions-tests';
const base = 'https://orch.test';

/** Every lazy script by its name, imported as the Node host does, except that the definitions' waits for `release`. */
const scripts = new Map(
  lazyModuleFiles(resolve(__dirname, '../src')).map((file) => [basename(file, '.lazy.ts'), file]),
);
const asked: string[] = [];
let release: () => void = () => undefined;
const released = new Promise<void>((resolve) => (release = resolve));
let releasedYet = false;
setLazyModuleLoader(async (name) => {
  asked.push(name);
  if (name === 'builtin-definitions') await released;
  const file = scripts.get(name);
  if (file === undefined) throw new Error(`no lazy script ${name}`);
  return import(pathToFileURL(join(file)).href) as Promise<unknown>;
});

let api: ApiServer;
beforeAll(async () => {
  api = createApiServer({
    storage: createMemoryStorage(),
    adminTokens: [token],
    controllers: false,
    now: () => new Date('2026-12-07T12:00:00Z'),
  });
  await api.serving;
});
afterAll(async () => {
  release();
  await api.close();
});

async function call(method: string, path: string, body?: unknown, accept?: string): Promise<string> {
  const response = await api.fetch(
    new Request(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(accept !== undefined ? { accept } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    }),
  );
  return `${response.status} ${placeholders(await response.text())}`;
}

/** The values a run makes up, as placeholders: uids (a Job's labels hold its own), resource versions, times. */
function placeholders(text: string): string {
  return text
    .replace(/"uid":"[^"]*"/g, '"uid":"UID"')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'UUID')
    .replace(/"resourceVersion":"\d+"/g, '"resourceVersion":"RV"')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/g, 'TIME')
    .trimEnd();
}

const table = 'application/json;as=Table;v=v1;g=meta.orch.io,application/json';

describe('the built-in definitions’ lazy part', () => {
  it('is not loaded by the start nor by a first screen’s reads', async () => {
    expect(builtInDefinitionsComplete()).toBe(false);
    expect(builtInDefinitions['api.apps.v1.Deployment']).toBeUndefined();
    expect(builtInDefinitions['api.core.v1.Pod']).toBeDefined();
    // Answered while the definitions' script is held: none of them waits for it.
    expect(await call('GET', '/api/v1/namespaces/default')).toBe(recorded.namespace);
    expect((await call('GET', '/apis/apps/v1')).slice(0, 3)).toBe('200');
    expect(await call('GET', '/api/v1/namespaces/default/pods', undefined, table)).toBe(recorded.pods);
    expect(await call('GET', '/api/v1/namespaces/default/configmaps')).toBe(recorded.configmaps);
    expect(releasedYet).toBe(false);
    expect(builtInDefinitionsComplete()).toBe(false);
  });

  it('is loaded by the first read of another group, which waits for it', async () => {
    const answer = call('GET', '/apis/apps/v1/namespaces/default/deployments').then((text) => ({
      text,
      afterRelease: releasedYet,
    }));
    // The host was asked for the script (by this read, or by the post-start hooks beside it).
    await until(() => asked.includes('builtin-definitions'));
    releasedYet = true;
    release();
    const { text, afterRelease } = await answer;
    expect(afterRelease).toBe(true);
    expect(text).toBe(recorded.deployments);
    expect(builtInDefinitionsComplete()).toBe(true);
  });

  it('answers writes and reads of apps, batch and rbac as before', async () => {
    const labels = { app: 'web' };
    const template = { metadata: { labels }, spec: { containers: [{ name: 'web', image: 'nginx' }] } };
    expect(
      await call('POST', '/apis/apps/v1/namespaces/default/deployments', {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web' },
        spec: { selector: { matchLabels: labels }, template },
      }),
    ).toBe(recorded.deploymentCreated);
    expect(await call('GET', '/apis/apps/v1/namespaces/default/deployments/web')).toBe(recorded.deployment);
    expect(
      await call('POST', '/apis/batch/v1/namespaces/default/jobs', {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: { name: 'once' },
        spec: { template: { spec: { ...template.spec, restartPolicy: 'Never' } } },
      }),
    ).toBe(recorded.jobCreated);
    expect(
      await call('POST', '/apis/rbac.authorization.orch.io/v1/namespaces/default/roles', {
        apiVersion: 'rbac.authorization.orch.io/v1',
        kind: 'Role',
        metadata: { name: 'reader' },
        rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }],
      }),
    ).toBe(recorded.roleCreated);
    expect(await call('GET', '/apis/rbac.authorization.orch.io/v1/namespaces/default/roles/reader')).toBe(
      recorded.role,
    );
  });
});

describe('the requests that load it (mayNeedLazyDefinitions)', () => {
  const needs = (method: string, path: string, protobuf = false): boolean => {
    const url = new URL(`${base}${path}`);
    return mayNeedLazyDefinitions(parseRequestInfo(method, url), url, protobuf);
  };

  it('leaves out the reads of what the start’s part describes', () => {
    expect(needs('GET', '/api')).toBe(false);
    expect(needs('GET', '/apis')).toBe(false);
    expect(needs('GET', '/apis/apps/v1')).toBe(false);
    expect(needs('GET', '/api/v1/namespaces')).toBe(false);
    expect(needs('GET', '/api/v1/namespaces/default/pods?watch=true')).toBe(false);
    expect(needs('HEAD', '/api/v1/namespaces/default/pods/p')).toBe(false);
    expect(needs('GET', '/api/v1/namespaces/default/pods/p/status')).toBe(false);
    expect(needs('GET', '/readyz')).toBe(false);
    expect(needs('GET', '/sandbox/v1/identities')).toBe(false);
  });

  it('takes in other groups, writes, subresources’ bodies, OpenAPI, the export and protobuf', () => {
    expect(needs('GET', '/apis/apps/v1/deployments')).toBe(true);
    expect(needs('POST', '/api/v1/namespaces')).toBe(true);
    expect(needs('DELETE', '/api/v1/namespaces/x')).toBe(true);
    expect(needs('GET', '/api/v1/namespaces/default/replicationcontrollers/r/scale')).toBe(true);
    expect(needs('GET', '/openapi/v2')).toBe(true);
    expect(needs('GET', '/openapi/v3/apis/apps/v1')).toBe(true);
    expect(needs('GET', '/sandbox/v1/export')).toBe(true);
    expect(needs('POST', '/sandbox/v1/reset')).toBe(true);
    expect(needs('GET', '/api/v1/namespaces', true)).toBe(true);
  });
});

/** Polls `condition` on the event loop (no time asserted: it only orders the test after the server's ask). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 1));
}
