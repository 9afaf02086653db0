/**
 * Every entry of the error-explanation table (src/ui/lib/explanations.ts)
 * is reachable: for each one a real request to a test host produces the
 * Status, the matcher is fed that Status (and the text sent, as the UI
 * does), and must pick that entry. A new entry without a case here fails
 * the last test, so the table cannot grow entries nothing produces. The
 * YAML entry is also checked against the UI's own parse error, which the
 * Create panel shows before anything is sent.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Status } from '../src/api/meta';
import { parseManifest } from '../src/ui/lib/manifest';
import { explain, explanationEntries, specSections, type Problem } from '../src/ui/lib/explanations';
import { startTestHost, type TestHost, type TestResponse } from './support/host';

function problemOf(status: Status): Problem {
  return {
    code: status.code,
    message: status.message ?? '',
    ...(status.reason === undefined ? {} : { reason: status.reason }),
    ...(status.details?.causes === undefined ? {} : { causes: status.details.causes }),
    ...(status.details === undefined
      ? {}
      : { details: { kind: status.details.kind, name: status.details.name } }),
  };
}

function statusOf(answer: TestResponse): Status {
  expect(answer.body?.kind, answer.text).toBe('Status');
  return answer.body as Status;
}

const cm = '/api/v1/namespaces/default/configmaps';
const yaml = 'application/yaml';

describe('error explanations', () => {
  let host: TestHost;
  const reached = new Set<string>();

  beforeAll(async () => {
    host = await startTestHost();
  });
  afterAll(async () => {
    await host.close();
  });

  /** Sends the request, feeds its Status to the matcher and expects `entry`; returns the explanation. */
  async function expectEntry(entry: string, answer: Promise<TestResponse> | Status, source?: string) {
    const status = answer instanceof Promise ? statusOf(await answer) : answer;
    const explanation = explain(problemOf(status), source);
    expect(explanation?.id, JSON.stringify(status)).toBe(entry);
    reached.add(entry);
    return explanation;
  }

  it('configmap-value-not-string: `count: 3` in a ConfigMap', async () => {
    const source = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: counts\ndata:\n  count: 3\n';
    const e = await expectEntry(
      'configmap-value-not-string',
      host.request('POST', cm, { body: source, contentType: yaml }),
      source,
    );
    expect(e?.next).toBe('Quote it: `count: "3"`.');
    expect(e?.excerpt?.text.slice(...(e.excerpt.mark ?? [0, 0]))).toBe('3');
  });

  it('field-type: a number where labels need a string', async () => {
    const e = await expectEntry(
      'field-type',
      host.request('POST', cm, {
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'typed', labels: { tier: 1 } } },
      }),
    );
    expect(e?.rule).toContain('`metadata.labels`');
  });

  it('unknown-field-strict: a misspelt field under fieldValidation=Strict', async () => {
    await expectEntry(
      'unknown-field-strict',
      host.request('POST', `${cm}?fieldValidation=Strict`, {
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'strict' }, dta: { a: 'b' } },
      }),
    );
  });

  it('body-syntax: badly indented YAML, with the line shown', async () => {
    const source = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n data: x\n';
    const e = await expectEntry(
      'body-syntax',
      host.request('POST', cm, { body: source, contentType: yaml }),
      source,
    );
    expect(e?.rule).toContain('line 5');
    expect(e?.excerpt?.text).toBe(' data: x');
    // The same text, parsed in the page before it is sent, gets the same entry.
    let local: unknown;
    try {
      parseManifest(source);
    } catch (error) {
      local = error;
    }
    expect(local).toBeInstanceOf(Error);
    expect(explain({ message: (local as Error).message }, source)?.id).toBe('body-syntax');
  });

  it('name-not-dns: an uppercase name, with the offending character marked', async () => {
    const e = await expectEntry(
      'name-not-dns',
      host.request('POST', cm, {
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'my_App' } },
      }),
    );
    expect(e?.excerpt?.text).toBe('my_App');
    expect(e?.excerpt?.mark).toEqual([2, 3]);
    expect(e?.next).toContain('`my-app`');
    const label = await expectEntry(
      'name-not-dns',
      host.request('POST', '/api/v1/namespaces', {
        body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team.a' } },
      }),
    );
    expect(label?.rule).toContain('DNS label');
    expect(label?.excerpt?.mark).toEqual([4, 5]);
  });

  it('field-required: a Pod without containers', async () => {
    const e = await expectEntry(
      'field-required',
      host.request('POST', '/api/v1/namespaces/default/pods', {
        body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'empty' } },
      }),
    );
    expect(e?.rule).toContain('`spec.containers`');
  });

  it('field-immutable: an update that changes metadata.uid', async () => {
    const created = await host.request('POST', cm, {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fixed' } },
    });
    expect(created.status).toBe(201);
    const changed = { ...created.body, metadata: { ...created.body.metadata, uid: 'another-uid' } };
    await expectEntry('field-immutable', host.request('PUT', `${cm}/fixed`, { body: changed }));
  });

  it('stale-resource-version and already-exists', async () => {
    const created = await host.request('POST', cm, {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'shared' }, data: { v: '1' } },
    });
    expect(created.status).toBe(201);
    const first = await host.request('PUT', `${cm}/shared`, { body: { ...created.body, data: { v: '2' } } });
    expect(first.status).toBe(200);
    await expectEntry(
      'stale-resource-version',
      host.request('PUT', `${cm}/shared`, { body: { ...created.body, data: { v: '3' } } }),
    );
    await expectEntry(
      'already-exists',
      host.request('POST', cm, {
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'shared' } },
      }),
    );
  });

  it('apply-conflict: bob applies a field alice owns', async () => {
    const apply = (manager: string, value: string) =>
      host.request('PATCH', `${cm}/owned?fieldManager=${manager}`, {
        body: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: owned\ndata:\n  x: "${value}"\n`,
        contentType: 'application/apply-patch+yaml',
      });
    expect((await apply('alice', '1')).status).toBe(201);
    const e = await expectEntry('apply-conflict', apply('bob', '2'));
    expect(e?.rule).toContain('`.data.x`');
  });

  it('namespace-not-found and not-found', async () => {
    await expectEntry(
      'namespace-not-found',
      host.request('POST', '/api/v1/namespaces/nowhere/configmaps', {
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'lost' } },
      }),
    );
    await expectEntry('not-found', host.request('GET', `${cm}/never-created`));
  });

  it('unauthorized, forbidden and forbidden-impersonate: a bad token, alice, alice impersonating', async () => {
    await expectEntry('unauthorized', host.request('GET', cm, { as: 'not-a-token' }));
    const e = await expectEntry('forbidden', host.request('GET', cm, { as: 'alice' }));
    expect(e?.rule).toContain('`alice` holds no rule that allows `list`');
    await expectEntry(
      'forbidden-impersonate',
      host.request('GET', cm, { as: 'alice', headers: { 'Impersonate-User': 'bob' } }),
    );
  });

  it('admission-denied: a quota of no ConfigMaps refuses a create, and its dry run alike', async () => {
    // In a namespace of its own: the quota must not refuse the other cases' ConfigMaps.
    const ns = await host.request('POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'quota-explained' } },
    });
    expect(ns.status, ns.text).toBe(201);
    const quotaCm = '/api/v1/namespaces/quota-explained/configmaps';
    const quota = await host.request('POST', '/api/v1/namespaces/quota-explained/resourcequotas', {
      body: {
        apiVersion: 'v1',
        kind: 'ResourceQuota',
        metadata: { name: 'no-configmaps' },
        spec: { hard: { 'count/configmaps': '0' } },
      },
    });
    expect(quota.status, quota.text).toBe(201);
    const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'over-quota' } };
    for (const path of [`${quotaCm}?dryRun=All`, quotaCm]) {
      const e = await expectEntry('admission-denied', host.request('POST', path, { body }));
      expect(e?.rule).toContain('the ResourceQuota plugin said no');
    }
    // An authorization refusal (it also says "is forbidden:") keeps its own entry.
    await expectEntry('forbidden', host.request('POST', quotaCm, { as: 'alice', body }));
  });

  it('history-expired: a list from before the compacted history, a watch from before the watch cache', async () => {
    const created = await host.request('POST', cm, {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'old' }, data: { v: '0' } },
    });
    const old = String(created.body.metadata.resourceVersion);
    for (let i = 1; i <= 3; i++) {
      const now = await host.request('GET', `${cm}/old`);
      await host.request('PUT', `${cm}/old`, { body: { ...now.body, data: { v: String(i) } } });
    }
    expect((await host.request('POST', '/sandbox/v1/compact')).status).toBe(200);
    await expectEntry(
      'history-expired',
      host.request('GET', `${cm}?resourceVersion=${old}&resourceVersionMatch=Exact`),
    );
    // Compaction leaves watches alone: the watch cache starting again (as after a server restart) makes them too old.
    expect((await host.request('POST', '/sandbox/v1/restart-watch-cache')).status).toBe(200);
    const watch = await host.request('GET', `${cm}?watch=1&resourceVersion=${old}&timeoutSeconds=1`);
    const event = JSON.parse(watch.text.trim().split('\n')[0] ?? '{}') as { type: string; object: Status };
    expect(event.type).toBe('ERROR');
    const e = await expectEntry('history-expired', event.object);
    expect(e?.rule).toContain('watch cache');
  });

  it('every entry was reached by a real request, and cites a known spec section', () => {
    expect([...reached].sort()).toEqual(explanationEntries.map((e) => e.id).sort());
    for (const entry of explanationEntries) expect(specSections[entry.spec]).toBeDefined();
  });
});
