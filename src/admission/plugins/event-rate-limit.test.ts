/** EventRateLimit on a controlled clock: bursts, refill, per-key buckets, the LRU, and configuration errors. */

import { describe, expect, it } from 'vitest';
import { PROFILES } from '../../machinery/naming';
import { StatusError } from '../../machinery/errors';
import type { AdmissionAttributes, AdmissionPluginDeps } from '../types';
import { BucketCache, TokenBucket, eventRateLimit, parseEventRateLimitConfig } from './event-rate-limit';

const apiVersion = 'eventratelimit.admission.orch.io/v1alpha1';

function plugin(limits: unknown[], clock: { ms: number }) {
  const deps = {
    profile: PROFILES.orch,
    now: () => new Date(clock.ms),
    config: { apiVersion, kind: 'Configuration', limits },
  } as unknown as AdmissionPluginDeps;
  return eventRateLimit(deps);
}

function write(
  namespace: string,
  user = 'alice',
  extra: Partial<AdmissionAttributes> = {},
): AdmissionAttributes {
  return {
    operation: 'CREATE',
    group: '',
    version: 'v1',
    kind: 'Event',
    resource: 'events',
    subresource: '',
    namespace,
    name: 'e',
    object: {
      apiVersion: 'v1',
      kind: 'Event',
      source: { component: 'kubelet' },
      involvedObject: { kind: 'Pod', name: 'p' },
    },
    user: { username: user, groups: [] },
    dryRun: false,
    ...extra,
  };
}

async function outcome(p: ReturnType<typeof plugin>, a: AdmissionAttributes): Promise<string> {
  try {
    await p.validate?.(a);
    return 'ok';
  } catch (e) {
    return e instanceof StatusError ? `${e.code} ${e.message}` : String(e);
  }
}

describe('EventRateLimit', () => {
  it('admits the burst, refuses the next, and refills at qps', async () => {
    const clock = { ms: 0 };
    const p = plugin([{ type: 'Namespace', qps: 1, burst: 2 }], clock);
    expect(await outcome(p, write('a'))).toBe('ok');
    expect(await outcome(p, write('a'))).toBe('ok');
    expect(await outcome(p, write('a'))).toBe(
      '429 Too many requests: limit reached on type Namespace for key a',
    );
    expect(await outcome(p, write('b'))).toBe('ok');
    clock.ms += 1000;
    expect(await outcome(p, write('a'))).toBe('ok');
    expect(await outcome(p, write('a'))).not.toBe('ok');
  });

  it('aggregates refusals of several limits and keys users, the server and source+object', async () => {
    const clock = { ms: 0 };
    const p = plugin(
      [
        { type: 'Server', qps: 1, burst: 1 },
        { type: 'User', qps: 1, burst: 1 },
        { type: 'SourceAndObject', qps: 1, burst: 1 },
      ],
      clock,
    );
    expect(await outcome(p, write('a', 'alice'))).toBe('ok');
    expect(await outcome(p, write('a', 'alice'))).toBe(
      '429 Too many requests: [limit reached on type Server for key , limit reached on type User for key alice, limit reached on type SourceAndObject for key kubeletPodp]',
    );
  });

  it('ignores dry runs, other kinds and the events group', async () => {
    const clock = { ms: 0 };
    const p = plugin([{ type: 'Server', qps: 1, burst: 1 }], clock);
    expect(await outcome(p, write('a', 'u', { dryRun: true }))).toBe('ok');
    expect(await outcome(p, write('a', 'u', { group: 'events.orch.io' }))).toBe('ok');
    expect(await outcome(p, write('a'))).toBe('ok');
    expect(await outcome(p, write('a', 'u', { kind: 'Pod', resource: 'pods' }))).toBe('ok');
  });

  it('forgets the least recently used bucket beyond the cache size', () => {
    const cache = new BucketCache(2, () => new TokenBucket(1, 1, 0));
    expect(cache.get('x').tryAccept(0)).toBe(true);
    cache.get('y');
    cache.get('z');
    // x was dropped: it starts full again.
    expect(cache.get('x').tryAccept(0)).toBe(true);
    expect(cache.get('z').tryAccept(0)).toBe(true);
  });

  it.each([
    [
      { apiVersion: 'v1', kind: 'Configuration', limits: [] },
      /expected eventratelimit\.admission\.orch\.io\/v1alpha1/,
    ],
    [{ apiVersion, kind: 'Configuration', limits: [] }, /limits: Required value/],
    [
      { apiVersion, kind: 'Configuration', limits: [{ type: 'Pod', qps: 1, burst: 1 }] },
      /Unsupported value: "Pod"/,
    ],
    [
      { apiVersion, kind: 'Configuration', limits: [{ type: 'User', qps: 0, burst: 1 }] },
      /qps: Invalid value: 0/,
    ],
  ])('refuses a bad configuration %#', (config, message) => {
    expect(() => parseEventRateLimitConfig(config, 'orch.io')).toThrow(message);
  });
});
