/**
 * Learning how far etcd has compacted. etcd does not report its compacted
 * revision on a read, but a read at a compacted revision fails, so the
 * oldest readable revision is found by bisection (about 20 cheap reads for
 * a million revisions) when a store opens and whenever a read finds the
 * cached value stale (another replica compacted).
 */

import { isCompactedError } from './errors';
import type { EtcdKvClient } from './kv-client';

/** The oldest readable etcd revision in [low, high], given that `high` is readable. */
export async function findCompactedRevision(
  kv: EtcdKvClient,
  probeKey: string,
  low: number,
  high: number,
): Promise<number> {
  const readable = async (revision: number): Promise<boolean> => {
    try {
      await kv.range({ key: Buffer.from(probeKey), revision, limit: 1, count_only: true });
      return true;
    } catch (error) {
      if (isCompactedError(error)) return false;
      throw error;
    }
  };
  let lo = Math.max(low, 1);
  let hi = high;
  if (await readable(lo)) return lo;
  while (lo + 1 < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (await readable(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}
