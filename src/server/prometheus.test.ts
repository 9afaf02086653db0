import { describe, expect, it } from 'vitest';
import { exponentialBuckets, Histogram, isShown, Scalar, showHiddenMetricsError } from './prometheus';

describe('prometheus exposition', () => {
  it('prints sorted label names, le last, and nothing for a family with no series', () => {
    const h = new Histogram({ name: 'x_seconds', help: 'A histogram.', stability: 'ALPHA' }, [0.5, 1]);
    expect(h.lines()).toEqual([]);
    h.observe({ verb: 'GET', code: 200 }, 0.7);
    expect(h.lines()).toEqual([
      '# HELP x_seconds [ALPHA] A histogram.',
      '# TYPE x_seconds histogram',
      'x_seconds_bucket{code="200",verb="GET",le="0.5"} 0',
      'x_seconds_bucket{code="200",verb="GET",le="1"} 1',
      'x_seconds_bucket{code="200",verb="GET",le="+Inf"} 1',
      'x_seconds_sum{code="200",verb="GET"} 0.7',
      'x_seconds_count{code="200",verb="GET"} 1',
    ]);
    const g = new Scalar(
      { name: 'g', help: 'Odd "labels".', stability: 'STABLE', deprecatedVersion: '1.27.0' },
      'gauge',
    );
    g.set({ v: 'a"b\\c\nd' }, 2);
    expect(g.lines()).toEqual([
      '# HELP g [STABLE] (Deprecated since 1.27.0) Odd "labels".',
      '# TYPE g gauge',
      'g{v="a\\"b\\\\c\\nd"} 2',
    ]);
    expect(exponentialBuckets(1024, 2, 3)).toEqual([1024, 2048, 4096]);
  });

  it('prints each bound with the observations at or under it, whether observed by labels or into a kept series', () => {
    const h = new Histogram({ name: 'h', help: 'H.', stability: 'ALPHA' }, [0.1, 0.5, 1]);
    const kept = h.seriesOf({ verb: 'GET' });
    // At a bound, between bounds, above every bound, and NaN (counted, in +Inf only, as a comparison says).
    for (const v of [0.1, 0.3, 0.5, 2, Number.NaN]) h.observeIn(kept, v);
    h.observe({ verb: 'GET' }, 0.05);
    expect(h.seriesOf({ verb: 'GET' })).toBe(kept);
    expect(h.lines().slice(2, 6)).toEqual([
      'h_bucket{verb="GET",le="0.1"} 2',
      'h_bucket{verb="GET",le="0.5"} 4',
      'h_bucket{verb="GET",le="1"} 4',
      'h_bucket{verb="GET",le="+Inf"} 6',
    ]);
    const c = new Scalar({ name: 'c', help: 'C.', stability: 'ALPHA' }, 'counter');
    c.add({ code: 200 });
    c.addTo('code="200"', 2);
    expect(c.lines()[2]).toBe('c{code="200"} 3');
  });

  it('hides metrics deprecated before the previous minor unless the flag names their release', () => {
    const m = (deprecatedVersion?: string) => ({
      name: 'm',
      help: '',
      stability: 'ALPHA' as const,
      ...(deprecatedVersion !== undefined ? { deprecatedVersion } : {}),
    });
    expect(isShown(m(), '1.27.0', undefined)).toBe(true);
    expect(isShown(m('1.27.0'), '1.27.0', undefined)).toBe(true);
    expect(isShown(m('1.26.0'), '1.27.0', undefined)).toBe(false);
    expect(isShown(m('1.26.0'), '1.27.0', '1.26')).toBe(true);
    expect(isShown(m('1.25.0'), '1.27.0', '1.26')).toBe(false);
  });

  it('accepts only the previous minor for --show-hidden-metrics-for-version', () => {
    expect(showHiddenMetricsError('1.27.16', '1.26')).toBeUndefined();
    expect(showHiddenMetricsError('1.27.16', '')).toBeUndefined();
    expect(showHiddenMetricsError('1.27.16', '1.24')).toBe(
      "--show-hidden-metrics-for-version must be omitted or have the value '1.26'. Only the previous minor version is allowed",
    );
  });
});
