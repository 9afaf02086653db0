/**
 * Server → Metrics: live charts of the API server's own metrics, computed in
 * the page from `/metrics` readings two seconds apart — request rate by verb,
 * request and store latency quantiles from histogram buckets, inflight and
 * long-running requests, stored objects per resource, watch events, and the
 * deprecated APIs requested — with the raw text a scraper would read. Each
 * card names its metric and how the number is computed, so the chart also
 * teaches the query; a metric the server does not expose says so.
 */

import { useState, type ReactNode } from 'react';
import { LineChart, type ChartSeries } from './LineChart';
import {
  increase,
  ratesBy,
  sumBy,
  topN,
  total,
  windowQuantile,
  type LabelFilter,
  type Reading,
} from './metrics-model';
import { capacity, pollMs, useMetricsReadings } from './useMetricsReadings';

const names = {
  requests: 'apiserver_request_total',
  duration: 'apiserver_request_duration_seconds',
  inflight: 'apiserver_current_inflight_requests',
  longrunning: 'apiserver_longrunning_requests',
  stored: 'apiserver_storage_objects',
  watchEvents: 'apiserver_watch_events_total',
  watchSizes: 'apiserver_watch_events_sizes',
  deprecated: 'apiserver_requested_deprecated_apis',
  etcd: 'etcd_request_duration_seconds',
} as const;

/** Long-running requests would swamp the latency quantiles; the upstream SLO dashboards leave them out too. */
const shortRequests: LabelFilter = (labels) => labels['verb'] !== 'WATCH' && labels['verb'] !== 'CONNECT';

const perSecond = (v: number) => `${v < 10 ? v.toFixed(2) : v.toFixed(1)}/s`;
const milliseconds = (seconds: number) => {
  const ms = seconds * 1000;
  return `${ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : ms.toFixed(0)} ms`;
};
const count = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(1));

function pairsOf<T>(readings: readonly Reading[], compute: (before: Reading, after: Reading) => T): T[] {
  const out: T[] = [];
  for (let i = 1; i < readings.length; i++)
    out.push(compute(readings[i - 1] as Reading, readings[i] as Reading));
  return out;
}

function exposed(readings: readonly Reading[], metric: string): boolean {
  return readings.some((r) => r.exposition.families.has(metric));
}

/** Series by label value from per-pair maps, the `keep` busiest named and the rest summed as "other". */
function seriesByKey(perPair: readonly (Map<string, number> | undefined)[], keep: number): ChartSeries[] {
  const totals = new Map<string, number>();
  for (const map of perPair) for (const [k, v] of map ?? []) totals.set(k, (totals.get(k) ?? 0) + v);
  const kept = topN(totals, keep).map(([k]) => k);
  const series: ChartSeries[] = kept.map((key) => ({
    label: key === '' ? '(none)' : key,
    values: perPair.map((map) => (map === undefined ? undefined : (map.get(key) ?? 0))),
  }));
  if (totals.size > kept.length)
    series.push({
      label: 'other',
      values: perPair.map((map) =>
        map === undefined
          ? undefined
          : [...map].filter(([k]) => !kept.includes(k)).reduce((a, [, v]) => a + v, 0),
      ),
    });
  return series;
}

function MetricCard({
  title,
  metrics,
  how,
  missing,
  children,
  testId,
}: {
  title: string;
  metrics: readonly string[];
  how: ReactNode;
  missing: readonly string[];
  children: ReactNode;
  testId: string;
}) {
  const id = `metric-${testId}`;
  return (
    <section className="card metric-card" aria-labelledby={id} data-testid={testId}>
      <h3 id={id}>{title}</h3>
      <p className="metric-source">
        {metrics.map((m, i) => (
          <span key={m}>
            {i > 0 ? ', ' : ''}
            <code>{m}</code>
          </span>
        ))}
        <span className="muted"> — {how}</span>
      </p>
      {missing.length > 0 ? (
        <p className="metric-missing" role="note">
          Not exposed by this server yet:{' '}
          {missing.map((m) => (
            <code key={m}>{m} </code>
          ))}
        </p>
      ) : (
        children
      )}
    </section>
  );
}

