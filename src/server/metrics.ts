/**
 * Server metrics in the Prometheus text format at `/metrics`, with the real
 * v1.27 server's names, types, labels, buckets and HELP lines, so lessons
 * and dashboards about them work unchanged: the request counter and
 * duration histogram, in-flight and long-running gauges, watch event counts
 * and sizes, requested deprecated APIs, stored objects per resource, the
 * store's request latency (`etcd_request_duration_seconds`, whatever the
 * backend), and the admission metrics. The watcher gauge v1.25 removed
 * (`apiserver_registered_watchers`) is not served.
 */

import type { AdmissionMetrics } from '../admission/metrics';
import type { LongRunningLabels, MetricsSink, RequestLabels } from '../http/server-context';
import {
  exponentialBuckets,
  Histogram,
  isShown,
  labelText,
  Scalar,
  type Family,
  type HistogramSeries,
  type Labels,
} from './prometheus';
import { flushAfterAnswer } from '../machinery/after-answer';

/** The real buckets of `apiserver_request_duration_seconds` and `etcd_request_duration_seconds`. */
const latencyBuckets = [
  0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60,
];
const sloBuckets = latencyBuckets.slice(2);
const admissionBuckets = [0.005, 0.025, 0.1, 0.5, 1, 2.5];

/** `pods`, `deployments.apps`: the real `resource` / `type` label of the storage metrics. */
export function groupResourceLabel(group: string, resource: string): string {
  return group === '' ? resource : `${resource}.${group}`;
}

/**
 * The in-flight gauge reports the highest count of the last second, as the
 * real server's pre-aggregated watermark does, so a scrape sees a burst.
 */
class Watermark {
  private current = 0;
  private peak = 0;
  private peakAt = 0;

  constructor(private readonly clock: () => number) {}

  change(delta: number): void {
    this.current += delta;
    const now = this.clock();
    if (this.current >= this.peak || now - this.peakAt > 1000) {
      this.peak = this.current;
      this.peakAt = now;
    }
  }

  value(): number {
    return this.clock() - this.peakAt > 1000 ? this.current : Math.max(this.peak, this.current);
  }
}

export interface MetricsOptions {
  /** `--show-hidden-metrics-for-version` (validated by the host). */
  showHiddenMetricsForVersion?: string;
  /** The server's `major.minor.patch` (hidden metrics are relative to it). */
  version?: string;
  clock?: () => number;
}

/** One request labelling's series in the four request families, found once (every request records into them). */
interface RequestLabelSets {
  /** The counter's label text (`apiserver_request_total`). */
  total: string;
  duration: HistogramSeries;
  slo: HistogramSeries;
  sli: HistogramSeries;
}

