/**
 * A reader for the Prometheus text exposition format that `/metrics`
 * answers: `# HELP` and `# TYPE` lines and samples, grouped into families.
 * A histogram's `_bucket`, `_sum` and `_count` samples (a summary's `_sum`
 * and `_count`) join the family their TYPE line named. Nothing is assumed
 * about which metrics exist, so the view keeps working as the server's set
 * changes; a line it cannot read is counted, never fatal.
 */

export type MetricType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';

export interface Sample {
  /** The sample's own name, e.g. `apiserver_request_duration_seconds_bucket`. */
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface MetricFamily {
  name: string;
  type: MetricType;
  help: string;
  samples: Sample[];
}

export interface Exposition {
  families: Map<string, MetricFamily>;
  /** Lines that were neither comments nor readable samples. */
  unreadable: number;
}

const types = new Set<MetricType>(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

export function parseExposition(text: string): Exposition {
  const families = new Map<string, MetricFamily>();
  let unreadable = 0;
  const family = (name: string): MetricFamily => {
    let found = families.get(name);
    if (found === undefined) {
      found = { name, type: 'untyped', help: '', samples: [] };
      families.set(name, found);
    }
    return found;
  };

  for (const rawLine of text.split('\n')) {
    const line = rawLine.trim();
    if (line === '') continue;
    if (line.startsWith('#')) {
      const match = /^#\s*(HELP|TYPE)\s+(\S+)\s?(.*)$/.exec(line);
      if (match === null) continue; // an ordinary comment
      const [, keyword, name = '', rest = ''] = match;
      if (keyword === 'HELP') family(name).help = unescapeHelp(rest);
      else family(name).type = types.has(rest.trim() as MetricType) ? (rest.trim() as MetricType) : 'untyped';
      continue;
    }
    const sample = parseSample(line);
    if (sample === undefined) {
      unreadable++;
      continue;
    }
    family(familyName(sample.name, families)).samples.push(sample);
  }
  // A family announced by HELP/TYPE but with no samples (a histogram never observed) stays: it is exposed.
  return { families, unreadable };
}

/** The family a sample belongs to: a histogram's or summary's suffixed samples join their base. */
function familyName(sample: string, families: Map<string, MetricFamily>): string {
  for (const suffix of ['_bucket', '_sum', '_count']) {
    if (!sample.endsWith(suffix)) continue;
    const base = families.get(sample.slice(0, -suffix.length));
    if (base === undefined) continue;
    if (base.type === 'histogram' || (base.type === 'summary' && suffix !== '_bucket')) return base.name;
  }
  return sample;
}

function parseSample(line: string): Sample | undefined {
  const nameMatch = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line);
  if (nameMatch === null) return undefined;
  const name = nameMatch[0];
  let rest = line.slice(name.length);
  const labels: Record<string, string> = {};
  if (rest.startsWith('{')) {
    const read = readLabels(rest);
    if (read === undefined) return undefined;
    Object.assign(labels, read.labels);
    rest = rest.slice(read.length);
  }
  // The value, then an optional timestamp (ignored: the view stamps samples when it reads them).
  const [valueText] = rest.trim().split(/\s+/);
  if (valueText === undefined || valueText === '') return undefined;
  const value = parseValue(valueText);
  if (value === undefined) return undefined;
  return { name, labels, value };
}

/** Reads `{a="x",b="y\"z"}` from the start of `text`; `length` covers the closing brace. */
function readLabels(text: string): { labels: Record<string, string>; length: number } | undefined {
  const labels: Record<string, string> = {};
  let i = 1;
  for (;;) {
    while (text[i] === ' ' || text[i] === ',') i++;
    if (text[i] === '}') return { labels, length: i + 1 };
    const key = /^[a-zA-Z_][a-zA-Z0-9_]*/.exec(text.slice(i));
    if (key === null) return undefined;
    i += key[0].length;
    while (text[i] === ' ') i++;
    if (text[i] !== '=') return undefined;
    i++;
    while (text[i] === ' ') i++;
    if (text[i] !== '"') return undefined;
    i++;
    let value = '';
    for (;;) {
      const c = text[i];
      if (c === undefined) return undefined;
      if (c === '"') break;
      if (c === '\\') {
        const next = text[i + 1];
        value += next === 'n' ? '\n' : (next ?? '');
        i += 2;
        continue;
      }
      value += c;
      i++;
    }
    i++;
    labels[key[0]] = value;
  }
}

function parseValue(text: string): number | undefined {
  if (text === '+Inf' || text === 'Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  if (text === 'NaN') return NaN;
  const value = Number(text);
  return Number.isNaN(value) ? undefined : value;
}

function unescapeHelp(text: string): string {
  return text.replace(/\\(n|\\)/g, (_, c: string) => (c === 'n' ? '\n' : '\\'));
}
