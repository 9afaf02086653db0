/**
 * What the metrics view computes from successive `/metrics` readings, the
 * way a Prometheus query would: a counter's per-second rate between two
 * readings (a drop means the counter restarted), sums by one label, and a
 * histogram's quantile from the bucket counts observed between two readings
 * (linear interpolation inside the bucket, as `histogram_quantile` does).
 */

import type { Exposition, MetricFamily, Sample } from './prometheus';

export interface Reading {
  /** Epoch milliseconds when the answer arrived. */
  at: number;
  exposition: Exposition;
}

export type LabelFilter = (labels: Record<string, string>) => boolean;

const all: LabelFilter = () => true;

/** A family's plain samples (for a histogram, its `_count` samples: one per series). */
function seriesSamples(family: MetricFamily): Sample[] {
  if (family.type === 'histogram' || family.type === 'summary')
    return family.samples.filter((s) => s.name === `${family.name}_count`);
  return family.samples.filter((s) => s.name === family.name);
}

/** The family's values summed by the value of `label` (`''` when a sample lacks it); undefined when not exposed. */
export function sumBy(
  exposition: Exposition,
  metric: string,
  label: string | undefined,
  filter: LabelFilter = all,
): Map<string, number> | undefined {
  const family = exposition.families.get(metric);
  if (family === undefined) return undefined;
  const sums = new Map<string, number>();
  for (const sample of seriesSamples(family)) {
    if (!filter(sample.labels) || !Number.isFinite(sample.value)) continue;
    const key = label === undefined ? '' : (sample.labels[label] ?? '');
    sums.set(key, (sums.get(key) ?? 0) + sample.value);
  }
  return sums;
}

/** The sum of every series of a family; undefined when not exposed. */
export function total(exposition: Exposition, metric: string, filter: LabelFilter = all): number | undefined {
  const sums = sumBy(exposition, metric, undefined, filter);
  return sums === undefined ? undefined : (sums.get('') ?? 0);
}

/** The increase of a counter between two readings: a smaller value means it restarted from zero. */
export function increase(before: number | undefined, after: number): number {
  if (before === undefined || after < before) return after;
  return after - before;
}

/** Per-second rates between two readings, by label value. */
export function ratesBy(
  before: Reading,
  after: Reading,
  metric: string,
  label: string | undefined,
  filter: LabelFilter = all,
): Map<string, number> | undefined {
  const now = sumBy(after.exposition, metric, label, filter);
  if (now === undefined) return undefined;
  const then = sumBy(before.exposition, metric, label, filter) ?? new Map<string, number>();
  const seconds = (after.at - before.at) / 1000;
  const rates = new Map<string, number>();
  if (seconds <= 0) return rates;
  for (const [key, value] of now) rates.set(key, increase(then.get(key), value) / seconds);
  return rates;
}

export interface Bucket {
  /** Upper bound (`le`), `Infinity` for the last. */
  le: number;
  /** Cumulative count of observations at or below `le`. */
  count: number;
}

/** A histogram's buckets summed over every series that passes `filter`, sorted by bound; undefined when not exposed. */
export function buckets(
  exposition: Exposition,
  metric: string,
  filter: LabelFilter = all,
): Bucket[] | undefined {
  const family = exposition.families.get(metric);
  if (family === undefined || family.type !== 'histogram') return undefined;
  const byBound = new Map<number, number>();
  for (const sample of family.samples) {
    if (sample.name !== `${metric}_bucket` || !filter(sample.labels)) continue;
    const le = sample.labels['le'];
    if (le === undefined) continue;
    const bound = le === '+Inf' ? Infinity : Number(le);
    if (Number.isNaN(bound)) continue;
    byBound.set(bound, (byBound.get(bound) ?? 0) + sample.value);
  }
  return [...byBound].map(([le, count]) => ({ le, count })).sort((a, b) => a.le - b.le);
}

/** The buckets' growth between two readings (all of `after` if any bucket shrank: the histogram restarted). */
export function bucketIncrease(before: Bucket[] | undefined, after: Bucket[]): Bucket[] {
  if (before === undefined) return after;
  const then = new Map(before.map((b) => [b.le, b.count]));
  const grown = after.map((b) => ({ le: b.le, count: b.count - (then.get(b.le) ?? 0) }));
  return grown.some((b) => b.count < 0) ? after : grown;
}

/**
 * The q-quantile (0..1) of the observations counted in cumulative `buckets`, interpolated linearly within
 * the bucket it falls in (the first bucket starts at 0); a quantile in the `+Inf` bucket is the highest
 * finite bound. Undefined when nothing was observed.
 */
export function quantile(q: number, cumulative: readonly Bucket[]): number | undefined {
  const last = cumulative[cumulative.length - 1];
  if (last === undefined || last.count <= 0) return undefined;
  const rank = q * last.count;
  let lowerBound = 0;
  let lowerCount = 0;
  for (const bucket of cumulative) {
    if (bucket.count >= rank && bucket.count > lowerCount) {
      if (bucket.le === Infinity) return lowerBound;
      return lowerBound + ((bucket.le - lowerBound) * (rank - lowerCount)) / (bucket.count - lowerCount);
    }
    lowerBound = bucket.le;
    lowerCount = bucket.count;
  }
  return lowerBound;
}

/** The q-quantile of what a histogram observed between two readings. */
export function windowQuantile(
  before: Reading,
  after: Reading,
  metric: string,
  q: number,
  filter: LabelFilter = all,
): number | undefined {
  const now = buckets(after.exposition, metric, filter);
  if (now === undefined) return undefined;
  return quantile(q, bucketIncrease(buckets(before.exposition, metric, filter), now));
}

/** The `n` largest entries of a map, largest first (ties by key, so the order is stable). */
export function topN(values: Map<string, number>, n: number): [string, number][] {
  return [...values].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, n);
}
