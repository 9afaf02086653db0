/**
 * Request metrics in the Prometheus text format at `/metrics`: the counter
 * `apiserver_request_total` with the real server's labels, so that
 * dashboards and lessons about it work unchanged.
 */

export interface RequestLabels {
  verb: string;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  scope: string;
  code: number;
}

export class Metrics {
  private readonly requests = new Map<string, number>();

  recordRequest(l: RequestLabels): void {
    const key = `verb="${l.verb}",dry_run="",group="${l.group}",version="${l.version}",resource="${l.resource}",subresource="${l.subresource}",scope="${l.scope}",component="apiserver",code="${l.code}"`;
    this.requests.set(key, (this.requests.get(key) ?? 0) + 1);
  }

  text(): string {
    const lines = ['# HELP apiserver_request_total [STABLE] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.', '# TYPE apiserver_request_total counter'];
    for (const [labels, n] of [...this.requests.entries()].sort()) lines.push(`apiserver_request_total{${labels}} ${n}`);
    return `${lines.join('\n')}\n`;
  }
}
