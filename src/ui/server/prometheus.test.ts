import { describe, expect, it } from 'vitest';
import {
  bucketIncrease,
  buckets,
  quantile,
  ratesBy,
  sumBy,
  topN,
  total,
  windowQuantile,
  type Reading,
} from './metrics-model';
import { parseExposition } from './prometheus';

const text = `# HELP apiserver_request_total [STABLE] Counter of apiserver requests.
# TYPE apiserver_request_total counter
apiserver_request_total{code="200",verb="GET",resource="pods"} 10
apiserver_request_total{code="201",verb="POST",resource="configmaps"} 3
apiserver_request_total{code="200",verb="LIST",resource="pods"} 2 1700000000000
# HELP apiserver_current_inflight_requests [STABLE] Maximal number of currently used inflight request limit.
# TYPE apiserver_current_inflight_requests gauge
apiserver_current_inflight_requests{request_kind="mutating"} 0
apiserver_current_inflight_requests{request_kind="readOnly"} 1
# HELP apiserver_request_duration_seconds [STABLE] Response latency distribution.
# TYPE apiserver_request_duration_seconds histogram
apiserver_request_duration_seconds_bucket{verb="GET",le="0.005"} 2
apiserver_request_duration_seconds_bucket{verb="GET",le="0.01"} 6
apiserver_request_duration_seconds_bucket{verb="GET",le="0.1"} 10
apiserver_request_duration_seconds_bucket{verb="GET",le="+Inf"} 10
apiserver_request_duration_seconds_sum{verb="GET"} 0.2
apiserver_request_duration_seconds_count{verb="GET"} 10
apiserver_request_duration_seconds_bucket{verb="WATCH",le="0.005"} 0
apiserver_request_duration_seconds_bucket{verb="WATCH",le="0.01"} 0
apiserver_request_duration_seconds_bucket{verb="WATCH",le="0.1"} 0
apiserver_request_duration_seconds_bucket{verb="WATCH",le="+Inf"} 4
apiserver_request_duration_seconds_sum{verb="WATCH"} 240
apiserver_request_duration_seconds_count{verb="WATCH"} 4
# HELP weird_label_values A gauge whose labels need unescaping.
# TYPE weird_label_values gauge
weird_label_values{path="a\\"b",text="line\\nbreak",slash="c\\\\d",} 7
no_type_line 1.5e3
`;

describe('parseExposition', () => {
  const exposition = parseExposition(text);

  it('groups samples into families with their HELP and TYPE', () => {
    const requests = exposition.families.get('apiserver_request_total');
    expect(requests?.type).toBe('counter');
    expect(requests?.help).toBe('[STABLE] Counter of apiserver requests.');
    expect(requests?.samples).toHaveLength(3);
    expect(requests?.samples[2]).toEqual({
      name: 'apiserver_request_total',
      labels: { code: '200', verb: 'LIST', resource: 'pods' },
      value: 2,
    });
    expect(exposition.families.get('apiserver_current_inflight_requests')?.type).toBe('gauge');
  });

  it("puts a histogram's _bucket, _sum and _count samples in its family", () => {
    const histogram = exposition.families.get('apiserver_request_duration_seconds');
    expect(histogram?.type).toBe('histogram');
    expect(histogram?.samples).toHaveLength(12);
    expect(exposition.families.has('apiserver_request_duration_seconds_bucket')).toBe(false);
  });

  it('unescapes label values and accepts a trailing comma, untyped samples and exponents', () => {
    expect(exposition.families.get('weird_label_values')?.samples[0]?.labels).toEqual({
      path: 'a"b',
      text: 'line\nbreak',
      slash: 'c\\d',
    });
    expect(exposition.families.get('no_type_line')).toMatchObject({
      type: 'untyped',
      samples: [{ value: 1500 }],
    });
    expect(exposition.unreadable).toBe(0);
  });

  it('reads +Inf, -Inf and NaN and counts a malformed line instead of failing', () => {
    const odd = parseExposition('a +Inf\nb -Inf\nc NaN\nd{x="1" 2\ne\n');
    expect(odd.families.get('a')?.samples[0]?.value).toBe(Infinity);
    expect(odd.families.get('b')?.samples[0]?.value).toBe(-Infinity);
    expect(odd.families.get('c')?.samples[0]?.value).toBeNaN();
    expect(odd.unreadable).toBe(2);
  });

  it('keeps a family announced by HELP/TYPE without samples', () => {
    const empty = parseExposition('# HELP x_seconds A histogram.\n# TYPE x_seconds histogram\n');
    expect(empty.families.get('x_seconds')).toEqual({
      name: 'x_seconds',
      type: 'histogram',
      help: 'A histogram.',
      samples: [],
    });
  });
});