export class Metrics implements MetricsSink, AdmissionMetrics {
  private readonly controllerDuration = new Histogram(
    {
      name: 'apiserver_admission_controller_admission_duration_seconds',
      help: 'Admission controller latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
      stability: 'STABLE',
    },
    admissionBuckets,
  );
  private readonly stepDuration = new Histogram(
    {
      name: 'apiserver_admission_step_admission_duration_seconds',
      help: 'Admission sub-step latency histogram in seconds, broken out for each operation and API resource and step type (validate or admit).',
      stability: 'STABLE',
    },
    admissionBuckets,
  );
  private readonly webhookDuration = new Histogram(
    {
      name: 'apiserver_admission_webhook_admission_duration_seconds',
      help: 'Admission webhook latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
      stability: 'STABLE',
    },
    [...admissionBuckets, 10, 25],
  );
  private readonly webhookRejections = new Scalar(
    {
      name: 'apiserver_admission_webhook_rejection_count',
      help: 'Admission webhook rejection count, identified by name and broken out for each admission type (validating or admit) and operation. Additional labels specify an error type (calling_webhook_error or apiserver_internal_error if an error occurred; no_error otherwise) and optionally a non-zero rejection code if the webhook rejects the request with an HTTP status code (honored by the apiserver when the code is greater or equal to 400). Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.',
      stability: 'ALPHA',
    },
    'counter',
  );
  private readonly currentInflight = new Scalar(
    {
      name: 'apiserver_current_inflight_requests',
      help: 'Maximal number of currently used inflight request limit of this apiserver per request kind in last second.',
      stability: 'STABLE',
    },
    'gauge',
  );
  private readonly longRunning = new Scalar(
    {
      name: 'apiserver_longrunning_requests',
      help: 'Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.',
      stability: 'STABLE',
    },
    'gauge',
  );
  private readonly requestDuration = new Histogram(
    {
      name: 'apiserver_request_duration_seconds',
      help: 'Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.',
      stability: 'STABLE',
    },
    latencyBuckets,
  );
  private readonly requestSloDuration = new Histogram(
    {
      name: 'apiserver_request_slo_duration_seconds',
      help: 'Response latency distribution (not counting webhook duration and priority & fairness queue wait times) in seconds for each verb, group, version, resource, subresource, scope and component.',
      stability: 'ALPHA',
      deprecatedVersion: '1.27.0',
    },
    sloBuckets,
  );
  private readonly requestSliDuration = new Histogram(
    {
      name: 'apiserver_request_sli_duration_seconds',
      help: 'Response latency distribution (not counting webhook duration and priority & fairness queue wait times) in seconds for each verb, group, version, resource, subresource, scope and component.',
      stability: 'ALPHA',
    },
    sloBuckets,
  );
  private readonly requests = new Scalar(
    {
      name: 'apiserver_request_total',
      help: 'Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
      stability: 'STABLE',
    },
    'counter',
  );
  private readonly deprecated = new Scalar(
    {
      name: 'apiserver_requested_deprecated_apis',
      help: 'Gauge of deprecated APIs that have been requested, broken out by API group, version, resource, subresource, and removed_release.',
      stability: 'STABLE',
    },
    'gauge',
  );
  private readonly storageObjects = new Scalar(
    {
      name: 'apiserver_storage_objects',
      help: 'Number of stored objects at the time of last check split by kind.',
      stability: 'STABLE',
    },
    'gauge',
  );
  /** The frozen label sets of each request labelling seen (see recordRequest); as many as the series. */
  private readonly requestLabelSets = new Map<string, RequestLabelSets>();
  /** The same sets by a frozen labels object the caller hands out again (the pipeline's, per request path). */
  private readonly requestLabelSetsByLabels = new WeakMap<RequestLabels, RequestLabelSets>();
  /** The frozen label set of each watched kind (see watchEventSent). */
  private readonly watchLabels = new Map<string, Labels>();
  /**
   * The series of admission controllers' observations, by outcome, plugin name, operation and type: every
   * admission observes each plugin it runs (a create some twenty). Found by nested lookups of the label values
   * themselves, no text made per observation; the histogram's series never go away. As many as the series.
   */
  private readonly controllerSeries: SeriesTree = new Map();
  private readonly rejectedControllerSeries: SeriesTree = new Map();
  /** The store's and admission steps' series, the same way (bounded: a few operations and types). */
  private readonly storeSeries: SeriesTree = new Map();
  private readonly stepSeries: SeriesTree = new Map();
  private readonly watchEvents = new Scalar(
    {
      name: 'apiserver_watch_events_total',
      help: 'Number of events sent in watch clients',
      stability: 'ALPHA',
    },
    'counter',
  );
  private readonly watchEventSizes = new Histogram(
    {
      name: 'apiserver_watch_events_sizes',
      help: 'Watch event size distribution in bytes',
      stability: 'ALPHA',
    },
    exponentialBuckets(1024, 2, 8),
  );
  private readonly etcdDuration = new Histogram(
    {
      name: 'etcd_request_duration_seconds',
      help: 'Etcd request latency in seconds for each operation and object type.',
      stability: 'ALPHA',
    },
    latencyBuckets,
  );

