/**
 * Field ownership from `metadata.managedFields`: each manager's `fieldsV1`
 * is a tree whose keys are `f:<field>`, `k:{…}` (a list item by its key
 * fields), `v:<json>` (a set member) and `i:<n>`, where an empty map marks an
 * owned field and a `.` key marks the node itself. The lab walks the live
 * object beside those trees and tells, for every line, who owns it.
 */

import type { KubeObject, ManagedFieldsEntry } from '../../api/meta';

const SEP = '\u0001';

export interface ManagerFields {
  manager: string;
  operation: string;
  /** Owned nodes, as fieldsV1 keys joined with SEP. */
  owned: Set<string>;
  /** Every node mentioned (owned or on the way to an owned one). */
  mentioned: Set<string>;
}

export function managerFields(entries: ManagedFieldsEntry[]): ManagerFields[] {
  return entries.map((entry) => {
    const owned = new Set<string>();
    const mentioned = new Set<string>();
    const walk = (node: unknown, prefix: string) => {
      if (typeof node !== 'object' || node === null) return;
      const keys = Object.keys(node);
      for (const key of keys) {
        if (key === '.') {
          owned.add(prefix);
          continue;
        }
        const path = prefix === '' ? key : `${prefix}${SEP}${key}`;
        mentioned.add(path);
        const child = (node as Record<string, unknown>)[key];
        if (typeof child === 'object' && child !== null && Object.keys(child).length === 0) owned.add(path);
        else walk(child, path);
      }
    };
    walk(entry.fieldsV1, '');
    return {
      manager: entry.manager ?? '(unnamed)',
      operation: `${entry.operation ?? ''}${entry.subresource ? ` ${entry.subresource}` : ''}`,
      owned,
      mentioned,
    };
  });
}

export interface OwnershipLine {
  depth: number;
  /** `data:`, `- ` for a list item, or `color:`. */
  label: string;
  /** A scalar's value as YAML would print it; undefined for maps and lists. */
  value?: string;
  owners: string[];
  /** True when this node is owned as a whole (an atomic list or map), so its children are not owned one by one. */
  whole: boolean;
}

/** One line per field and list item of `object` (without managedFields), with the managers that own it. */
export function ownershipLines(object: KubeObject, managers: ManagerFields[]): OwnershipLine[] {
  const lines: OwnershipLine[] = [];
  const ownersOf = (path: string) => managers.filter((m) => m.owned.has(path)).map((m) => m.manager);
  // A node owned while nothing below it is owned separately is owned as a whole (atomic); a keyed list
  // item is owned itself (its `.`) and field by field inside.
  const ownedBelow = (path: string) =>
    managers.some((m) => [...m.owned].some((p) => p.startsWith(`${path}${SEP}`)));

  const walk = (value: unknown, path: string, depth: number, label: string) => {
    const owners = path === '' ? [] : ownersOf(path);
    const container = typeof value === 'object' && value !== null;
    const empty = container && Object.keys(value).length === 0;
    const line: OwnershipLine = {
      depth,
      label,
      owners,
      whole: container && !empty && owners.length > 0 && !ownedBelow(path),
    };
    if (!container || empty) line.value = scalar(value);
    if (label !== '') lines.push(line);
    if (!container) return;
    if (Array.isArray(value)) {
      value.forEach((item, index) =>
        walk(item, join(path, itemKey(item, index, path, managers)), depth + 1, '-'),
      );
      return;
    }
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
      if (path === 'f:metadata' && key === 'managedFields') continue;
      walk(child, join(path, `f:${key}`), label === '' ? depth : depth + 1, `${key}:`);
    }
  };
  walk(object, '', 0, '');
  return lines;
}

/** The fieldsV1 key of a list item: `k:{…}` when some manager names it by key, else `v:` for scalars, else `i:`. */
function itemKey(item: unknown, index: number, listPath: string, managers: ManagerFields[]): string {
  if (typeof item !== 'object' || item === null) return `v:${JSON.stringify(item)}`;
  const prefix = `${listPath}${SEP}k:`;
  for (const m of managers) {
    for (const path of m.mentioned) {
      if (!path.startsWith(prefix)) continue;
      const segment = path.slice(listPath.length + 1).split(SEP)[0] ?? '';
      try {
        const key = JSON.parse(segment.slice(2)) as Record<string, unknown>;
        if (
          Object.entries(key).every(
            ([k, v]) => JSON.stringify((item as Record<string, unknown>)[k]) === JSON.stringify(v),
          )
        )
          return segment;
      } catch {
        // not a key segment
      }
    }
  }
  return `i:${index}`;
}

function join(prefix: string, segment: string): string {
  return prefix === '' ? segment : `${prefix}${SEP}${segment}`;
}

function scalar(value: unknown): string {
  if (typeof value === 'string')
    return /^[\w./:@-]+$/.test(value) && !/^(true|false|null|\d+)$/.test(value)
      ? value
      : JSON.stringify(value);
  if (Array.isArray(value)) return '[]';
  if (typeof value === 'object' && value !== null) return '{}';
  return String(value);
}
