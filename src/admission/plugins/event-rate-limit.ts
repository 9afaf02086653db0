/**
 * EventRateLimit (alpha, off by default): throttles Event writes with token
 * buckets, as the real plugin does. Its configuration
 * (`eventratelimit.admission.<suffix>/v1alpha1`, kind `Configuration`) lists
 * limits by type — `Server` one bucket for all, `Namespace` one per
 * namespace, `User` one per user, `SourceAndObject` one per event source and
 * involved object — each with `qps`, `burst` and, for the keyed types, an
 * LRU of `cacheSize` buckets (4096 when unset). A bucket starts full; a
 * write that finds any bucket empty is refused with 429 TooManyRequests
 * (`Too many requests: limit reached on type Namespace for key ns`). Only
 * core Events are limited (the real plugin matches the core kind), never a
 * dry run. The clock is the server's, so tests control it.
 */

import type { KubeObject } from '../../api/meta';
import { StatusError } from '../../machinery/errors';
import type { AdmissionAttributes, AdmissionPluginFactory } from '../types';

const limitTypes = ['Server', 'Namespace', 'User', 'SourceAndObject'] as const;
type LimitType = (typeof limitTypes)[number];

interface LimitConfig {
  type: LimitType;
  qps: number;
  burst: number;
  cacheSize: number;
}

const defaultCacheSize = 4096;

/** Reads and checks the configuration; throws with the reason when the server must not start. */
export function parseEventRateLimitConfig(raw: unknown, groupSuffix: string): LimitConfig[] {
  const expected = `eventratelimit.admission.${groupSuffix}/v1alpha1`;
  if (raw === undefined || raw === null) throw new Error('EventRateLimit: no configuration provided');
  const doc = raw as { apiVersion?: unknown; kind?: unknown; limits?: unknown };
  if (doc.apiVersion !== expected || doc.kind !== 'Configuration')
    throw new Error(
      `EventRateLimit: expected ${expected}, Kind=Configuration, got ${String(doc.apiVersion)}, Kind=${String(doc.kind)}`,
    );
  if (!Array.isArray(doc.limits) || doc.limits.length === 0)
    throw new Error('EventRateLimit: limits: Required value: must not be empty');
  return (doc.limits as unknown[]).map((entry, i) => {
    const e = (entry ?? {}) as { type?: unknown; qps?: unknown; burst?: unknown; cacheSize?: unknown };
    const path = `limits[${i}]`;
    if (!limitTypes.includes(e.type as LimitType))
      throw new Error(
        `EventRateLimit: ${path}.type: Unsupported value: ${JSON.stringify(e.type)}: supported values: ${limitTypes.map((t) => `"${t}"`).join(', ')}`,
      );
    const qps = typeof e.qps === 'number' ? e.qps : 0;
    const burst = typeof e.burst === 'number' ? e.burst : 0;
    if (qps <= 0) throw new Error(`EventRateLimit: ${path}.qps: Invalid value: ${qps}: must be positive`);
    if (burst <= 0)
      throw new Error(`EventRateLimit: ${path}.burst: Invalid value: ${burst}: must be positive`);
    const cacheSize = typeof e.cacheSize === 'number' && e.cacheSize > 0 ? e.cacheSize : defaultCacheSize;
    return { type: e.type as LimitType, qps, burst, cacheSize };
  });
}

/** A token bucket: `burst` tokens, refilled at `qps` per second, measured on the given clock. */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly qps: number,
    private readonly burst: number,
    nowMs: number,
  ) {
    this.tokens = burst;
    this.last = nowMs;
  }

  tryAccept(nowMs: number): boolean {
    const elapsed = Math.max(0, nowMs - this.last) / 1000;
    this.tokens = Math.min(this.burst, this.tokens + elapsed * this.qps);
    this.last = Math.max(this.last, nowMs);
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/** Buckets by key, the least recently used dropped beyond `size` (a dropped key starts full again). */
export class BucketCache {
  private readonly buckets = new Map<string, TokenBucket>();

  constructor(
    private readonly size: number,
    private readonly make: () => TokenBucket,
  ) {}

  get(key: string): TokenBucket {
    let bucket = this.buckets.get(key);
    if (bucket !== undefined) this.buckets.delete(key);
    else bucket = this.make();
    this.buckets.set(key, bucket);
    while (this.buckets.size > this.size) {
      const oldest = this.buckets.keys().next().value;
      if (oldest === undefined) break;
      this.buckets.delete(oldest);
    }
    return bucket;
  }
}

interface EventShape {
  source?: { component?: string; host?: string };
  involvedObject?: { kind?: string; namespace?: string; name?: string; uid?: string; apiVersion?: string };
}

function keyOf(type: LimitType, a: AdmissionAttributes): string {
  switch (type) {
    case 'Server':
      return '';
    case 'Namespace':
      return a.namespace;
    case 'User':
      return a.user.username;
    case 'SourceAndObject': {
      const e = (a.object ?? {}) as KubeObject & EventShape;
      const o = e.involvedObject ?? {};
      // Concatenated without separators, as the real key is.
      return [e.source?.component, e.source?.host, o.kind, o.namespace, o.name, o.uid, o.apiVersion]
        .map((s) => s ?? '')
        .join('');
    }
  }
}

export const eventRateLimit: AdmissionPluginFactory = (deps) => {
  const limits = parseEventRateLimitConfig(deps.config, deps.profile.groupSuffix);
  const nowMs = () => deps.now().getTime();
  const enforcers = limits.map((l) => ({
    type: l.type,
    cache: new BucketCache(
      l.type === 'Server' ? 1 : l.cacheSize,
      () => new TokenBucket(l.qps, l.burst, nowMs()),
    ),
  }));
  return {
    name: 'EventRateLimit',
    operations: ['CREATE', 'UPDATE'],
    async validate(a) {
      if (a.group !== '' || a.kind !== 'Event' || a.dryRun) return;
      const now = nowMs();
      const refusals: string[] = [];
      for (const e of enforcers) {
        const key = keyOf(e.type, a);
        if (!e.cache.get(key).tryAccept(now)) refusals.push(`limit reached on type ${e.type} for key ${key}`);
      }
      if (refusals.length === 0) return;
      const unique = [...new Set(refusals)];
      const message = unique.length === 1 ? (unique[0] as string) : `[${unique.join(', ')}]`;
      throw new StatusError(429, 'TooManyRequests', `Too many requests: ${message}`);
    },
  };
};
