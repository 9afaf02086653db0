/**
 * Server metrics in the Prometheus text format at `/metrics`, with the real
 * server's names and labels: the counter `apiserver_request_total`, the
 * gauge `apiserver_registered_watchers`, and the admission metrics (the
 * plugin, webhook and phase duration histograms with the real buckets, the
 * webhook rejection counter), so that lessons and dashboards about them
 * work unchanged.
 */

import type { AdmissionMetrics } from '../admission/metrics';
import type { MetricsSink, RequestLabels } from '../http/server-context';

function labelText(labels: Record<string, string | number>): string {
  return Object.entries(labels)
    .map(([k, v]) => `${k}="${String(v).replace(/["\\\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`))}"`)
    .join(',');
}

/** Label pairs sorted by name, as the real exporter prints them. */
function sortedLabelText(labels: Record<string, string | number>): string {
  return labelText(Object.fromEntries(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : 1))));
}

/** One histogram family: cumulative buckets, sum and count per label set. */
class Histogram {
  private readonly series = new Map<string, { buckets: number[]; sum: number; count: number }>();

  constructor(
    readonly name: string,
    readonly help: string,
    readonly bounds: readonly number[],
  ) {}

  observe(labels: Record<string, string>, value: number): void {
    const key = sortedLabelText(labels);
    let s = this.series.get(key);
    if (s === undefined) {
      s = { buckets: this.bounds.map(() => 0), sum: 0, count: 0 };
      this.series.set(key, s);
    }
    for (let i = 0; i < this.bounds.length; i++)
      if (value <= (this.bounds[i] ?? 0)) s.buckets[i] = (s.buckets[i] ?? 0) + 1;
    s.sum += value;
    s.count += 1;
  }

  lines(): string[] {
    const out = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const [labels, s] of [...this.series.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
      this.bounds.forEach((b, i) =>
        out.push(`${this.name}_bucket{${labels},le="${b}"} ${s.buckets[i] ?? 0}`),
      );
      out.push(`${this.name}_bucket{${labels},le="+Inf"} ${s.count}`);
      out.push(`${this.name}_sum{${labels}} ${s.sum}`);
      out.push(`${this.name}_count{${labels}} ${s.count}`);
    }
    return out;
  }
}

const admissionBuckets = [0.005, 0.025, 0.1, 0.5, 1, 2.5];

export class Metrics implements MetricsSink, AdmissionMetrics {
  private readonly controllerDuration = new Histogram(
    'apiserver_admission_controller_admission_duration_seconds',
    '[STABLE] Admission controller latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
    admissionBuckets,
  );
  private readonly webhookDuration = new Histogram(
    'apiserver_admission_webhook_admission_duration_seconds',
    '[STABLE] Admission webhook latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
    [...admissionBuckets, 10, 25],
  );
  private readonly stepDuration = new Histogram(
    'apiserver_admission_step_admission_duration_seconds',
    '[STABLE] Admission sub-step latency histogram in seconds, broken out for each operation and API resource and step type (validate or admit).',
    admissionBuckets,
  );
  private readonly webhookRejections = new Map<string, number>();
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

  observeController(
    l: { name: string; operation: string; rejected: boolean; type: string },
    seconds: number,
  ): void {
    this.controllerDuration.observe(
      { name: l.name, operation: l.operation, rejected: String(l.rejected), type: l.type },
      seconds,
    );
  }

  observeStep(l: { operation: string; rejected: boolean; type: string }, seconds: number): void {
    this.stepDuration.observe(
      { operation: l.operation, rejected: String(l.rejected), type: l.type },
      seconds,
    );
  }

  observeWebhook(
    l: { name: string; operation: string; rejected: boolean; type: string },
    seconds: number,
  ): void {
    this.webhookDuration.observe(
      { name: l.name, operation: l.operation, rejected: String(l.rejected), type: l.type },
      seconds,
    );
  }

  webhookRejection(l: {
    name: string;
    operation: string;
    type: string;
    errorType: string;
    rejectionCode: number;
  }): void {
    const key = sortedLabelText({
      name: l.name,
      operation: l.operation,
      type: l.type,
      error_type: l.errorType,
      // Codes above 600 are recorded as 600, bounding the label's values.
      rejection_code: Math.min(l.rejectionCode, 600),
    });
    this.webhookRejections.set(key, (this.webhookRejections.get(key) ?? 0) + 1);
  }

  private admissionLines(): string[] {
    return [
      ...this.controllerDuration.lines(),
      ...this.stepDuration.lines(),
      ...this.webhookDuration.lines(),
      '# HELP apiserver_admission_webhook_rejection_count [ALPHA] Admission webhook rejection count, identified by name and broken out for each admission type (validating or admit) and operation. Additional labels specify an error type (calling_webhook_error or apiserver_internal_error if an error occurred; no_error otherwise) and optionally a non-zero rejection code if the webhook rejects the request with an HTTP status code (honored by the apiserver when the code is greater or equal to 400). Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.',
      '# TYPE apiserver_admission_webhook_rejection_count counter',
      ...[...this.webhookRejections.entries()]
        .sort()
        .map(([labels, n]) => `apiserver_admission_webhook_rejection_count{${labels}} ${n}`),
    ];
  }

  text(): string {
    const lines = [
      ...this.admissionLines(),
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