  private readonly mutating: Watermark;
  private readonly readOnly: Watermark;
  private readonly longRunningCounts = new Map<string, { labels: Labels; n: number }>();
  private readonly version: string;
  private readonly showHidden: string | undefined;
  /** Counts stored objects per resource at scrape time (set by the server once its storages exist). */
  objectCounter: (() => Promise<Map<string, number>>) | undefined;

  constructor(options: MetricsOptions = {}) {
    const clock = options.clock ?? (() => Date.now());
    this.mutating = new Watermark(clock);
    this.readOnly = new Watermark(clock);
    this.version = options.version ?? '1.27.0';
    this.showHidden = options.showHiddenMetricsForVersion;
    // Both kinds are always reported, as the real filter reports them from the start.
    this.currentInflight.set({ request_kind: 'mutating' }, 0);
    this.currentInflight.set({ request_kind: 'readOnly' }, 0);
  }

  /** A request in flight began (`1`) or ended (`-1`); each is told once per request by the request gate. */
  inflightChanged(mutating: boolean, change: 1 | -1): void {
    (mutating ? this.mutating : this.readOnly).change(change);
  }

  deprecatedApiRequested(l: {
    group: string;
    version: string;
    resource: string;
    subresource: string;
    removedRelease: string;
  }): void {
    this.deprecated.set(
      {
        group: l.group,
        version: l.version,
        resource: l.resource,
        subresource: l.subresource,
        removed_release: l.removedRelease,
      },
      1,
    );
  }

  recordRequest(l: RequestLabels, seconds: number): void {
    // The pipeline hands out the same labels object for a repeated request: its sets are found by it.
    const known = this.requestLabelSetsByLabels.get(l);
    const sets = known ?? this.requestLabelSetsOf(l);
    if (known === undefined && Object.isFrozen(l)) this.requestLabelSetsByLabels.set(l, sets);
    this.requests.addTo(sets.total);
    this.requestDuration.observeIn(sets.duration, seconds);
    this.requestSloDuration.observeIn(sets.slo, seconds);
    this.requestSliDuration.observeIn(sets.sli, seconds);
  }

  private requestLabelSetsOf(l: RequestLabels): RequestLabelSets {
    const dryRun = l.dryRun ? 'All' : '';
    // Every request: frozen label sets per distinct labelling, so their texts are worked out once (see labelText).
    // Joined with a character no label value holds (names, verbs and versions are printable ASCII): cheaper
    // than a JSON array's text, every request.
    const id = `${l.verb}\u0000${l.group}\u0000${l.version}\u0000${l.resource}\u0000${l.subresource}\u0000${l.scope}\u0000${dryRun}\u0000${l.code}`;
    let sets = this.requestLabelSets.get(id);
    if (sets === undefined) {
      const base = Object.freeze({
        verb: l.verb,
        group: l.group,
        version: l.version,
        resource: l.resource,
        subresource: l.subresource,
        scope: l.scope,
        component: 'apiserver',
      });
      sets = {
        total: labelText({ ...base, dry_run: dryRun, code: l.code }),
        duration: this.requestDuration.seriesOf({ ...base, dry_run: dryRun }),
        slo: this.requestSloDuration.seriesOf(base),
        sli: this.requestSliDuration.seriesOf(base),
      };
      this.requestLabelSets.set(id, sets);
    }
    return sets;
  }