describe('derived values', () => {
  const before: Reading = { at: 0, exposition: parseExposition(text) };
  const after: Reading = {
    at: 2000,
    exposition: parseExposition(
      text
        .replace('verb="GET",resource="pods"} 10', 'verb="GET",resource="pods"} 20')
        .replace('verb="POST",resource="configmaps"} 3', 'verb="POST",resource="configmaps"} 1'),
    ),
  };

  it('sums by a label and in total; undefined for a metric not exposed', () => {
    expect(sumBy(before.exposition, 'apiserver_request_total', 'verb')).toEqual(
      new Map([
        ['GET', 10],
        ['POST', 3],
        ['LIST', 2],
      ]),
    );
    expect(total(before.exposition, 'apiserver_current_inflight_requests')).toBe(1);
    expect(total(before.exposition, 'apiserver_storage_objects')).toBeUndefined();
  });

  it('computes per-second rates, treating a counter that went down as restarted', () => {
    expect(ratesBy(before, after, 'apiserver_request_total', 'verb')).toEqual(
      new Map([
        ['GET', 5],
        ['POST', 0.5],
        ['LIST', 0],
      ]),
    );
  });

  it('sums histogram buckets over series, filtered', () => {
    expect(
      buckets(before.exposition, 'apiserver_request_duration_seconds', (l) => l['verb'] !== 'WATCH'),
    ).toEqual([
      { le: 0.005, count: 2 },
      { le: 0.01, count: 6 },
      { le: 0.1, count: 10 },
      { le: Infinity, count: 10 },
    ]);
  });

  it('interpolates quantiles inside the bucket, as histogram_quantile does', () => {
    const b = [
      { le: 0.005, count: 2 },
      { le: 0.01, count: 6 },
      { le: 0.1, count: 10 },
      { le: Infinity, count: 10 },
    ];
    // rank 5 falls in (0.005, 0.01]: 3 of its 4 observations.
    expect(quantile(0.5, b)).toBeCloseTo(0.00875);
    // rank 9.9 falls in (0.01, 0.1]: 3.9 of 4.
    expect(quantile(0.99, b)).toBeCloseTo(0.01 + 0.09 * (3.9 / 4));
    // The first bucket starts at zero.
    expect(quantile(0.1, b)).toBeCloseTo(0.0025);
    // In the +Inf bucket: the highest finite bound.
    expect(
      quantile(0.5, [
        { le: 1, count: 0 },
        { le: Infinity, count: 4 },
      ]),
    ).toBe(1);
    expect(
      quantile(0.5, [
        { le: 1, count: 0 },
        { le: Infinity, count: 0 },
      ]),
    ).toBeUndefined();
  });

  it('takes the quantile of what was observed between two readings', () => {
    const later: Reading = {
      at: 2000,
      exposition: parseExposition(
        text
          .replace('le="0.1"} 10', 'le="0.1"} 20')
          .replace('verb="GET",le="+Inf"} 10', 'verb="GET",le="+Inf"} 20'),
      ),
    };
    const noWatch = (l: Record<string, string>) => l['verb'] !== 'WATCH';
    // The ten new observations all fell in (0.01, 0.1].
    expect(windowQuantile(before, later, 'apiserver_request_duration_seconds', 0.5, noWatch)).toBeCloseTo(
      0.055,
    );
    // Nothing observed in between: no value rather than a stale one.
    expect(
      windowQuantile(before, before, 'apiserver_request_duration_seconds', 0.5, noWatch),
    ).toBeUndefined();
    expect(bucketIncrease([{ le: 1, count: 5 }], [{ le: 1, count: 2 }])).toEqual([{ le: 1, count: 2 }]);
  });

  it('ranks the largest values first, ties by name', () => {
    const values = new Map([
      ['pods', 3],
      ['configmaps', 9],
      ['events', 3],
      ['secrets', 1],
    ]);
    expect(topN(values, 3)).toEqual([
      ['configmaps', 9],
      ['events', 3],
      ['pods', 3],
    ]);
  });
});
