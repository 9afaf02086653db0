/**
 * The admission trace over HTTP (`/sandbox/v1/traces`): a write's Audit-Id
 * leads to the steps admission ran for it — the default plugins in the
 * real server's order, mutating before validating, with their decisions —
 * a mutating plugin's change as a JSON patch with the objects before and
 * after, a denial as the last step with the Status message, dry runs
 * marked, the recent list newest first, the live stream, and the same
 * authorization as the rest of the sandbox API.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdmissionTraceRecord, AdmissionTraceStep } from '../src/api/admission-trace';
import { orderedPluginNames } from '../src/admission/plugins/index';
import { startTestHost, type TestHost } from './support/host';
import { openWatch } from './support/watch';

let host: TestHost;
beforeAll(async () => {
  host = await startTestHost();
});
afterAll(async () => {
  await host.close();
});

const pod = (name: string, namespace = 'default') => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace },
  spec: { containers: [{ name: 'app', image: 'nginx' }] },
});

async function traceOf(auditId: string | null): Promise<AdmissionTraceRecord> {
  expect(auditId).toBeTruthy();
  const res = await host.request('GET', `/sandbox/v1/traces/${auditId ?? ''}`);
  expect(res.status).toBe(200);
  return res.body as AdmissionTraceRecord;
}

/** Where each plugin stands in the recommended order (webhooks and policies sit at their plugin's place). */
function orderOf(step: AdmissionTraceStep): number {
  const plugin =
    step.type === 'plugin'
      ? step.name
      : step.type === 'policy'
        ? 'ValidatingAdmissionPolicy'
        : step.phase === 'mutating'
          ? 'MutatingAdmissionWebhook'
          : 'ValidatingAdmissionWebhook';
  return (orderedPluginNames as readonly string[]).indexOf(plugin);
}

describe('a write leads to its trace by Audit-Id', () => {
  it('lists the default plugins in order, mutating then validating, with their decisions', async () => {
    const created = await host.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: { metadata: { name: 'traced' }, data: { a: '1' } },
    });
    expect(created.status).toBe(201);
    const record = await traceOf(created.headers.get('audit-id'));
    expect(record).toMatchObject({
      auditId: created.headers.get('audit-id'),
      method: 'POST',
      path: '/api/v1/namespaces/default/configmaps',
      code: 201,
    });
    expect(record.passes).toHaveLength(1);
    expect(record.passes[0]).toMatchObject({
      operation: 'CREATE',
      group: '',
      version: 'v1',
      resource: 'configmaps',
      namespace: 'default',
      name: 'traced',
      dryRun: false,
    });
    const steps = record.steps;
    expect(steps.map((s) => s.name)).toContain('NamespaceLifecycle');
    const phases = steps.map((s) => s.phase);
    // Every mutating step comes before every validating one.
    expect(phases.lastIndexOf('mutating')).toBeLessThan(
      phases.includes('validating') ? phases.indexOf('validating') : Infinity,
    );
    for (const phase of ['mutating', 'validating'] as const) {
      const inPhase = steps.filter((s) => s.phase === phase && (s.round ?? 0) === 0).map(orderOf);
      expect(inPhase.every((n) => n >= 0)).toBe(true);
      expect(inPhase).toEqual([...inPhase].sort((a, b) => a - b));
    }
    for (const step of steps) {
      expect(['allowed', 'patched', 'skipped']).toContain(step.decision);
      expect(step.durationMs).toBeGreaterThanOrEqual(0);
    }
  });

  it('shows what a mutating plugin changed as a JSON patch with the object before and after', async () => {
    const created = await host.request('POST', '/api/v1/namespaces/default/pods', { body: pod('patched') });
    expect(created.status).toBe(201);
    const record = await traceOf(created.headers.get('audit-id'));
    const patched = record.steps.filter((s) => s.decision === 'patched');
    for (const step of patched) {
      expect(step.phase).toBe('mutating');
      expect(step.patch?.length).toBeGreaterThan(0);
      expect(step.before).toBeDefined();
      expect(step.after).toBeDefined();
      expect(step.after).not.toEqual(step.before);
    }
    // DefaultTolerationSeconds (default on) adds the not-ready and unreachable tolerations.
    const tolerations = record.steps.find((s) => s.name === 'DefaultTolerationSeconds');
    expect(tolerations).toMatchObject({ phase: 'mutating', decision: 'patched' });
    expect(tolerations?.patch?.some((op) => op.op === 'add' && op.path.startsWith('/spec/tolerations'))).toBe(
      true,
    );
    expect(created.body.spec.tolerations).toEqual(
      (tolerations?.after as { spec: { tolerations: unknown[] } }).spec.tolerations,
    );
  });

  it('ends a denied request with the denying step, its message and code', async () => {
    const refused = await host.request('POST', '/api/v1/namespaces/nowhere/pods', {
      body: pod('lost', 'nowhere'),
    });
    expect(refused.status).toBe(404);
    const record = await traceOf(refused.headers.get('audit-id'));
    expect(record.code).toBe(404);
    const last = record.steps[record.steps.length - 1];
    expect(last).toMatchObject({
      name: 'NamespaceLifecycle',
      decision: 'denied',
      message: refused.body.message,
      code: 404,
    });
    expect(record.steps.filter((s) => s.decision === 'denied')).toHaveLength(1);
  });

  it('traces a dry run like any write, marked dryRun', async () => {
    const dry = await host.request('POST', '/api/v1/namespaces/default/configmaps?dryRun=All', {
      body: { metadata: { name: 'dry' } },
    });
    expect(dry.status).toBe(201);
    const record = await traceOf(dry.headers.get('audit-id'));
    expect(record.path).toBe('/api/v1/namespaces/default/configmaps?dryRun=All');
    expect(record.passes[0]?.dryRun).toBe(true);
    expect(record.steps.length).toBeGreaterThan(0);
    expect((await host.request('GET', '/api/v1/namespaces/default/configmaps/dry')).status).toBe(404);
  });
});