export function MetricsSection({ active }: { active: boolean }) {
  const { readings, text, error } = useMetricsReadings(active);
  const [raw, setRaw] = useState(false);
  const latest = readings[readings.length - 1];
  const missing = (...metrics: string[]) =>
    latest === undefined ? [] : metrics.filter((m) => !exposed(readings, m));

  const requestRates = pairsOf(readings, (a, b) => ratesBy(a, b, names.requests, 'verb'));
  const requestsTotal = latest === undefined ? undefined : total(latest.exposition, names.requests);
  const latency: ChartSeries[] = [0.5, 0.99].map((q) => ({
    label: `p${q * 100}`,
    values: pairsOf(readings, (a, b) => windowQuantile(a, b, names.duration, q, shortRequests)),
  }));
  const etcdLatency: ChartSeries[] = [0.5, 0.99].map((q) => ({
    label: `p${q * 100}`,
    values: pairsOf(readings, (a, b) => windowQuantile(a, b, names.etcd, q)),
  }));
  const inflight: ChartSeries[] = [
    ...['readOnly', 'mutating'].map((kind) => ({
      label: kind,
      values: readings.map((r) => sumBy(r.exposition, names.inflight, 'request_kind')?.get(kind)),
    })),
    { label: 'long-running', values: readings.map((r) => total(r.exposition, names.longrunning)) },
  ];
  const watchRate: ChartSeries[] = [
    {
      label: 'all kinds',
      values: pairsOf(readings, (a, b) => ratesBy(a, b, names.watchEvents, undefined)?.get('')),
    },
  ];
  const sizes = latest === undefined || readings.length < 2 ? undefined : averageSize(readings);
  const stored = latest === undefined ? undefined : sumBy(latest.exposition, names.stored, 'resource');
  const storedTop = stored === undefined ? [] : topN(stored, 10);
  const storedMax = Math.max(1, ...storedTop.map(([, v]) => v));
  const deprecated =
    latest?.exposition.families.get(names.deprecated)?.samples.filter((s) => s.value > 0) ?? [];

  return (
    <div className="metrics-section">
      <div className="metrics-toolbar">
        <p className="muted" role="status" aria-live="off">
          {latest === undefined
            ? 'Reading /metrics…'
            : `${readings.length} readings, one every ${pollMs / 1000} s while this section is shown; the charts span the last ${((capacity - 1) * pollMs) / 1000} s.`}
        </p>
        <button type="button" className="secondary" aria-pressed={raw} onClick={() => setRaw(!raw)}>
          {raw ? 'Show charts' : 'Show raw text'}
        </button>
      </div>
      {error !== undefined ? (
        <p className="error" role="alert">
          /metrics failed: {error}
        </p>
      ) : null}
      {raw ? (
        <section className="card" aria-labelledby="metrics-raw-title">
          <h3 id="metrics-raw-title">GET /metrics</h3>
          <p className="muted">
            The Prometheus text format, as a scraper reads it: <code># HELP</code> and <code># TYPE</code>{' '}
            lines, then one sample per line; a histogram is its <code>_bucket</code> (cumulative, by upper
            bound <code>le</code>), <code>_sum</code> and <code>_count</code> samples.
          </p>
          <pre className="metrics-raw" tabIndex={0} data-testid="metrics-raw">
            {text ?? ''}
          </pre>
        </section>
      ) : (
        <div className="metrics-grid">
          <MetricCard
            title="Request rate by verb"
            metrics={[names.requests]}
            how="increase between two readings ÷ seconds, summed by verb"
            missing={missing(names.requests)}
            testId="requests"
          >
            <p className="metric-headline">
              Requests counted since the server started:{' '}
              <strong data-testid="requests-total">
                {requestsTotal === undefined ? '…' : count(requestsTotal)}
              </strong>
            </p>
            <LineChart series={seriesByKey(requestRates, 5)} capacity={capacity - 1} format={perSecond} />
          </MetricCard>
          <MetricCard
            title="Request latency"
            metrics={[names.duration]}
            how="quantiles of the bucket counts added between two readings, WATCH and CONNECT left out"
            missing={missing(names.duration)}
            testId="latency"
          >
            <LineChart series={latency} capacity={capacity - 1} format={milliseconds} />
          </MetricCard>
          <MetricCard
            title="Inflight and long-running requests"
            metrics={[names.inflight, names.longrunning]}
            how="gauges, as read"
            missing={missing(names.inflight, names.longrunning)}
            testId="inflight"
          >
            <LineChart series={inflight} capacity={capacity} format={count} />
          </MetricCard>
          <MetricCard
            title="Stored objects (top 10 resources)"
            metrics={[names.stored]}
            how="a gauge per resource, newest reading"
            missing={missing(names.stored)}
            testId="stored"
          >
            <ol className="bar-list">
              {storedTop.map(([resource, value]) => (
                <li key={resource} data-resource={resource}>
                  <span className="bar-label" title={resource}>
                    {resource}
                  </span>
                  <span className="bar-track" aria-hidden="true">
                    <span className="bar-fill" style={{ width: `${(100 * value) / storedMax}%` }} />
                  </span>
                  <span className="bar-value">{count(value)}</span>
                </li>
              ))}
            </ol>
          </MetricCard>
          <MetricCard
            title="Watch events sent"
            metrics={[names.watchEvents, names.watchSizes]}
            how="rate between two readings; average size from the size histogram's _sum ÷ _count"
            missing={missing(names.watchEvents)}
            testId="watch-events"
          >
            <LineChart series={watchRate} capacity={capacity - 1} format={perSecond} />
            <p className="metric-headline">
              Average event size over the window:{' '}
              <strong>{sizes === undefined ? 'no events yet' : `${Math.round(sizes)} bytes`}</strong>
            </p>
          </MetricCard>
          <MetricCard
            title="Store latency"
            metrics={[names.etcd]}
            how="quantiles of the store's request histogram between two readings, all operations"
            missing={missing(names.etcd)}
            testId="etcd-latency"
          >
            <LineChart series={etcdLatency} capacity={capacity - 1} format={milliseconds} />
          </MetricCard>
          <MetricCard
            title="Deprecated APIs requested"
            metrics={[names.deprecated]}
            how="a gauge set to 1 for each deprecated group/version/resource a client has requested"
            missing={[]}
            testId="deprecated"
          >
            {deprecated.length === 0 ? (
              <p className="muted">
                None requested since the server started. A request to a deprecated version (for example a
                FlowSchema through its v1beta2 group) adds a row here, and its answer carries a Warning
                header.
              </p>
            ) : (
              <table className="metrics-table">
                <thead>
                  <tr>
                    <th scope="col">Group</th>
                    <th scope="col">Version</th>
                    <th scope="col">Resource</th>
                    <th scope="col">Subresource</th>
                    <th scope="col">Removed in</th>
                  </tr>
                </thead>
                <tbody>
                  {deprecated.map((s) => (
                    <tr key={JSON.stringify(s.labels)}>
                      <td>{s.labels['group'] || '(core)'}</td>
                      <td>{s.labels['version']}</td>
                      <td>{s.labels['resource']}</td>
                      <td>{s.labels['subresource'] || '—'}</td>
                      <td>{s.labels['removed_release'] || 'not planned'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </MetricCard>
        </div>
      )}
    </div>
  );
}

/** Average watch event size over the readings held: growth of the size histogram's sum ÷ growth of its count. */
function averageSize(readings: readonly Reading[]): number | undefined {
  const first = readings[0];
  const last = readings[readings.length - 1];
  if (first === undefined || last === undefined) return undefined;
  const pick = (r: Reading, suffix: string) => {
    const family = r.exposition.families.get(names.watchSizes);
    if (family === undefined) return undefined;
    return family.samples
      .filter((s) => s.name === `${names.watchSizes}${suffix}`)
      .reduce((a, s) => a + s.value, 0);
  };
  const sumAfter = pick(last, '_sum');
  const countAfter = pick(last, '_count');
  if (sumAfter === undefined || countAfter === undefined) return undefined;
  const events = increase(pick(first, '_count'), countAfter);
  if (events <= 0) return undefined;
  return increase(pick(first, '_sum'), sumAfter) / events;
}
