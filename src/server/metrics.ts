/**
 * Server metrics in the Prometheus text format at `/metrics`, with the real
 * server's names and labels: the counter `apiserver_request_total` and the
 * gauge `apiserver_registered_watchers`, so that lessons and dashboards
 * about them work unchanged.
 */

import type { MetricsSink, RequestLabels } from '../http/server-context';

function labelText(labels: Record<string, string | number>): string {
  return Object.entries(labels)
    .map(([k, v]) => `${k}="${String(v).replace(/["\\\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`))}"`)
    .join(',');
}

export class Metrics implements MetricsSink {
  private readonly requests = new Map<string, number>();
  private readonly watchers = new Map<string, number>();
  private readonly deprecated = new Set<string>();

  deprecatedApiRequested(l: {
    group: string;
    version: string;
    resource: string;
    subresource: string;
    removedRelease: string;
  }): void {
    this.deprecated.add(
      labelText({
        group: l.group,
        version: l.version,
        resource: l.resource,
        subresource: l.subresource,
        removed_release: l.removedRelease,
      }),
    );
  }

  recordRequest(l: RequestLabels): void {
    const key = labelText({
      verb: l.verb,
      dry_run: l.dryRun ? 'All' : '',
      group: l.group,
      version: l.version,
      resource: l.resource,
      subresource: l.subresource,
      scope: l.scope,
      component: 'apiserver',
      code: l.code,
    });
    this.requests.set(key, (this.requests.get(key) ?? 0) + 1);
  }

  watchOpened(group: string, version: string, kind: string): void {
    const key = labelText({ group, kind, version });
    this.watchers.set(key, (this.watchers.get(key) ?? 0) + 1);
  }

  watchClosed(group: string, version: string, kind: string): void {
    const key = labelText({ group, kind, version });
    this.watchers.set(key, Math.max(0, (this.watchers.get(key) ?? 0) - 1));
  }

  text(): string {
    const lines = [
      '# HELP apiserver_request_total [STABLE] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
      '# TYPE apiserver_request_total counter',
      ...[...this.requests.entries()].sort().map(([labels, n]) => `apiserver_request_total{${labels}} ${n}`),
      '# HELP apiserver_registered_watchers [ALPHA] Number of currently registered watchers for a given resources',
      '# TYPE apiserver_registered_watchers gauge',
      ...[...this.watchers.entries()]
        .sort()
        .map(([labels, n]) => `apiserver_registered_watchers{${labels}} ${n}`),
      '# HELP apiserver_requested_deprecated_apis [STABLE] Gauge of deprecated APIs that have been requested, broken out by API group, version, resource, subresource, and removed_release.',
      '# TYPE apiserver_requested_deprecated_apis gauge',
      ...[...this.deprecated].sort().map((labels) => `apiserver_requested_deprecated_apis{${labels}} 1`),
    ];
    return `${lines.join('\n')}\n`;
  }
}