describe('lookups that find nothing or are malformed', () => {
  const cases = [
    {
      what: 'an unknown Audit-Id',
      method: 'GET',
      path: '/sandbox/v1/traces/no-such-id',
      code: 404,
      reason: 'NotFound',
    },
    {
      what: 'a path below a trace',
      method: 'GET',
      path: '/sandbox/v1/traces/a/b',
      code: 404,
      reason: 'NotFound',
    },
    { what: 'a write', method: 'POST', path: '/sandbox/v1/traces', code: 405, reason: 'MethodNotAllowed' },
    {
      what: 'a bad limit',
      method: 'GET',
      path: '/sandbox/v1/traces?limit=0',
      code: 400,
      reason: 'BadRequest',
    },
  ];
  for (const c of cases)
    it(`answers ${c.what} with a ${c.code} Status`, async () => {
      const res = await host.request(c.method, c.path);
      expect(res.status).toBe(c.code);
      expect(res.body).toMatchObject({ kind: 'Status', code: c.code, reason: c.reason });
    });

  it('says why an Audit-Id has no trace, and a read never gets one', async () => {
    const read = await host.request('GET', '/api/v1/namespaces/default/configmaps');
    const res = await host.request('GET', `/sandbox/v1/traces/${read.headers.get('audit-id') ?? ''}`);
    expect(res.status).toBe(404);
    expect(res.body.message).toMatch(
      /^no admission trace for Audit-Id ".+": only requests that reached admission/,
    );
    expect(res.body.details).toMatchObject({ kind: 'traces' });
  });
});

describe('recent traces and the live stream', () => {
  it('lists the kept records newest first, as many as ?limit= asks', async () => {
    const ids: string[] = [];
    for (const name of ['first', 'second']) {
      const res = await host.request('POST', '/api/v1/namespaces/default/configmaps', {
        body: { metadata: { name: `recent-${name}` } },
      });
      ids.push(res.headers.get('audit-id') ?? '');
    }
    const all = await host.request('GET', '/sandbox/v1/traces');
    expect(all.status).toBe(200);
    const listed = (all.body.items as AdmissionTraceRecord[]).map((r) => r.auditId);
    expect(listed.indexOf(ids[1] ?? '')).toBeLessThan(listed.indexOf(ids[0] ?? ''));
    const two = await host.request('GET', '/sandbox/v1/traces?limit=2');
    expect((two.body.items as AdmissionTraceRecord[]).map((r) => r.auditId)).toEqual([ids[1], ids[0]]);
  });

  it('streams each record as its request completes', async () => {
    const watch = await openWatch(host.url, '/sandbox/v1/traces?watch=true');
    try {
      expect(watch.status).toBe(200);
      expect(watch.headers.get('content-type')).toBe('application/x-ndjson');
      const created = await host.request('POST', '/api/v1/namespaces/default/configmaps', {
        body: { metadata: { name: 'streamed' } },
      });
      await watch.waitFor(1);
      const record = watch.events[0] as unknown as AdmissionTraceRecord;
      expect(record.auditId).toBe(created.headers.get('audit-id'));
      expect(record.code).toBe(201);
    } finally {
      watch.abort();
    }
  });
});

describe('authorization, as for the rest of the sandbox API', () => {
  const cases = [
    { as: 'admin', path: '/sandbox/v1/traces', accept: true },
    { as: 'alice', path: '/sandbox/v1/traces', accept: false },
    { as: 'anonymous', path: '/sandbox/v1/traces', accept: false },
  ];
  for (const c of cases)
    it(`${c.accept ? 'lets' : 'does not let'} ${c.as} read traces`, async () => {
      const res = await host.request('GET', c.path, { as: c.as });
      if (c.accept) expect(res.status).toBe(200);
      else expect([401, 403]).toContain(res.status);
      const settings = await host.request('GET', '/sandbox/v1/settings', { as: c.as });
      expect(settings.status).toBe(res.status);
    });
});
