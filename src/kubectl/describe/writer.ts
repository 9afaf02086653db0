/**
 * The building blocks of kubectl's describers (pkg/describe): a prefix
 * writer whose levels indent by two spaces, output aligned by a tab writer
 * (minwidth 0, padding 2), labels and annotations printed one per line,
 * the events table, and the "smart labels" the generic describer makes
 * from field names (`creationTimestamp` → `Creation Timestamp`).
 */

import type { KubeObject } from '../../api/meta';
import { ageSince } from '../printers/age';
import { tabwrite } from '../printers/tabwriter';

export class PrefixWriter {
  private text = '';

  write(level: number, text: string): void {
    this.text += '  '.repeat(level) + text;
  }

  line(text: string): void {
    this.text += text + '\n';
  }

  /** What was written, unaligned (kubectl's printTemplate writes without a tab writer). */
  raw(): string {
    return this.flushed + this.text;
  }

  /** The aligned output. */
  toString(): string {
    return tabwrite(this.text, { minWidth: 0, padding: 2 });
  }

  /** Aligns what was written so far on its own (kubectl flushes before the events table). */
  flush(): void {
    this.flushed += tabwrite(this.text, { minWidth: 0, padding: 2 });
    this.text = '';
  }

  private flushed = '';

  result(): string {
    return this.flushed + tabwrite(this.text, { minWidth: 0, padding: 2 });
  }
}

export function printLabelsMultiline(
  w: PrefixWriter,
  title: string,
  labels: Record<string, string> | undefined,
  initialIndent = '',
): void {
  w.write(0, `${initialIndent}${title}:\t`);
  const keys = Object.keys(labels ?? {}).sort();
  if (keys.length === 0) {
    w.line('<none>');
    return;
  }
  keys.forEach((key, i) => {
    if (i !== 0) w.write(0, `${initialIndent}\t`);
    w.write(0, `${key}=${(labels as Record<string, string>)[key]}\n`);
  });
}

const maxAnnotationLen = 140;
const skippedAnnotations = new Set(['kubectl.kubernetes.io/last-applied-configuration']);

export function printAnnotationsMultiline(
  w: PrefixWriter,
  title: string,
  annotations: Record<string, string> | undefined,
): void {
  w.write(0, `${title}:\t`);
  const keys = Object.keys(annotations ?? {})
    .filter((k) => !skippedAnnotations.has(k))
    .sort();
  if (keys.length === 0) {
    w.line('<none>');
    return;
  }
  keys.forEach((key, i) => {
    if (i !== 0) w.write(0, '\t');
    const value = ((annotations as Record<string, string>)[key] as string).replace(/\n$/, '');
    if (value.length + key.length + 2 > maxAnnotationLen || value.includes('\n')) {
      w.write(0, `${key}:\n`);
      for (const s of value.split('\n')) w.write(0, `\t  ${shorten(s, maxAnnotationLen - 2)}\n`);
    } else w.write(0, `${key}: ${value}\n`);
  });
}

function shorten(s: string, max: number): string {
  return s.length > max ? s.slice(0, max) + '...' : s;
}

export interface EventLike extends KubeObject {
  type?: string;
  reason?: string;
  message?: string;
  count?: number;
  eventTime?: string | null;
  firstTimestamp?: string | null;
  lastTimestamp?: string | null;
  source?: { component?: string };
  reportingComponent?: string;
  series?: { count?: number; lastObservedTime?: string };
}

