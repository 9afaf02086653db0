/**
 * Cell formatting shared by the per-kind printers, written to match what
 * kubectl users see from the real server: ages as short human durations
 * ("45s", "3m20s", "5d"), label maps and selectors in selector syntax,
 * "<none>" for empty values, and container names and images joined by
 * commas. Also small readers for the loosely typed JSON objects.
 */

import { humanDuration } from '../../machinery/human-duration';
import type { TableColumn } from '../table';

export type Obj = Record<string, unknown>;

export function rec(v: unknown): Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {};
}

export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

export function str(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '';
}

export function int(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : 0;
}

/** Reads a nested value: `at(obj, 'spec', 'replicas')`. */
export function at(obj: unknown, ...path: string[]): unknown {
  let cur: unknown = obj;
  for (const p of path) cur = rec(cur)[p];
  return cur;
}

export function column(
  name: string,
  type: string,
  description: string,
  priority = 0,
  format = '',
): TableColumn {
  return { name, type, format, description, priority };
}

export const nameColumn = column(
  'Name',
  'string',
  'Name of the object, unique in its namespace or the cluster.',
  0,
  'name',
);
export const ageColumn = column('Age', 'string', 'Time since the object was created.');

export { humanDuration };

/** Time since an RFC 3339 timestamp, or `<unknown>` when there is none. */
export function since(timestamp: unknown, now: Date): string {
  const t = typeof timestamp === 'string' ? Date.parse(timestamp) : NaN;
  return Number.isFinite(t) ? humanDuration(now.getTime() - t) : '<unknown>';
}

export function age(obj: Obj, now: Date): string {
  return since(at(obj, 'metadata', 'creationTimestamp'), now);
}

/** `a=1,b=2` with keys sorted; `<none>` when empty. */
export function formatLabels(labels: unknown): string {
  const entries = Object.entries(rec(labels)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries.length === 0 ? '<none>' : entries.map(([k, v]) => `${k}=${str(v)}`).join(',');
}

/** A label selector in selector syntax, requirements sorted by key; '' when it selects everything. */
export function selectorString(selector: unknown): string {
  const s = rec(selector);
  const reqs: { key: string; text: string }[] = [];
  for (const [k, v] of Object.entries(rec(s.matchLabels))) reqs.push({ key: k, text: `${k}=${str(v)}` });
  for (const e of arr(s.matchExpressions)) {
    const key = str(rec(e).key);
    const values = arr(rec(e).values).map(str).sort();
    switch (str(rec(e).operator)) {
      case 'In':
        reqs.push({ key, text: `${key} in (${values.join(',')})` });
        break;
      case 'NotIn':
        reqs.push({ key, text: `${key} notin (${values.join(',')})` });
        break;
      case 'Exists':
        reqs.push({ key, text: key });
        break;
      case 'DoesNotExist':
        reqs.push({ key, text: `!${key}` });
        break;
    }
  }
  return reqs
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((r) => r.text)
    .join(',');
}

/** A label selector, `<none>` when absent or empty. */
export function formatSelector(selector: unknown): string {
  return selectorString(selector) || '<none>';
}

/** Container names and images, each joined by commas. */
export function containerCells(containers: unknown): [string, string] {
  const list = arr(containers).map(rec);
  return [list.map((c) => str(c.name)).join(','), list.map((c) => str(c.image)).join(',')];
}

/** `a,b,c + 2 more...` for at most three shown items. */
export function firstThree(items: string[], total = items.length): string {
  const shown = items.slice(0, 3).join(',');
  return total > 3 ? `${shown} + ${total - 3} more...` : shown;
}

export function orNone(s: string): string {
  return s === '' ? '<none>' : s;
}

export function boolPtr(v: unknown): string {
  return typeof v === 'boolean' ? (v ? 'True' : 'False') : '<unset>';
}

/** Access modes in their short forms, in the fixed order RWO, ROX, RWX, RWOP. */
export function accessModes(modes: unknown): string {
  const set = new Set(arr(modes).map(str));
  const short: [string, string][] = [
    ['ReadWriteOnce', 'RWO'],
    ['ReadOnlyMany', 'ROX'],
    ['ReadWriteMany', 'RWX'],
    ['ReadWriteOncePod', 'RWOP'],
  ];
  return short
    .filter(([m]) => set.has(m))
    .map(([, s]) => s)
    .join(',');
}