  longRunningStarted(l: LongRunningLabels): () => void {
    const labels: Labels = { ...l, component: 'apiserver' };
    const key = JSON.stringify(labels);
    const entry = this.longRunningCounts.get(key) ?? { labels, n: 0 };
    entry.n += 1;
    this.longRunningCounts.set(key, entry);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      entry.n -= 1;
    };
  }

  watchEventSent(group: string, version: string, kind: string, bytes: number): void {
    // Called once per event per watcher: one frozen label set per kind, whose text labelText keeps.
    const id = `${group}/${version}/${kind}`;
    let labels = this.watchLabels.get(id);
    if (labels === undefined) {
      labels = Object.freeze({ group, version, kind });
      this.watchLabels.set(id, labels);
    }
    this.watchEvents.add(labels);
    this.watchEventSizes.observe(labels, bytes);
  }

  /** One store call, for `etcd_request_duration_seconds`. */
  observeStore(operation: string, type: string, seconds: number): void {
    // Every store call observes one.
    const h = this.etcdDuration;
    const tree = this.storeSeries;
    h.observeIn(
      seriesIn(tree, operation, type, '') ??
        keepSeries(tree, operation, type, '', h.seriesOf({ operation, type })),
      seconds,
    );
  }

  observeController(
    l: { name: string; operation: string; rejected: boolean; type: string },
    seconds: number,
  ): void {
    const h = this.controllerDuration;
    const { name, operation, rejected, type } = l;
    const tree = rejected ? this.rejectedControllerSeries : this.controllerSeries;
    h.observeIn(
      seriesIn(tree, name, operation, type) ??
        keepSeries(
          tree,
          name,
          operation,
          type,
          h.seriesOf({ name, operation, rejected: String(rejected), type }),
        ),
      seconds,
    );
  }

  observeStep(l: { operation: string; rejected: boolean; type: string }, seconds: number): void {
    // Every write observes two steps (admit, validate).
    const h = this.stepDuration;
    const { operation, rejected, type } = l;
    const outcome = rejected ? 'true' : 'false';
    const tree = this.stepSeries;
    h.observeIn(
      seriesIn(tree, operation, type, outcome) ??
        keepSeries(tree, operation, type, outcome, h.seriesOf({ operation, rejected: outcome, type })),
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
    this.webhookRejections.add({
      name: l.name,
      operation: l.operation,
      type: l.type,
      error_type: l.errorType,
      // Codes above 600 are recorded as 600, bounding the label's values.
      rejection_code: Math.min(l.rejectionCode, 600),
    });
  }

  /** The exposition, families sorted by name as the real registry gathers them. */
  async text(): Promise<string> {
    // Requests are counted after their answers: those answered so far are counted first.
    flushAfterAnswer();
    this.currentInflight.set({ request_kind: 'mutating' }, this.mutating.value());
    this.currentInflight.set({ request_kind: 'readOnly' }, this.readOnly.value());
    // A long-running series stays once seen (at 0 when none is open), as a real gauge child does.
    this.longRunning.replace([...this.longRunningCounts.values()].map((e) => [e.labels, e.n]));
    if (this.objectCounter !== undefined) {
      const counts = await this.objectCounter();
      this.storageObjects.replace([...counts.entries()].map(([resource, n]) => [{ resource }, n]));
    }
    const families: Family[] = [
      this.controllerDuration,
      this.stepDuration,
      this.webhookDuration,
      this.webhookRejections,
      this.currentInflight,
      this.longRunning,
      this.requestDuration,
      this.requestSliDuration,
      this.requestSloDuration,
      this.requests,
      this.deprecated,
      this.storageObjects,
      this.watchEvents,
      this.watchEventSizes,
      this.etcdDuration,
    ];
    const lines = families
      .filter((f) => isShown(f.options, this.version, this.showHidden))
      .sort((a, b) => (a.options.name < b.options.name ? -1 : 1))
      .flatMap((f) => f.lines());
    return `${lines.join('\n')}\n`;
  }
}

/** Series found by three label values in turn (`Metrics.controllerSeries`). */
type SeriesTree = Map<string, Map<string, Map<string, HistogramSeries>>>;

/** The series kept under `a`, `b`, `c` in `tree`, if any. */
function seriesIn(tree: SeriesTree, a: string, b: string, c: string): HistogramSeries | undefined {
  return tree.get(a)?.get(b)?.get(c);
}

/** Keeps `series` under `a`, `b`, `c` in `tree`, and returns it. */
function keepSeries(
  tree: SeriesTree,
  a: string,
  b: string,
  c: string,
  series: HistogramSeries,
): HistogramSeries {
  let byA = tree.get(a);
  if (byA === undefined) tree.set(a, (byA = new Map()));
  let byB = byA.get(b);
  if (byB === undefined) byA.set(b, (byB = new Map()));
  byB.set(c, series);
  return series;
}
