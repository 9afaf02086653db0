/**
 * `/metrics` over HTTPS as the real v1.27 server exposes it: the families'
 * HELP (with the stability marker) and TYPE lines, label names sorted as the
 * exporter prints them, the real histogram buckets, stored objects per
 * resource, the in-flight and long-running gauges, watch event counts and
 * sizes, the store's request latency, the deprecated-API gauge appearing
 * only once a deprecated API was requested, no `apiserver_registered_watchers`,
 * and `--show-hidden-metrics-for-version`.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from './support/host';
import { openWatch } from './support/watch';
import { FlagError, parseHostArgs } from '../src/hosts/node/args';
import { namingProfile } from '../src/machinery/naming';

const profile = namingProfile('kubernetes');
const CMS = '/api/v1/namespaces/default/configmaps';
const latencyBounds = [
  '0.005',
  '0.025',
  '0.05',
  '0.1',
  '0.2',
  '0.4',
  '0.6',
  '0.8',
  '1',
  '1.25',
  '1.5',
  '2',
  '3',
  '4',
  '5',
  '6',
  '8',
  '10',
  '15',
  '20',
  '30',
  '45',
  '60',
  '+Inf',
];

let host: TestHost;

beforeAll(async () => {
  host = await startTestHost({ profile: 'kubernetes' });
});

afterAll(async () => {
  await host?.close();
});

async function scrape(): Promise<string> {
  const r = await host.request('GET', '/metrics');
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  return r.text;
}

const linesOf = (text: string, prefix: string) => text.split('\n').filter((l) => l.startsWith(prefix));

describe('/metrics', () => {
  it('serves each family with its real HELP and TYPE lines', async () => {
    const w = await openWatch(host.url, `${CMS}?watch=1&resourceVersion=0`);
    await host.request('POST', CMS, { body: { metadata: { name: 'm-help' } } });
    await w.waitFor(1);
    const text = await scrape();
    w.abort();
    const families: [string, string, string][] = [
      [
        'apiserver_current_inflight_requests',
        'gauge',
        '[STABLE] Maximal number of currently used inflight request limit of this apiserver per request kind in last second.',
      ],
      [
        'apiserver_longrunning_requests',
        'gauge',
        '[STABLE] Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.',
      ],
      [
        'apiserver_request_duration_seconds',
        'histogram',
        '[STABLE] Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.',
      ],
      [
        'apiserver_request_total',
        'counter',
        '[STABLE] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
      ],
      [
        'apiserver_storage_objects',
        'gauge',
        '[STABLE] Number of stored objects at the time of last check split by kind.',
      ],
      ['apiserver_watch_events_total', 'counter', '[ALPHA] Number of events sent in watch clients'],
      ['apiserver_watch_events_sizes', 'histogram', '[ALPHA] Watch event size distribution in bytes'],
      [
        'etcd_request_duration_seconds',
        'histogram',
        '[ALPHA] Etcd request latency in seconds for each operation and object type.',
      ],
      [
        'apiserver_request_slo_duration_seconds',
        'histogram',
        '[ALPHA] (Deprecated since 1.27.0) Response latency distribution (not counting webhook duration and priority & fairness queue wait times) in seconds for each verb, group, version, resource, subresource, scope and component.',
      ],
    ];
    for (const [name, type, help] of families) {
      expect(text, name).toContain(`# HELP ${name} ${help}\n# TYPE ${name} ${type}\n`);
    }
    expect(text).not.toContain('apiserver_registered_watchers');
  });

  it('labels requests with sorted label names and the real duration buckets', async () => {
    await host.request('GET', `${CMS}?limit=1`);
    const text = await scrape();
    const labels =
      'component="apiserver",dry_run="",group="",resource="configmaps",scope="namespace",subresource="",verb="LIST",version="v1"';
    const buckets = linesOf(text, `apiserver_request_duration_seconds_bucket{${labels},le=`);
    expect(buckets.map((l) => /le="([^"]+)"/.exec(l)?.[1])).toEqual(latencyBounds);
    expect(linesOf(text, `apiserver_request_duration_seconds_count{${labels}} `)).toHaveLength(1);
    expect(
      linesOf(
        text,
        'apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="configmaps",scope="namespace",subresource="",verb="LIST",version="v1"} ',
      ),
    ).toHaveLength(1);
    // Both request kinds are always reported; the scrape itself is a read-only request in flight.
    expect(text).toMatch(/\napiserver_current_inflight_requests\{request_kind="mutating"\} \d+\n/);
    expect(text).toMatch(/\napiserver_current_inflight_requests\{request_kind="readOnly"\} [1-9]\d*\n/);
  });

  it('counts stored objects per resource and times the store by operation and type', async () => {
    const count = (text: string, resource: string) =>
      Number(linesOf(text, `apiserver_storage_objects{resource="${resource}"} `)[0]?.split(' ')[1]);
    const before = await scrape();
    expect(count(before, 'namespaces')).toBeGreaterThanOrEqual(4);
    expect(count(before, `clusterroles.${profile.suffixed('rbac.authorization')}`)).toBeGreaterThan(50);
    await host.request('POST', CMS, { body: { metadata: { name: 'm-count' } } });
    await host.request('GET', `${CMS}/m-count`);
    const after = await scrape();
    expect(count(after, 'configmaps')).toBe(count(before, 'configmaps') + 1);
    expect(
      linesOf(after, 'etcd_request_duration_seconds_bucket{operation="create",type="configmaps",le="60"} '),
    ).toHaveLength(1);
    // A GET reads the store (the start-up namespaces no longer do: they are looked up in the informer, 0091).
    expect(
      linesOf(after, 'etcd_request_duration_seconds_count{operation="get",type="configmaps"} '),
    ).toHaveLength(1);
  });

  it('tracks open watches and the events they are sent', async () => {
    const series =
      'apiserver_longrunning_requests{component="apiserver",group="",resource="configmaps",scope="namespace",subresource="",verb="WATCH",version="v1"}';
    const value = (text: string, prefix: string) =>
      Number(linesOf(text, `${prefix} `)[0]?.split(' ')[1] ?? 0);
    const before = await scrape();
    const w = await openWatch(host.url, `${CMS}?watch=1&resourceVersion=0`);
    await w.waitFor(1);
    const during = await scrape();
    expect(value(during, series)).toBe(value(before, series) + 1);
    const events = 'apiserver_watch_events_total{group="",kind="ConfigMap",version="v1"}';
    expect(value(during, events)).toBeGreaterThan(value(before, events));
    const sizes = linesOf(
      during,
      'apiserver_watch_events_sizes_bucket{group="",kind="ConfigMap",version="v1",le=',
    );
    expect(sizes.map((l) => /le="([^"]+)"/.exec(l)?.[1])).toEqual([
      '1024',
      '2048',
      '4096',
      '8192',
      '16384',
      '32768',
      '65536',
      '131072',
      '+Inf',
    ]);
    w.abort();
    const deadline = Date.now() + 5000;
    let after = await scrape();
    while (value(after, series) !== value(before, series) && Date.now() < deadline) after = await scrape();
    expect(value(after, series)).toBe(value(before, series));
  });

  it('shows apiserver_requested_deprecated_apis only once a deprecated API was requested', async () => {
    expect(await scrape()).not.toContain('apiserver_requested_deprecated_apis');
    const group = profile.suffixed('flowcontrol.apiserver');
    const r = await host.request('GET', `/apis/${group}/v1beta2/flowschemas`);
    expect(r.status).toBe(200);
    const text = await scrape();
    expect(text).toContain(
      '# HELP apiserver_requested_deprecated_apis [STABLE] Gauge of deprecated APIs that have been requested, broken out by API group, version, resource, subresource, and removed_release.\n# TYPE apiserver_requested_deprecated_apis gauge\n',
    );
    expect(text).toContain(
      `apiserver_requested_deprecated_apis{group="${group}",removed_release="1.29",resource="flowschemas",subresource="",version="v1beta2"} 1\n`,
    );
  });
});

describe('--show-hidden-metrics-for-version', () => {
  const message =
    "--show-hidden-metrics-for-version must be omitted or have the value '1.26'. Only the previous minor version is allowed";
  it.each([
    { value: '1.26', error: undefined },
    { value: '', error: undefined },
    { value: '1.25', error: message },
    { value: '1.27', error: message },
    { value: 'v1.26', error: message },
  ])('$value', ({ value, error }) => {
    if (error === undefined)
      expect(parseHostArgs([`--show-hidden-metrics-for-version=${value}`]).showHiddenMetricsForVersion).toBe(
        value === '' ? undefined : value,
      );
    else
      expect(() => parseHostArgs([`--show-hidden-metrics-for-version=${value}`])).toThrow(
        new FlagError(error),
      );
  });
});