export function describeEvents(events: EventLike[] | undefined, w: PrefixWriter, now: Date): void {
  if (events === undefined) return;
  if (events.length === 0) {
    w.write(0, 'Events:\t<none>\n');
    return;
  }
  w.flush();
  const first = (e: EventLike) => e.eventTime ?? e.firstTimestamp ?? '';
  const sorted = [...events].sort(
    (a, b) => Date.parse(a.lastTimestamp ?? first(a)) - Date.parse(b.lastTimestamp ?? first(b)),
  );
  w.write(0, 'Events:\n  Type\tReason\tAge\tFrom\tMessage\n');
  w.write(1, '----\t------\t----\t----\t-------\n');
  for (const e of sorted) {
    const firstSince = ageSince(e.eventTime ?? e.firstTimestamp, now);
    let interval = firstSince;
    if (e.series !== undefined)
      interval = `${ageSince(e.series.lastObservedTime, now)} (x${e.series.count ?? 0} over ${firstSince})`;
    else if ((e.count ?? 0) > 1)
      interval = `${ageSince(e.lastTimestamp, now)} (x${e.count} over ${firstSince})`;
    const source = e.source?.component || e.reportingComponent || '';
    w.write(1, `${e.type ?? ''}\t${e.reason ?? ''}\t${interval}\t${source}\t${(e.message ?? '').trim()}\n`);
  }
}

/** fatih/camelcase's Split, as smartLabelFor uses it. */
function camelSplit(s: string): string[] {
  const runs: string[] = [];
  let lastClass = 0;
  for (const c of s) {
    const cls = /\p{Ll}/u.test(c) ? 1 : /\p{Lu}/u.test(c) ? 2 : /\p{Nd}/u.test(c) ? 3 : 4;
    if (cls === lastClass) runs[runs.length - 1] += c;
    else runs.push(c);
    lastClass = cls;
  }
  for (let i = 0; i < runs.length - 1; i++) {
    const cur = runs[i] as string;
    const next = runs[i + 1] as string;
    if (/^\p{Lu}+$/u.test(cur) && /^\p{Ll}/u.test(next)) {
      runs[i + 1] = cur.slice(-1) + next;
      runs[i] = cur.slice(0, -1);
    }
  }
  return runs.filter((r) => r !== '');
}

export function smartLabelFor(field: string): string {
  if ([...field].some((c) => !/\p{L}/u.test(c) && c !== '-')) return field;
  const acronyms = ['API', 'URL', 'UID', 'OSB', 'GUID'];
  return camelSplit(field)
    .filter((p) => p !== '_')
    .map((p) =>
      acronyms.includes(p.toUpperCase()) ? p.toUpperCase() : p.charAt(0).toUpperCase() + p.slice(1),
    )
    .join(' ');
}

function goValue(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** The generic describer's walk of an object: sorted fields, nested maps and lists indented. */
export function printUnstructured(
  w: PrefixWriter,
  level: number,
  content: Record<string, unknown>,
  prefix: string,
  skip: string[],
): void {
  for (const field of Object.keys(content).sort()) {
    const value = content[field];
    const expr = `${prefix}.${field}`;
    if (skip.includes(expr)) continue;
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      w.write(level, `${smartLabelFor(field)}:\n`);
      printUnstructured(w, level + 1, value as Record<string, unknown>, expr, skip);
    } else if (Array.isArray(value)) {
      w.write(level, `${smartLabelFor(field)}:\n`);
      for (const child of value) {
        if (typeof child === 'object' && child !== null && !Array.isArray(child))
          printUnstructured(w, level + 1, child as Record<string, unknown>, expr, skip);
        else w.write(level + 1, `${goValue(child)}\n`);
      }
    } else w.write(level, `${smartLabelFor(field)}:\t${goValue(value)}\n`);
  }
}

/** Go's time.RFC1123Z layout: `Mon, 02 Jan 2006 15:04:05 -0700` (in UTC here). */
export function rfc1123z(timestamp: string | null | undefined): string {
  if (timestamp === undefined || timestamp === null || timestamp === '')
    return 'Mon, 01 Jan 0001 00:00:00 +0000';
  const d = new Date(timestamp);
  const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const two = (n: number) => String(n).padStart(2, '0');
  return `${days[d.getUTCDay()]}, ${two(d.getUTCDate())} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} +0000`;
}
