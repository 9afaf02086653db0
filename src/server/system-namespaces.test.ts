import { describe, expect, it } from 'vitest';
import { SandboxClock } from '../machinery/clock';
import { PROFILES } from '../machinery/naming';
import { runSystemNamespaces, systemNamespaces } from './system-namespaces';

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the system namespaces loop', () => {
  it('keeps the real server’s three, not default', () => {
    expect(systemNamespaces(PROFILES.kubernetes)).toEqual(['kube-system', 'kube-public', 'kube-node-lease']);
    expect(systemNamespaces(PROFILES.orch)).toEqual(['orch-system', 'orch-public', 'orch-node-lease']);
  });

  it('runs a pass every minute of the server clock, goes on after a failed one, and stops', async () => {
    const clock = new SandboxClock(() => new Date('2026-01-01T00:00:00Z'));
    const passes: number[] = [];
    const failures: unknown[] = [];
    const stop = runSystemNamespaces(
      clock,
      () => {
        passes.push(clock.offsetMs);
        return passes.length === 1 ? Promise.reject(new Error('refused')) : Promise.resolve();
      },
      (e) => failures.push(e),
    );
    clock.advance(59_000);
    expect(passes).toEqual([]);
    clock.advance(1_000);
    await settle();
    expect(passes).toEqual([60_000]);
    expect(failures).toEqual([new Error('refused')]);
    clock.advance(60_000);
    await settle();
    expect(passes).toEqual([60_000, 120_000]);
    stop();
    clock.advance(120_000);
    await settle();
    expect(passes).toEqual([60_000, 120_000]);
  });
});
