import { describe, expect, it } from 'vitest';
import { bootstrapHooks, postStartHooks, ServerHealth } from './checks';

async function results(health: ServerHealth, endpoint: 'healthz' | 'livez' | 'readyz') {
  const out: Record<string, string | undefined> = {};
  for (const c of health.checks(endpoint)) out[c.name] = await c.check();
  return out;
}

describe('ServerHealth', () => {
  it('fails each post-start check with "not finished" until its step completes', async () => {
    const health = new ServerHealth({ storeProbe: async () => undefined });
    for (const endpoint of ['healthz', 'livez', 'readyz'] as const) {
      const r = await results(health, endpoint);
      for (const hook of postStartHooks) expect(r[hook], `${endpoint} ${hook}`).toBe('not finished');
    }
    health.complete(...bootstrapHooks);
    const r = await results(health, 'readyz');
    expect(r['poststarthook/rbac/bootstrap-roles']).toBeUndefined();
    expect(r['autoregister-completion']).toBeUndefined();
    expect(r['poststarthook/crd-informer-synced']).toBe('not finished');
  });

  it('--livez-grace-period: livez passes unfinished hooks until the period ends; readyz and healthz never do', async () => {
    let now = 1_000;
    const health = new ServerHealth({
      storeProbe: async () => undefined,
      livezGracePeriodMs: 60_000,
      clock: () => now,
    });
    expect((await results(health, 'livez'))['poststarthook/rbac/bootstrap-roles']).toBeUndefined();
    expect((await results(health, 'readyz'))['poststarthook/rbac/bootstrap-roles']).toBe('not finished');
    expect((await results(health, 'healthz'))['poststarthook/rbac/bootstrap-roles']).toBe('not finished');
    now += 60_001;
    expect((await results(health, 'livez'))['poststarthook/rbac/bootstrap-roles']).toBe('not finished');
  });

  it('etcd and etcd-readiness fail with the probe error, or the deadline when the store hangs', async () => {
    const down = new ServerHealth({
      storeProbe: async () => {
        throw new Error('connection refused');
      },
    });
    const r = await results(down, 'readyz');
    expect(r['etcd']).toBe('error getting data from etcd: connection refused');
    expect(r['etcd-readiness']).toBe('error getting data from etcd: connection refused');
    const hung = new ServerHealth({ storeProbe: () => new Promise(() => undefined), probeTimeoutMs: 10 });
    expect((await results(hung, 'healthz'))['etcd']).toBe(
      'error getting data from etcd: context deadline exceeded',
    );
  });

  it('lists the checks in the real order, informer-sync and shutdown on readyz only', () => {
    const health = new ServerHealth({
      storeProbe: async () => undefined,
      without: ['poststarthook/start-apiextensions-controllers'],
    });
    const names = (e: 'healthz' | 'livez' | 'readyz') => health.checks(e).map((c) => c.name);
    const hooks = postStartHooks.filter((h) => h !== 'poststarthook/start-apiextensions-controllers');
    expect(names('healthz')).toEqual(['ping', 'log', 'etcd', ...hooks]);
    expect(names('livez')).toEqual(['ping', 'log', 'etcd', ...hooks]);
    expect(names('readyz')).toEqual([
      'ping',
      'log',
      'etcd',
      'etcd-readiness',
      'informer-sync',
      ...hooks,
      'shutdown',
    ]);
  });

  it('informer-sync and shutdown follow the server', async () => {
    const health = new ServerHealth({ storeProbe: async () => undefined });
    expect((await results(health, 'readyz'))['informer-sync']).toBe('informers not started yet');
    health.markInformersSynced();
    health.markShuttingDown();
    const r = await results(health, 'readyz');
    expect(r['informer-sync']).toBeUndefined();
    expect(r['shutdown']).toBe('process is shutting down');
  });
});
