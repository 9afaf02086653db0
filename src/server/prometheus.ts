/**
 * The Prometheus text exposition (format 0.0.4) of metric families as the
 * real server's component-base registry prints them: `# HELP` with the
 * stability marker (`[STABLE]`, `[ALPHA]`) and, for a deprecated metric,
 * `(Deprecated since X.Y.Z)`; `# TYPE`; one line per series with its labels
 * sorted by name; histograms as cumulative buckets, `_sum` and `_count`.
 * A metric deprecated before the previous minor release is hidden unless
 * `--show-hidden-metrics-for-version` names the release that hid it.
 */

export type Stability = 'STABLE' | 'ALPHA';

export interface FamilyOptions {
  name: string;
  help: string;
  stability: Stability;
  /** `1.27.0`: the release that deprecated the metric. */
  deprecatedVersion?: string;
}

export type Labels = Readonly<Record<string, string | number>>;

function escapeValue(v: string | number): string {
  return String(v).replace(/["\\\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`));
}

/** Texts of frozen label sets: a hot caller (one watch event per watcher) passes the same frozen set each time. */
const frozenTexts = new WeakMap<Labels, string>();

/**
 * Texts of other label sets by their plain spelling, which is cheaper than the sort and escaping: every request and
 * store call observes a few. Bounded, as a family's series are by their labels' few values.
 */
const spelledTexts = new Map<string, string>();
const maxSpelled = 10_000;

/** Label pairs sorted by name, as the real exporter prints them. */
export function labelText(labels: Labels): string {
  if (Object.isFrozen(labels)) {
    let text = frozenTexts.get(labels);
    if (text === undefined) {
      text = computeLabelText(labels);
      frozenTexts.set(labels, text);
    }
    return text;
  }
  let spelling = '';
  for (const k in labels) spelling += `${k}\u0000${labels[k] ?? ''}\u0001`;
  let text = spelledTexts.get(spelling);
  if (text === undefined) {
    text = computeLabelText(labels);
    if (spelledTexts.size < maxSpelled) spelledTexts.set(spelling, text);
  }
  return text;
}

function computeLabelText(labels: Labels): string {
  return Object.keys(labels)
    .sort()
    .map((k) => `${k}="${escapeValue(labels[k] ?? '')}"`)
    .join(',');
}

/** Go's %g-like number text Prometheus prints: integers without a fraction, `+Inf`. */
export function numberText(n: number): string {
  if (n === Infinity) return '+Inf';
  if (n === -Infinity) return '-Inf';
  if (Number.isNaN(n)) return 'NaN';
  return String(n);
}

function helpOf(o: FamilyOptions): string {
  const deprecated = o.deprecatedVersion !== undefined ? `(Deprecated since ${o.deprecatedVersion}) ` : '';
  return `[${o.stability}] ${deprecated}${o.help}`;
}

function header(o: FamilyOptions, type: string): string[] {
  return [`# HELP ${o.name} ${helpOf(o)}`, `# TYPE ${o.name} ${type}`];
}

/** A family that prints itself; families with no series print nothing, as the real registry does. */
export interface Family {
  readonly options: FamilyOptions;
  lines(): string[];
}

/** A counter or gauge family keyed by label set. */
export class Scalar implements Family {
  private readonly series = new Map<string, number>();

  constructor(
    readonly options: FamilyOptions,
    private readonly type: 'counter' | 'gauge',
  ) {}

  add(labels: Labels, delta = 1): void {
    this.addTo(labelText(labels), delta);
  }

  /** `add` for a label set's text (`labelText`) the caller kept: a hot caller's series, found without its labels. */
  addTo(key: string, delta = 1): void {
    this.series.set(key, (this.series.get(key) ?? 0) + delta);
  }

  set(labels: Labels, value: number): void {
    this.series.set(labelText(labels), value);
  }

  /** Replaces every series (gauges computed at scrape time). */
  replace(entries: Iterable<[Labels, number]>): void {
    this.series.clear();
    for (const [labels, value] of entries) this.set(labels, value);
  }

  lines(): string[] {
    if (this.series.size === 0) return [];
    const name = this.options.name;
    return [
      ...header(this.options, this.type),
      ...[...this.series.entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([labels, n]) => `${name}${labels === '' ? '' : `{${labels}}`} ${numberText(n)}`),
    ];
  }
}

/**
 * One label set's series of a histogram: the observations in each bucket alone (the first bound at or above the
 * value; cumulated when printed, so an observation increments one count rather than every bound's above it),
 * their sum and count.
 */
export interface HistogramSeries {
  readonly buckets: number[];
  sum: number;
  count: number;
}

/** One histogram family: cumulative buckets, sum and count per label set. */
export class Histogram implements Family {
  private readonly series = new Map<string, HistogramSeries>();

  constructor(
    readonly options: FamilyOptions,
    readonly bounds: readonly number[],
  ) {}

  observe(labels: Labels, value: number): void {
    this.observeIn(this.seriesOf(labels), value);
  }

  /** The label set's series (made at its first observation), for a hot caller to keep and `observeIn`. */
  seriesOf(labels: Labels): HistogramSeries {
    const key = labelText(labels);
    let s = this.series.get(key);
    if (s === undefined) {
      s = { buckets: this.bounds.map(() => 0), sum: 0, count: 0 };
      this.series.set(key, s);
    }
    return s;
  }

  /** `observe` into a series `seriesOf` this histogram gave. */
  observeIn(s: HistogramSeries, value: number): void {
    const bounds = this.bounds;
    let i = 0;
    // Written so that NaN passes every bound (it is counted in +Inf only, as before).
    while (i < bounds.length && !(value <= (bounds[i] ?? 0))) i++;
    if (i < bounds.length) s.buckets[i] = (s.buckets[i] ?? 0) + 1;
    s.sum += value;
    s.count += 1;
  }

  lines(): string[] {
    if (this.series.size === 0) return [];
    const name = this.options.name;
    const out = header(this.options, 'histogram');
    for (const [labels, s] of [...this.series.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const with_ = (extra: string) => (labels === '' ? `{${extra}}` : `{${labels},${extra}}`);
      let cumulative = 0;
      this.bounds.forEach((b, i) => {
        cumulative += s.buckets[i] ?? 0;
        out.push(`${name}_bucket${with_(`le="${numberText(b)}"`)} ${cumulative}`);
      });
      out.push(`${name}_bucket${with_('le="+Inf"')} ${s.count}`);
      const plain = labels === '' ? '' : `{${labels}}`;
      out.push(`${name}_sum${plain} ${numberText(s.sum)}`);
      out.push(`${name}_count${plain} ${s.count}`);
    }
    return out;
  }
}

/** component-base's ExponentialBuckets(start, factor, count). */
export function exponentialBuckets(start: number, factor: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => start * factor ** i);
}

/** `1.27.0` → [1, 27]. */
function minorOf(version: string): [number, number] {
  const [major, minor] = version.split('.').map((p) => Number(p));
  return [major ?? 0, minor ?? 0];
}

/**
 * Whether a family is printed: metrics deprecated in an older release than
 * the previous minor are hidden; `showHiddenFor` (the previous minor, e.g.
 * `1.26`) shows those deprecated in exactly that release.
 */
export function isShown(o: FamilyOptions, current: string, showHiddenFor: string | undefined): boolean {
  if (o.deprecatedVersion === undefined) return true;
  const [cMajor, cMinor] = minorOf(current);
  const [dMajor, dMinor] = minorOf(o.deprecatedVersion);
  if (dMajor !== cMajor || dMinor >= cMinor) return true;
  return showHiddenFor !== undefined && showHiddenFor === `${dMajor}.${dMinor}`;
}

/**
 * The real component-base check of `--show-hidden-metrics-for-version`:
 * only the previous minor release is accepted. Returns the error text.
 */
export function showHiddenMetricsError(current: string, value: string): string | undefined {
  if (value === '') return undefined;
  const [major, minor] = minorOf(current);
  const valid = `${major}.${minor - 1}`;
  return value === valid
    ? undefined
    : `--show-hidden-metrics-for-version must be omitted or have the value '${valid}'. Only the previous minor version is allowed`;
}
